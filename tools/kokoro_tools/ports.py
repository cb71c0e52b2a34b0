"""A server process on a loopback port: a free port to tell it in advance, and the wait until it is ready."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from typing import Any


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_ready(url: str, process: subprocess.Popen[Any], timeout: float | None = None) -> None:
    """Poll ``url``/ping until it answers 200. ``RuntimeError`` if ``process`` exits first, ``TimeoutError``
    past ``timeout`` seconds (None: no limit)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while process.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/ping", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.HTTPError, OSError):
            pass  # 503 while it loads, or nothing listening yet
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError(f"{url}/ping did not answer 200 within {timeout:g} s")
        time.sleep(0.01)
    raise RuntimeError(f"the server at {url} exited with {process.returncode} before it was ready")
