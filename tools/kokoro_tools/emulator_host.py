"""Hosting the SageMaker runtime emulator: HTTPS with HTTP/2 (hypercorn) on a loopback port, with a
certificate from a certificate authority made on the spot (trustme), in a background thread."""

from __future__ import annotations

import asyncio
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


@dataclass
class RunningEmulator:
    url: str  # https://127.0.0.1:PORT
    ca_file: Path  # the certificate authority a client must trust


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
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(_quiet_about_closed_tls)
        stop = asyncio.Event()
        started = threading.Event()

        async def run() -> None:
            started.set()
            try:
                emulator = Emulator(container, endpoint_name, region, max_part_bytes, limits or Limits())
                await serve(emulator, config, shutdown_trigger=stop.wait)
            except Exception:
                if not stop.is_set():
                    raise
                # Closing: connections that clients dropped mid-stream fail their TLS shutdown; nobody is left.

        thread = threading.Thread(target=loop.run_until_complete, args=(run(),), name="kokoro-emulate", daemon=True)
        thread.start()
        started.wait(10)
        _wait_listening(port)
        try:
            yield RunningEmulator(f"https://127.0.0.1:{port}", ca_file)
        finally:
            loop.call_soon_threadsafe(stop.set)
            thread.join(timeout=10)


def _quiet_about_closed_tls(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """A client that drops its connection mid-TLS-shutdown is normal here; anything else is reported."""
    if isinstance(context.get("exception"), ssl.SSLError | ConnectionError):
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
