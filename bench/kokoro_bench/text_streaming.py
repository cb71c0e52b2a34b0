"""Where a reply is cut into sentences, side by side in one run: on the client (each sentence a ``speak``)
against on the server (the raw deltas ``append``-ed to a context), on the corpus replies streamed token by
token as an LLM writes them.

    uv run python -m kokoro_bench.text_streaming [--model-dir DIR] [--rounds 1] [--token-chars 4] \
        [--token-ms 20] [--out docs/bench/text_streaming.json]

Starts `python -m kokoro_server serve` as SageMaker would, and for each reply alternates the two modes
(client first, then server, then the other way round), each in a fresh session. Reported: the time to
first audio (from the first token sent), each mode's median, the server-over-client ratio of the medians,
and whether both spoke the same sentences with the same words marked.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from kokoro_bench.corpus import load_replies
from kokoro_stream import Speaker, WebSocketTransport
from kokoro_tools.ports import wait_ready

from .server_overhead import emit, serving

MODES = ("client", "server")


async def tokens(text: str, size: int, pace_s: float):
    for start in range(0, len(text), size):
        await asyncio.sleep(pace_s)
        yield text[start : start + size]


async def speak(url: str, mode: str, text: str, size: int, pace_s: float) -> tuple[float, list[tuple[str, list[str]]]]:
    """Seconds from the first token to the first audio, and each sentence spoken with its marked words."""
    ws_url = url.replace("http://", "ws://") + "/invocations-bidirectional-stream"
    async with Speaker(WebSocketTransport(ws_url), segment=mode) as speaker:  # type: ignore[arg-type]
        started = time.perf_counter()
        first_audio = None
        spoken: dict[str, list[str]] = {}
        async for chunk in speaker.speak(tokens(text, size, pace_s)):
            if first_audio is None and chunk.audio:
                first_audio = time.perf_counter() - started - pace_s  # the first token goes out after one pace
            spoken.setdefault(chunk.text, []).extend(word.text for word in chunk.words)
    assert first_audio is not None
    return first_audio, list(spoken.items())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--token-chars", type=int, default=4, help="characters per token")
    parser.add_argument("--token-ms", type=float, default=20.0, help="one token every this many ms")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    replies = load_replies()
    ttfa: dict[str, list[float]] = {mode: [] for mode in MODES}
    same = []
    pace_s = args.token_ms / 1000
    with serving(args.model_dir) as (url, server):
        wait_ready(url, server)
        asyncio.run(speak(url, "client", "Warm up.", args.token_chars, 0))  # the first call loads the graph
        for round_ in range(args.rounds):
            for index, text in enumerate(replies.values()):
                order = MODES if (round_ + index) % 2 == 0 else MODES[::-1]
                spoken = {}
                for mode in order:
                    seconds, spoken[mode] = asyncio.run(speak(url, mode, text, args.token_chars, pace_s))
                    ttfa[mode].append(seconds)
                same.append(spoken["client"] == spoken["server"])
    medians = {mode: statistics.median(values) for mode, values in ttfa.items()}
    emit(
        {
            "command": "uv run python -m kokoro_bench.text_streaming",
            "replies": len(replies),
            "rounds": args.rounds,
            "token_chars": args.token_chars,
            "token_ms": args.token_ms,
            "ttfa_ms": {mode: [round(1000 * s, 1) for s in values] for mode, values in ttfa.items()},
            "ttfa_median_ms": {mode: round(1000 * s, 1) for mode, s in medians.items()},
            "server_over_client_ttfa_median": round(medians["server"] / medians["client"], 3),
            "same_sentences_and_marks": f"{sum(same)}/{len(same)}",
        },
        args.out,
    )


if __name__ == "__main__":
    main()
