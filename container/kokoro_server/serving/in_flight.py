"""Request handlers running now, so that a stop can let them end and then cut them, within a bound.

The server's stop cuts its streaming POST handlers this way; so do the local tools' (``kokoro_tools.stopping``).
The web server's own graceful wait would give a streaming handler its timeout twice before canceling it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class InFlight:
    """The handler tasks running now (each request's, while it is tracked)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def __len__(self) -> int:
        return len(self._tasks)

    @contextmanager
    def tracking(self) -> Iterator[None]:
        """Count the current task (a request's handler) in flight while the block runs."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._tasks.discard(task)

    def middleware(self) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
        """An aiohttp middleware that tracks every request of an app."""

        @web.middleware
        async def tracked(request: web.Request, handler: Handler) -> web.StreamResponse:
            with self.tracking():
                return await handler(request)

        return tracked

    async def end(self, grace_seconds: float, cut_seconds: float) -> None:
        """Let the handlers in flight end by themselves for ``grace_seconds``, cancel those left, and give
        them ``cut_seconds`` more to close."""
        left = set(self._tasks)
        if left and grace_seconds > 0:
            _, left = await asyncio.wait(left, timeout=grace_seconds)
        for task in left:
            task.cancel()
        if left:
            await asyncio.wait(left, timeout=cut_seconds)
