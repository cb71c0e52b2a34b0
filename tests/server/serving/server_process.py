"""The server as SageMaker runs it: a separate process on a loopback port, its stdout captured."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import aiohttp

from tests.speech import run
from tests.waiting import await_until


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


# A hang guard, not a speed claim: loading and warming the model takes many seconds on a busy two-core machine.
READY_HANG_GUARD_SECONDS = 300.0
# How late a process on a busy machine may wake after the last deadline of its stop.
SCHEDULING_ALLOWANCE_SECONDS = 1.0


def ping_statuses(port: int, process: subprocess.Popen[str], timeout: float = READY_HANG_GUARD_SECONDS) -> list[int]:
    """Poll /ping until it answers 200; return every status seen on the way (the last is not 200 if the
    process exited first). ``AssertionError`` if neither happens within ``timeout`` seconds."""

    async def poll() -> list[int]:
        seen: list[int] = []
        async with aiohttp.ClientSession() as session:

            async def ready_or_exited() -> bool:
                if process.poll() is not None:
                    return True
                try:
                    async with session.get(f"http://127.0.0.1:{port}/ping") as response:
                        seen.append(response.status)
                        return response.status == 200
                except aiohttp.ClientConnectionError:
                    return False

            await await_until(ready_or_exited, "/ping to answer 200 (or the server to exit)", timeout)
        return seen

    return run(poll())


def log_events(output: str) -> list[dict]:
    lines = (json.loads(line) for line in output.splitlines() if line.startswith("{"))
    return [line for line in lines if "event" in line]


def stopped_within_bound(output: str) -> dict:
    """The server's ``stopped`` event, checked: its stop took no longer than the bound it states (the drain
    deadline and the cut after it), measured by the server from the signal."""
    stopped = [event for event in log_events(output) if event["event"] == "stopped"]
    assert stopped, output
    event = stopped[-1]
    assert event["seconds"] <= event["bound_seconds"] + SCHEDULING_ALLOWANCE_SECONDS, event
    return event


class OutputReader:
    """A server process's output, read as it comes (a thread), so a test can wait for a line while it runs."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self._process = process
        self._lines: list[str] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.append(line)

    @property
    def lines(self) -> list[str]:
        return list(self._lines)

    def output(self, timeout: float) -> str:
        """Everything the process wrote, once it has exited (within ``timeout`` seconds)."""
        self._process.wait(timeout=timeout)
        self._thread.join(timeout=timeout)
        return "".join(self._lines)
