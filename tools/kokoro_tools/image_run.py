"""The speech server's image run as SageMaker runs it, in the local container engine: ``docker run IMAGE
serve`` with the model cache mounted read-only at /opt/ml/model, serving once /ping answers 200.

It runs on the host's network, listening on loopback only (the container's ``KOKORO_PORT`` on
127.0.0.1): the emulator and the tests reach it there as SageMaker's front end reaches port 8080 in the
instance, and other machines do not reach it at all.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .ports import free_port, wait_ready

STARTUP_SECONDS = 600.0  # the endpoint's default container start-up health check budget (cdk.json)


class ImageFailed(RuntimeError):
    """The image did not come up: it exited, or /ping never answered 200 in time."""


def serve_command(image: str, model_dir: Path, port: int, name: str) -> list[str]:
    return [
        "docker", "run", "--rm", "--name", name, "--network", "host",
        "--volume", f"{model_dir.resolve()}:/opt/ml/model:ro",
        "--env", f"KOKORO_PORT={port}",  # 8080 in SageMaker; a free port here, beside other servers
        "--env", "KOKORO_HOST=127.0.0.1",  # the host's network: this machine's programs only, not its LAN
        image, "serve",
    ]  # fmt: skip


@contextmanager
def serving_image(
    image: str, model_dir: Path, port: int = 0, startup_seconds: float = STARTUP_SECONDS
) -> Iterator[str]:
    """The image serving on ``port`` (a free one by default) until the block ends; yields its URL."""
    port = port or free_port()
    name = f"kokoro-emulated-{port}"
    process = subprocess.Popen(
        serve_command(image, model_dir, port, name), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_ready(url, process, startup_seconds)
        except RuntimeError:
            output = process.stdout.read() if process.stdout else ""
            raise ImageFailed(f"{image} exited with {process.returncode} before serving:\n{output[-4000:]}") from None
        except TimeoutError:
            raise ImageFailed(f"{image} did not answer /ping with 200 within {startup_seconds:g} s") from None
        yield url
    finally:
        subprocess.run(["docker", "rm", "--force", name], capture_output=True, check=False)
        process.wait(timeout=60)
