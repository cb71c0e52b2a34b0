"""A real server on a loopback port, with the embedded model, shared by the server tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kokoro_server.embedded_model import model_directory
from kokoro_server.server import Server
from kokoro_server.settings import ServerSettings


class RunningServer:
    """A ``Server`` on its own event loop in a background thread."""

    def __init__(self, settings: ServerSettings) -> None:
        self.loop = asyncio.new_event_loop()
        self.server = Server(settings)
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(timeout=300)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    @property
    def ws_url(self) -> str:
        return f"{self.url}/invocations-bidirectional-stream"

    def call(self, function, *args):
        """Run ``function`` on the server's loop (where its state lives) and return the result."""

        async def run():
            return function(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=30)

    def stats(self) -> dict[str, int]:
        return self.call(self.server.runtime.scheduler.stats)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)


@pytest.fixture(scope="session")
def embedded_model_dir() -> Path:
    return model_directory()


def start_server(model_dir: Path, **settings: object) -> RunningServer:
    return RunningServer(ServerSettings(host="127.0.0.1", port=0, model_dir=model_dir, **settings))


@pytest.fixture(scope="session")
def server(embedded_model_dir: Path) -> Iterator[RunningServer]:
    running = start_server(embedded_model_dir, workers=1)
    yield running
    running.stop()


def wait_until_idle(running: RunningServer, timeout: float = 15.0) -> dict[str, int]:
    """Wait for the server to settle after clients leave; return its scheduler counters."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        stats = running.stats()
        if not (stats["active_utterances"] or stats["queued_jobs"] or stats["running_jobs"]):
            return stats
        if time.monotonic() > deadline:
            return stats
        time.sleep(0.05)


@pytest.fixture
def idle_after(server: RunningServer) -> Iterator[RunningServer]:
    """The server, checked after the test: nothing left queued, running or admitted."""
    yield server
    assert wait_until_idle(server) == {"active_utterances": 0, "queued_jobs": 0, "running_jobs": 0, "lanes": 0}
    assert server.call(lambda: len(server.server.runtime.sessions)) == 0
