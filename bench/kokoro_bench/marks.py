"""What word marks cost: time to first audio with marks on and off, side by side in one run.

    uv run python -m kokoro_bench.marks [--model-dir DIR] [--rounds 5] [--replies 12] \
        [--out docs/bench/marks.json]

Starts `python -m kokoro_server serve` as SageMaker would, then for the first sentence of every corpus
reply alternates the same request with marks off and on, over the WebSocket session and over POST,
timing the first audio frame (or the first NDJSON line). Reported: the medians, and the median of the
on/off ratio over pairs (the same sentence, back to back), which cancels what differs between
sentences; the JSON keeps every sample. It also times, in this process, the step that maps the model's durations to
written words against the synthesis of the same chunks: the one piece of work marks add.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

import aiohttp

from kokoro_bench.corpus import AGENT_REPLIES
from kokoro_core.chunker import chunk_text
from kokoro_core.model_cache import verify_directory
from kokoro_core.segmenter import split_sentences
from kokoro_server.engine.kokoro import Engine
from kokoro_server.text.reading import VoiceReading
from kokoro_server.text.word_sources import written_words
from kokoro_server.text.word_timing import align, phonemes_alone
from kokoro_tools.ports import wait_ready

from .server_overhead import emit, serving

VOICE = "af_heart"


async def ws_first_audio(url: str, text: str, marks: bool) -> float:
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}/invocations-bidirectional-stream") as ws:
        await ws.receive()  # ready
        started = time.perf_counter()
        await ws.send_json({"type": "speak", "text": text, "marks": marks})
        first = float("nan")
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY and first != first:
                first = time.perf_counter() - started
            elif message.type == aiohttp.WSMsgType.TEXT and json.loads(message.data)["type"] == "done":
                break
        return first


async def post_first_audio(url: str, text: str, marks: bool) -> float:
    async with aiohttp.ClientSession() as session:
        started = time.perf_counter()
        async with session.post(f"{url}/invocations", json={"text": text, "marks": marks}) as response:
            await response.content.readany()
            first = time.perf_counter() - started
            await response.read()
            return first


def mapping_cost(engine: Engine, sentences: list[str]) -> dict[str, float]:
    """Seconds spent synthesizing these sentences' chunks, and mapping their words (done again, alone)."""
    reading, as_written = VoiceReading(), VoiceReading(normalized=False)
    synth = mapping = 0.0
    for chunk in (c for sentence in sentences for c in chunk_text(sentence, reading=reading)):
        begun = time.perf_counter()
        engine.synthesize(chunk, VOICE)
        synth += time.perf_counter() - begun
        begun = time.perf_counter()
        words = written_words(chunk, reading)
        said = [word for written in words for word in written.said]
        phoneme_words = engine.phonemize(chunk, VOICE).split()
        if len(said) != len(phoneme_words):
            said = phonemes_alone(said, lambda text: engine.phonemize(text, VOICE, as_written))
        align(said, phoneme_words)
        mapping += time.perf_counter() - begun
    return {"synthesis_s": round(synth, 3), "word_mapping_s": round(mapping, 4), "share": round(mapping / synth, 4)}


def paired_ratio(on: list[float], off: list[float]) -> float:
    return round(statistics.median(a / b for a, b in zip(on, off, strict=True)), 3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--replies", type=int, default=12, help="how many corpus replies (from the first)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    replies = [json.loads(line)["text"] for line in AGENT_REPLIES.read_text().splitlines()[: args.replies]]
    sentences = [split_sentences(reply)[0] for reply in replies]

    samples: dict[str, list[float]] = {"ws_off": [], "ws_on": [], "post_off": [], "post_on": []}
    with serving(args.model_dir) as (url, server):
        wait_ready(url, server)
        for _ in range(args.rounds):
            for sentence in sentences:  # off and on back to back, in alternating order
                for marks in (False, True) if len(samples["ws_on"]) % 2 else (True, False):
                    key = "on" if marks else "off"
                    samples[f"ws_{key}"].append(asyncio.run(ws_first_audio(url, sentence, marks)))
                    samples[f"post_{key}"].append(asyncio.run(post_first_audio(url, sentence, marks)))
    engine = Engine(args.model_dir, verify_directory(args.model_dir))
    engine.warm_up()
    medians = {name: round(statistics.median(values) * 1000, 1) for name, values in samples.items()}
    emit(
        {
            "command": "uv run python -m kokoro_bench.marks",
            "rounds": args.rounds,
            "sentences": len(sentences),
            "ttfa_ms_median": medians,
            "ttfa_on_over_off_paired_median": {
                route: paired_ratio(samples[f"{key}_on"], samples[f"{key}_off"])
                for route, key in (("websocket", "ws"), ("post", "post"))
            },
            "word_mapping_vs_synthesis": mapping_cost(engine, sentences),
            "samples_ms": {name: [round(v * 1000, 1) for v in values] for name, values in samples.items()},
        },
        args.out,
    )


if __name__ == "__main__":
    main()
