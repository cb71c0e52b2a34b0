"""A real speech server on a loopback port, with the embedded model, for server and client tests."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

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


def start_server(model_dir: Path, **settings: object) -> RunningServer:
    return RunningServer(ServerSettings(host="127.0.0.1", port=0, model_dir=model_dir, **settings))


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
