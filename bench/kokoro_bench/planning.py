"""How the server's text work grows with the text, and whether the server stays responsive meanwhile.

    uv run python -m kokoro_bench.planning [--sizes 1 5 20] [--window 8] \
        [--out docs/bench/planning.json] [--plot docs/bench/planning.png]

Texts from families that once made planning quadratic or worse (repeated abbreviations, digits, emoji,
text with no space, URL-like text, weekday abbreviations, words joined by commas, Chinese without a
break) and texts drawn by hypothesis from the same kinds of pieces, at each size in KB (thousands of
bytes of UTF-8, as a request carries them). Two parts, one run:

1. In this process: the text work of a whole request apart from the model, with caches cleared: the
   chunk plan as the voice reads it, what is said for each chunk, and each chunk's word timing (what
   ``marks`` needs). ``growth`` is the time per KB at the largest size over that at the smallest: 1.0 is
   linear.
2. Against ``python -m kokoro_server serve`` on the embedded model: each family's largest text POSTed
   while another connection asks ``/ping`` every 50 ms. The slowest ``/ping`` answer, the time to first
   audio and the chunks received in the first ``--window`` seconds; then the request is dropped, which
   cancels its synthesis.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from kokoro_core.chunker import FIRST_CHUNK_CHARS, MAX_CHUNK_CHARS
from kokoro_core.speakable import language_of
from kokoro_server.engine.speech_engine import Interruption
from kokoro_server.serving.planning import ChunkPlan
from kokoro_server.text import reading as server_text
from kokoro_server.text.reading import VoiceReading
from kokoro_server.text.word_sources import written_words
from kokoro_tools.ports import wait_ready

from .server_overhead import emit, serving

PING_EVERY = 0.05
# Pieces the hypothesis family is drawn from: each kind of text one of the rules reads specially.
PIECES = (
    "St. ", "Dr. ", "Ab ", "Sat. ", "on ", "1 ", "42", "3/4/2025 ", "$9,730.12 ", "3 p.m. ", "www.", "a.com",
    "/path", "?q=1&", "🎉", "👋🏽", "无", "。", "，", "word,", "e.g. ", "etc. ", " ", "\n", "...", "—", "x",
)  # fmt: skip


def _repeated(unit: str) -> Callable[[int], str]:
    """``unit`` repeated to ``size`` bytes of UTF-8 (cut at a whole character)."""
    return lambda size: (unit * (size // len(unit.encode()) + 1)).encode()[:size].decode(errors="ignore")


def _drawn(size: int) -> str:
    """Pieces as hypothesis draws them (deterministically), joined and repeated to ``size`` bytes."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    drawn: list[str] = []

    @settings(max_examples=40, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.sampled_from(PIECES), min_size=20, max_size=200))
    def collect(pieces: list[str]) -> None:
        drawn.append("".join(pieces))

    collect()
    return _repeated("".join(drawn))(size)


# family: (voice, the text of a given length)
FAMILIES: dict[str, tuple[str, Callable[[int], str]]] = {
    "abbreviations": ("af_heart", _repeated("Ab St. ")),
    "digits": ("af_heart", _repeated("1 ")),
    "emoji": ("af_heart", _repeated("🎉👋🏽 ok ")),
    "no_space": ("af_heart", _repeated("abcdefghij")),
    "url_like": ("af_heart", _repeated("www.a.com/")),
    "weekdays": ("af_heart", _repeated("on Sat. ")),
    "comma_joined": ("af_heart", _repeated("word,")),
    "chinese_no_break": ("zf_xiaobei", _repeated("您的订单已经发货")),
    "hypothesis": ("af_heart", _drawn),
}


def text_work_seconds(text: str, voice: str, repeats: int) -> tuple[float, int]:
    """The fastest of ``repeats`` runs of a request's text work, caches cleared each time; and its chunks."""
    reading = VoiceReading(language_of(voice))
    best, chunks = float("inf"), 0
    for _ in range(repeats):
        server_text._said.cache_clear()
        started = time.perf_counter()
        chunks = 0
        plan = ChunkPlan(text, reading, (FIRST_CHUNK_CHARS, False), MAX_CHUNK_CHARS, Interruption())
        while (chunk := plan.take()) is not None:
            written_words(chunk, reading, reading.parts(chunk))  # what is said for the chunk, and its words
            chunks += 1
        best = min(best, time.perf_counter() - started)
    return best, chunks


