"""The agent app on a loopback port in a background thread: for `kokoro-agent local` and the tests."""

from __future__ import annotations

import threading
import time

import uvicorn
from starlette.applications import Starlette

from .app import GRACEFUL_SHUTDOWN_SECONDS


class BackgroundAgent:
    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 0) -> None:
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="kokoro-agent", daemon=True)

    def start(self, timeout: float = 30) -> BackgroundAgent:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the agent server did not start")
            time.sleep(0.02)
        return self

    @property
    def url(self) -> str:
        host, port = self._server.servers[0].sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> BackgroundAgent:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
