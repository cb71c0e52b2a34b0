"""Hosting the SageMaker runtime emulator: HTTPS with HTTP/2 (hypercorn) on a loopback port, with a
certificate from a certificate authority made on the spot (trustme), in a background thread.

Stopping is bounded whatever clients hold open: the emulator stops listening, streams in flight get
``GRACE_SECONDS`` to end, and whatever is still open then is cut (its tasks canceled, its connections
closed). A client that keeps an HTTP/2 connection or a bidirectional stream open would otherwise hold
the stop for as long as it likes: asyncio's ``Server.wait_closed`` waits for every connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trustme
from hypercorn.asyncio import serve
from hypercorn.config import Config

from .emulator import Emulator, Limits
from .ports import free_port

GRACE_SECONDS = 2.0  # on stop: how long streams in flight get to end by themselves
CUT_SECONDS = 1.0  # then: how long cutting what is left may take
STOP_SECONDS = GRACE_SECONDS + CUT_SECONDS  # the whole stop, by construction


@dataclass
class RunningEmulator:
    url: str  # https://127.0.0.1:PORT
    ca_file: Path  # the certificate authority a client must trust
    cut: bool | None = None  # once the block has ended: whether streams were still open at the grace deadline


@contextmanager
def emulating(
    container: str,
    endpoint_name: str = "kokoro-tts",
    region: str = "us-east-1",
    port: int = 0,
    max_part_bytes: int | None = None,
    limits: Limits | None = None,
) -> Iterator[RunningEmulator]:
    """The emulator on a loopback port, in a background thread, until the block ends."""
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="kokoro-emulate-") as folder:
        authority = trustme.CA()
        certificate = authority.issue_cert("127.0.0.1", "localhost")
        key_and_chain, ca_file = Path(folder) / "server.pem", Path(folder) / "ca.pem"
        certificate.private_key_and_cert_chain_pem.write_to_path(str(key_and_chain))
        authority.cert_pem.write_to_path(str(ca_file))
        config = Config()
        config.bind = [f"127.0.0.1:{port}"]
        config.certfile = config.keyfile = str(key_and_chain)
        config.alpn_protocols = ["h2", "http/1.1"]
        config.accesslog = config.errorlog = None
        config.graceful_timeout = GRACE_SECONDS
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(_quiet_about_closed_tls)
        stop = asyncio.Event()

        async def run() -> None:
            try:
                emulator = Emulator(container, endpoint_name, region, max_part_bytes, limits or Limits())
                await serve(emulator, config, shutdown_trigger=stop.wait)
            except (Exception, asyncio.CancelledError):
                if not stop.is_set():
                    raise
                # Closing: streams cut at the grace deadline, or connections that clients dropped mid-TLS-shutdown.

        serving = loop.create_task(run())
        thread = threading.Thread(target=_run, args=(loop, serving), name="kokoro-emulate", daemon=True)
        thread.start()
        _wait_listening(port)
        running = RunningEmulator(f"https://127.0.0.1:{port}", ca_file)
        try:
            yield running
        finally:
            running.cut = _stop(loop, thread, stop, serving)


def _run(loop: asyncio.AbstractEventLoop, serving: asyncio.Task[None]) -> None:
    """The emulator's thread: serve until stopped, then end every task left and close the loop."""
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(serving)
    finally:
        if left := asyncio.all_tasks(loop):
            for task in left:
                task.cancel()
            loop.run_until_complete(asyncio.wait(left))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def _stop(
    loop: asyncio.AbstractEventLoop, thread: threading.Thread, stop: asyncio.Event, serving: asyncio.Task[None]
) -> bool:
    """Stop serving within ``STOP_SECONDS``: a grace period for streams in flight, then cut what is left;
    return whether anything was."""
    begun = time.monotonic()
    loop.call_soon_threadsafe(stop.set)
    thread.join(GRACE_SECONDS)
    cut = thread.is_alive()
    if cut:
        with contextlib.suppress(RuntimeError):  # the thread closed its loop meanwhile: nothing to cut
            loop.call_soon_threadsafe(serving.cancel)
        thread.join(max(0.0, begun + STOP_SECONDS - time.monotonic()))
    return cut


def _quiet_about_closed_tls(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """A client that drops its connection mid-TLS-shutdown is normal here, and so is a connection cut at the
    grace deadline; anything else is reported."""
    if isinstance(context.get("exception"), ssl.SSLError | ConnectionError | asyncio.CancelledError):
        return
    loop.default_exception_handler(context)


def _wait_listening(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise RuntimeError(f"the emulator did not listen on port {port}")
