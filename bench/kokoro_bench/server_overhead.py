"""Time to ready, time to first audio through the server vs. a bare engine call, and RTF.

    uv run python -m kokoro_bench.server_overhead [--model-dir DIR] [--repeats N] \
        [--out docs/bench/server_overhead.json]

Starts `python -m kokoro_server serve` as SageMaker would, measures until /ping answers 200, then
alternates the same short sentence through a bare `Engine.synthesize` call (in this process) and
through the server (POST first byte, WebSocket first audio frame), so all three share one machine and
one run. Medians are reported; the JSON keeps every sample.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp

from kokoro_bench.corpus import AGENT_REPLIES as CORPUS
from kokoro_core.chunker import chunk_text
from kokoro_core.model_cache import verify_directory
from kokoro_server.engine.kokoro import SAMPLE_RATE, Engine
from kokoro_tools.ports import free_port, wait_ready

SHORT = "Sure, I can help with that."


async def post_first_byte(url: str) -> float:
    async with aiohttp.ClientSession() as session:
        started = time.perf_counter()
        async with session.post(f"{url}/invocations", json={"text": SHORT}) as response:
            await response.content.readany()
            first = time.perf_counter() - started
            await response.read()
            return first


async def ws_first_audio(url: str) -> float:
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}/invocations-bidirectional-stream") as ws:
        await ws.receive()  # ready
        started = time.perf_counter()
        await ws.send_json({"type": "speak", "text": SHORT})
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                first = time.perf_counter() - started
                break
        await ws.send_json({"type": "close"})
        async for _ in ws:
            pass
        return first


@contextmanager
def serving(model_dir: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """`python -m kokoro_server serve` on a free port, started as SageMaker starts it and stopped with
    SIGTERM on exit: its URL and process (not yet ready: see ``wait_ready``)."""
    port = free_port()
    command = [sys.executable, "-m", "kokoro_server", "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen([*command, "--model-dir", str(model_dir)], stdout=subprocess.DEVNULL)
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def emit(result: dict, out: Path | None) -> None:
    """Print the result as JSON, and write it to ``out`` when given."""
    text = json.dumps(result, indent=2)
    print(text)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()

    started = time.perf_counter()
    with serving(args.model_dir) as (url, server):
        wait_ready(url, server)
        time_to_ready = time.perf_counter() - started

        engine = Engine(args.model_dir, verify_directory(args.model_dir))
        engine.warm_up()
        first_chunk = chunk_text(SHORT)[0]
        samples: dict[str, list[float]] = {"engine": [], "post": [], "websocket": []}
        for _ in range(args.repeats):
            begun = time.perf_counter()
            engine.synthesize(first_chunk, "af_heart")
            samples["engine"].append(time.perf_counter() - begun)
            samples["post"].append(asyncio.run(post_first_byte(url)))
            samples["websocket"].append(asyncio.run(ws_first_audio(url)))

        synth_seconds = audio_seconds = 0.0
        texts = [json.loads(line)["text"] for line in CORPUS.read_text().splitlines()[:3]]
        for chunk in (c for text in texts for c in chunk_text(text)):
            begun = time.perf_counter()
            audio = engine.synthesize(chunk, "af_heart").audio
            synth_seconds += time.perf_counter() - begun
            audio_seconds += len(audio) / SAMPLE_RATE

    medians = {name: round(1000 * statistics.median(values), 1) for name, values in samples.items()}
    result = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "device": engine.device},
        "text": SHORT,
        "time_to_ready_s": round(time_to_ready, 2),
        "ttfa_median_ms": medians,
        "server_overhead_ratio": {name: round(medians[name] / medians["engine"], 3) for name in ("post", "websocket")},
        "rtf": round(synth_seconds / audio_seconds, 3),
        "rtf_audio_s": round(audio_seconds, 1),
        "samples_ms": {name: [round(1000 * v, 1) for v in values] for name, values in samples.items()},
        "server_exit_status": server.returncode,
    }
    emit(result, args.out)


if __name__ == "__main__":
    main()
