"""What breaks inside sentences cost: an SSML document of N words, each followed by a short break, against
the same words as plain text, over POST, side by side in one run.

    uv run python -m kokoro_bench.ssml_breaks [--model-dir DIR] [--words 700] [--break-ms 10] [--rounds 1] \
        [--out docs/bench/ssml_breaks.json]

Starts `python -m kokoro_server serve` as SageMaker would, and alternates the two requests (plain first,
then the document, then the other way round). A break inside a sentence is made in the sentence's own
model call (docs/ssml.md), so the document should cost about what its words cost; reported are each
request's wall time and audio length, and the document-over-plain ratio of wall time per round.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import statistics
import time
from pathlib import Path
from xml.sax.saxutils import escape

import aiohttp

from kokoro_bench.corpus import AGENT_REPLIES
from kokoro_tools.ports import wait_ready

from .server_overhead import emit, serving


def corpus_words(count: int) -> list[str]:
    """The first ``count`` words of the corpus replies, in order."""
    words: list[str] = []
    for line in AGENT_REPLIES.read_text().splitlines():
        words.extend(json.loads(line)["text"].split())
        if len(words) >= count:
            break
    return words[:count]


def with_breaks(words: list[str], break_ms: int) -> str:
    return "<speak>" + "".join(f'{escape(word)} <break time="{break_ms}ms"/> ' for word in words) + "</speak>"


async def post(url: str, body: dict) -> tuple[float, float, int]:
    """Seconds until the whole answer is in, the audio's milliseconds, and the lines that carried audio."""
    started = time.perf_counter()
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=3600)) as session,
        session.post(f"{url}/invocations", json={**body, "format": "pcm16"}) as response,
    ):
        response.raise_for_status()
        lines = (await response.text()).splitlines()  # a long chunk's line is megabytes: read whole
    elapsed = time.perf_counter() - started
    chunks = [base64.b64decode(audio) for line in lines if (audio := json.loads(line).get("audio"))]
    return elapsed, round(sum(map(len, chunks)) / 2 / 24, 1), len(chunks)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--words", type=int, default=700)
    parser.add_argument("--break-ms", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    words = corpus_words(args.words)
    bodies = {
        "plain": {"text": " ".join(words), "ssml": False, "marks": True},
        "document": {"text": with_breaks(words, args.break_ms), "ssml": True, "marks": True},
    }
    samples: dict[str, list[tuple[float, float, int]]] = {"plain": [], "document": []}
    with serving(args.model_dir) as (url, server):
        wait_ready(url, server)
        for round_ in range(args.rounds):
            for name in ("plain", "document") if round_ % 2 == 0 else ("document", "plain"):
                samples[name].append(asyncio.run(post(url, bodies[name])))
    ratios = [doc[0] / plain[0] for doc, plain in zip(samples["document"], samples["plain"], strict=True)]
    emit(
        {
            "command": "uv run python -m kokoro_bench.ssml_breaks",
            "words": len(words),
            "break_ms": args.break_ms,
            "rounds": args.rounds,
            "wall_s": {name: [round(sample[0], 2) for sample in values] for name, values in samples.items()},
            "audio_ms": {name: [sample[1] for sample in values] for name, values in samples.items()},
            "document_over_plain_wall_median": round(statistics.median(ratios), 3),
        },
        args.out,
    )


if __name__ == "__main__":
    main()