async def _pings(url: str, latencies: list[float], stop: asyncio.Event) -> None:
    async with aiohttp.ClientSession() as http:
        while not stop.is_set():
            started = time.perf_counter()
            async with http.get(f"{url}/ping") as response:
                await response.read()
            latencies.append(time.perf_counter() - started)
            await asyncio.sleep(PING_EVERY)


async def served_while_pinged(url: str, text: str, voice: str, window: float) -> dict[str, Any]:
    """POST ``text``, read its audio for ``window`` seconds while /ping is asked; then hang up."""
    latencies: list[float] = []
    stop = asyncio.Event()
    pinger = asyncio.create_task(_pings(url, latencies, stop))
    first_audio, chunks, status = None, 0, 0
    started = time.perf_counter()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{url}/invocations", json={"text": text, "voice": voice}) as response:
                status = response.status
                try:
                    async with asyncio.timeout(window):
                        async for _ in response.content.iter_any():
                            chunks += 1
                            first_audio = first_audio or time.perf_counter() - started
                except TimeoutError:
                    pass
    finally:
        stop.set()
        await pinger
    return {
        "status": status,
        "ttfa_s": round(first_audio, 3) if first_audio else None,
        "parts_in_window": chunks,
        "pings": len(latencies),
        "ping_max_ms": round(1000 * max(latencies), 1),
        "ping_median_ms": round(1000 * sorted(latencies)[len(latencies) // 2], 1),
    }


async def idle_pings(url: str, seconds: float) -> float:
    latencies: list[float] = []
    stop = asyncio.Event()
    pinger = asyncio.create_task(_pings(url, latencies, stop))
    await asyncio.sleep(seconds)
    stop.set()
    await pinger
    return round(1000 * max(latencies), 1)


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (growth, pings) = plt.subplots(1, 2, figsize=(12, 4.8))
    for family, rows in result["text_work"].items():
        sizes = [row["kb"] for row in rows]
        growth.plot(sizes, [row["ms_per_kb"] for row in rows], marker="o", label=family)
    growth.set(xscale="log", yscale="log", xlabel="request text (KB)", ylabel="ms of text work per KB")
    growth.set_title("text work per KB (flat: linear)")
    growth.legend(fontsize=7)
    served = result["served"]
    names = list(served)
    pings.barh(names, [served[name]["ping_max_ms"] for name in names])
    pings.axvline(1000, color="red", linestyle="--", label="1 s")
    pings.set(xlabel="slowest /ping during the request (ms)")
    pings.set_title(f"/ping while a {result['largest_kb']} KB request is served")
    pings.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 5, 20], help="KB of UTF-8 text")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--window", type=float, default=8.0, help="seconds each request is read")
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()

    text_work: dict[str, list[dict[str, Any]]] = {}
    for family, (voice, make) in FAMILIES.items():
        rows = text_work[family] = []
        for kb in args.sizes:
            seconds, chunks = text_work_seconds(make(kb * 1000), voice, args.repeats)
            rows.append({"kb": kb, "seconds": round(seconds, 4), "chunks": chunks, "ms_per_kb": seconds / kb * 1e3})
        growth = rows[-1]["ms_per_kb"] / rows[0]["ms_per_kb"]
        for row in rows:
            row["ms_per_kb"] = round(row["ms_per_kb"], 2)
        rows[-1]["growth"] = round(growth, 2)
        print(f"{family}: " + ", ".join(f"{r['kb']} KB {r['seconds']:.3f} s" for r in rows), flush=True)

    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    largest = max(args.sizes) * 1000
    served: dict[str, dict[str, Any]] = {}
    with serving(args.model_dir) as (url, server):
        wait_ready(url, server)
        idle_ms = asyncio.run(idle_pings(url, 2.0))
        for family, (voice, make) in FAMILIES.items():
            served[family] = asyncio.run(served_while_pinged(url, make(largest), voice, args.window))
            print(f"{family}: {served[family]}", flush=True)

    result = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "command": "uv run python -m kokoro_bench.planning " + " ".join(sys.argv[1:]),
        "sizes_kb": args.sizes,
        "largest_kb": max(args.sizes),
        "text_work": text_work,
        "growth": {family: rows[-1]["growth"] for family, rows in text_work.items()},
        "idle_ping_max_ms": idle_ms,
        "served": served,
        "ping_max_ms_any_request": max(row["ping_max_ms"] for row in served.values()),
        "server_exit_status": server.returncode,
    }
    if args.plot:
        plot(result, args.plot)
    emit(result, args.out)


if __name__ == "__main__":
    main()
