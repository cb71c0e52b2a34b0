"""How soon the server exits once its drain deadline passes with a full-size chunk in inference.

    uv run python -m kokoro_bench.shutdown [--repeats 3] [--slowdowns 1,4] [--out docs/bench/shutdown.json]

SageMaker sends SIGTERM, then SIGKILL 30 s later. The server drains for KOKORO_DRAIN_SECONDS
(default 20), then cuts what is left. This starts `python -m kokoro_server serve` as SageMaker would,
with a 1 s drain, speaks a 202-character sentence followed by a 320-character one, sends SIGTERM when
the first audio arrives (the long chunk is then in inference) and times the exit from the deadline. The
speak's ``first_chunk_chars`` keeps the first sentence whole as the first chunk, and the audio it plans
ahead lets the next chunk be the chunker's largest: the long sentence, whole. For scale it also times
the long chunk on a bare engine in this process: what the exit would wait for if the call in flight ran
to its end. KOKORO_ENGINE_SLOWDOWN stands in for a slower CPU: at 4, every inference call takes four
times as long as on this machine.
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
from pathlib import Path

import aiohttp

from kokoro_core.chunker import MAX_CHUNK_CHARS, chunk_text
from kokoro_core.model_cache import verify_directory
from kokoro_server.engine.device import load_on_device
from kokoro_server.settings import settings_from_env
from kokoro_tools.ports import free_port, wait_ready

from .server_overhead import emit

DRAIN_SECONDS = 1.0
LONG_SENTENCE = (
    "Your order left our warehouse this morning and is now with the courier, who expects to deliver it on "
    "Thursday between nine and noon; if nobody is home, the parcel goes to the pickup point on Main Street, "
    "where it waits for one whole week, and you can change the address or the day at any time "
    "from your account settings."
)
FIRST_SENTENCE = (
    "Thank you for waiting while I looked up the latest tracking details for the order you placed with us "
    "last week and I can now tell you exactly where your parcel is and when it should arrive at your home."
)
REPLY = f"{FIRST_SENTENCE} {LONG_SENTENCE}"


async def sigterm_at_first_audio(url: str, server: subprocess.Popen) -> float:
    """Speak REPLY; send SIGTERM as its first audio arrives; listen on until the server closes the session.

    Returns when SIGTERM was sent (monotonic). The client stays: were it to leave, its utterance would
    be canceled at once and the drain would end early.
    """
    signaled = None
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}/invocations-bidirectional-stream") as ws:
        await ws.receive()  # ready
        await ws.send_json({"type": "speak", "text": REPLY, "first_chunk_chars": len(FIRST_SENTENCE)})
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY and signaled is None:
                server.send_signal(signal.SIGTERM)
                signaled = time.monotonic()
    if signaled is None:
        raise RuntimeError("the session closed before any audio")
    return signaled


def cut_off(model_dir: Path, slowdown: float) -> dict[str, float | int]:
    """One server, cut at its deadline with the long chunk in inference; seconds from the deadline to exit."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "KOKORO_DRAIN_SECONDS": str(DRAIN_SECONDS), "KOKORO_ENGINE_SLOWDOWN": str(slowdown)}
    command = [sys.executable, "-m", "kokoro_server", "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--model-dir", str(model_dir)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True
    )
    try:
        wait_ready(url, server)
        signaled = asyncio.run(sigterm_at_first_audio(url, server))
        output, _ = server.communicate(timeout=60)
        exited = time.monotonic()
    finally:
        server.kill()
    events = {line["event"]: line for line in map(json.loads, output.splitlines()) if "event" in line}
    return {
        "exit_after_deadline_s": round(exited - signaled - DRAIN_SECONDS, 3),
        "interrupted_inference_calls": events["stopped"]["interrupted_inference_calls"],
        "exit_status": server.returncode,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--slowdowns", default="1,4", help="KOKORO_ENGINE_SLOWDOWN values to run, comma-separated")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    chunks = chunk_text(REPLY, first_chunk_chars=len(FIRST_SENTENCE), first_must_fit=True)
    if chunks != [FIRST_SENTENCE, LONG_SENTENCE] or len(LONG_SENTENCE) != MAX_CHUNK_CHARS:
        sizes = [len(chunk) for chunk in chunks]
        raise SystemExit(
            f"the chunk plan cuts the reply into chunks of {sizes} characters; this bench needs "
            f"[{len(FIRST_SENTENCE)}, {MAX_CHUNK_CHARS}] (the second one the chunker's largest): adjust its sentences"
        )

    engine, _ = load_on_device(settings_from_env(), args.model_dir, verify_directory(args.model_dir))
    engine.warm_up()
    begun = time.perf_counter()
    engine.synthesize(LONG_SENTENCE, "af_heart")
    long_chunk_seconds = time.perf_counter() - begun
    del engine

    runs = {}
    for slowdown in (float(value) for value in args.slowdowns.split(",")):
        samples = [cut_off(args.model_dir, slowdown) for _ in range(args.repeats)]
        cut = [sample["exit_after_deadline_s"] for sample in samples]
        runs[f"{slowdown:g}"] = {
            "long_chunk_synthesis_s": round(long_chunk_seconds * slowdown, 2),
            "exit_after_deadline_median_s": round(statistics.median(cut), 3),
            "exit_after_deadline_max_s": max(cut),
            "samples": samples,
        }
    result = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "drain_seconds": DRAIN_SECONDS,
        "long_chunk_chars": len(LONG_SENTENCE),
        "by_engine_slowdown": runs,
    }
    emit(result, args.out)


if __name__ == "__main__":
    main()
