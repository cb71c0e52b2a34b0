"""How the long-running local commands (``emulate``, ``proxy``, ``playground``) stop: on Ctrl-C or SIGTERM,
within a bound each states, whatever connections clients leave open.

Every wait on the way out has a deadline: requests in flight get a grace period, then their handlers
are canceled and their connections closed. Each command prints how long its stop took, from the signal.
"""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from collections.abc import Callable

from aiohttp import web

from kokoro_server.serving.in_flight import InFlight

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# An aiohttp app (the proxy, the playground page): how long requests in flight get to end by themselves,
# then how long their canceled handlers get to close. aiohttp's own graceful shutdown would give a
# streaming handler its timeout twice, so handlers are cut here and aiohttp finds nothing left to wait for.
APP_GRACE_SECONDS = 2.0
APP_CUT_SECONDS = 1.0
APP_STOP_SECONDS = APP_GRACE_SECONDS + APP_CUT_SECONDS


class StopSignal:
    """Ctrl-C (SIGINT) or SIGTERM, caught from when this is made: made before a command says it is ready, so
    a signal sent the moment it does is not lost to the default handler."""

    def __init__(self) -> None:
        self._stopping = threading.Event()
        for signum in STOP_SIGNALS:
            signal.signal(signum, lambda *_: self._stopping.set())

    def wait(self) -> float:
        """Block until the signal came; return when it did (``time.monotonic``)."""
        self._stopping.wait()
        _second_signal_quits()
        return time.monotonic()


def _second_signal_quits() -> None:
    """A second Ctrl-C or SIGTERM during the stop ends the process at once, as it would without handlers."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def serve_until_stopped(app: web.Application, host: str, port: int, on_ready: Callable[[], None]) -> float:
    """Serve ``app`` until Ctrl-C or SIGTERM, then stop within ``APP_STOP_SECONDS`` and a little; return when
    the signal came (``time.monotonic``)."""
    handlers = InFlight()
    app.middlewares.insert(0, handlers.middleware())
    return asyncio.run(_serve(app, handlers, host, port, on_ready))


async def _serve(app: web.Application, handlers: InFlight, host: str, port: int, on_ready: Callable[[], None]) -> float:
    runner = web.AppRunner(app, handler_cancellation=True, access_log=None, shutdown_timeout=APP_CUT_SECONDS)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, stopping.set)
        on_ready()
        await stopping.wait()
        signaled = time.monotonic()
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)
        _second_signal_quits()
        await site.stop()  # no new connections
        await handlers.end(APP_GRACE_SECONDS, APP_CUT_SECONDS)
        return signaled
    finally:
        await runner.cleanup()  # nothing in flight is left: this closes idle connections


def stopped_line(signaled: float, bound: float, detail: str = "") -> str:
    """What a command prints last: how long its stop took, against the bound it states."""
    return f"stopped in {time.monotonic() - signaled:.2f} s (bound {bound:g} s){detail}"
