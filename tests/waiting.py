"""The suite's one way to wait for something to become true: poll with a bound, and say what never came.

The bound is a hang guard, not a claim about speed: pick it generously (tens of seconds), so that a CI
machine several times slower than this one still passes, and a real hang still fails with a message.

A wait that should also stop early (a worker thread or a process died) says so in its condition, e.g.
``wait_until(lambda: job.started or not worker.is_alive(), "the job to start")``. ``poll_seconds`` is for the
rare wait that must catch a short-lived state (a chunk while it is being synthesized): poll faster, never
slower.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable

HANG_GUARD_SECONDS = 60.0
POLL_SECONDS = 0.02


def wait_until[T](
    condition: Callable[[], T], what: str, timeout: float = HANG_GUARD_SECONDS, *, poll_seconds: float = POLL_SECONDS
) -> T:
    """Poll ``condition`` until it returns something true, and return that; ``AssertionError`` naming
    ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(poll_seconds)
    return value


async def await_until[T](
    condition: Callable[[], T | Awaitable[T]],
    what: str,
    timeout: float = HANG_GUARD_SECONDS,
    *,
    poll_seconds: float = POLL_SECONDS,
) -> T:
    """``wait_until`` for a coroutine: polls without blocking the event loop. ``condition`` may itself be a
    coroutine function (a probe over the network), awaited on each poll."""
    deadline = time.monotonic() + timeout
    while not (value := await _checked(condition)):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await asyncio.sleep(poll_seconds)
    return value


async def _checked[T](condition: Callable[[], T | Awaitable[T]]) -> T:
    value = condition()
    return await value if inspect.isawaitable(value) else value


async def within[T](awaitable: Awaitable[T], what: str, timeout: float = HANG_GUARD_SECONDS) -> T:
    """Await ``awaitable`` under a hang guard; ``AssertionError`` naming ``what`` past ``timeout`` seconds."""
    try:
        return await asyncio.wait_for(awaitable, timeout)
    except TimeoutError:
        raise AssertionError(f"waited {timeout:g} s for {what}") from None
