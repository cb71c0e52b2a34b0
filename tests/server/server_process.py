"""The server as SageMaker runs it: a separate process on a loopback port, its stdout captured."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

from tests.server.speech import run


def start(model_dir: Path, port: int, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kokoro_server",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--model-dir",
            str(model_dir),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **env},
    )


def ping_statuses(port: int, process: subprocess.Popen[str], timeout: float = 120) -> list[int]:
    """Poll /ping until it answers 200; return every status seen on the way."""

    async def poll():
        seen = []
        deadline = time.monotonic() + timeout
        async with aiohttp.ClientSession() as session:
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    async with session.get(f"http://127.0.0.1:{port}/ping") as response:
                        seen.append(response.status)
                        if response.status == 200:
                            return seen
                except aiohttp.ClientConnectionError:
                    pass
                await asyncio.sleep(0.02)
        return seen

    return run(poll())


def log_events(output: str) -> list[dict]:
    lines = (json.loads(line) for line in output.splitlines() if line.startswith("{"))
    return [line for line in lines if "event" in line]
