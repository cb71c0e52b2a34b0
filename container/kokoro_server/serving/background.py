"""A speech server on its own event loop in a background thread, for the demo and for tests."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from kokoro_server.engine.speech_engine import SpeechEngine
from kokoro_server.settings import ServerSettings

from .server import Server


class BackgroundServer:
    def __init__(self, settings: ServerSettings, engine: SpeechEngine | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.server = Server(settings, engine)
        self._thread = threading.Thread(target=self.loop.run_forever, name="kokoro-server", daemon=True)

    def start(self, timeout: float = 300) -> BackgroundServer:
        """Start and wait until the model is loaded and warm."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(timeout=timeout)
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/invocations-bidirectional-stream"

    def call(self, function: Any, *args: Any) -> Any:
        """Run ``function`` on the server's loop, where its state lives, and return the result."""

        async def run() -> Any:
            return function(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=30)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
