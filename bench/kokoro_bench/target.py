"""Building the bench's target: a local server (started here or given by URL) or an endpoint."""

from __future__ import annotations

import contextlib
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from kokoro_capacity.local_runtime import LOCAL_ENDPOINT, LocalRuntimeClient
from kokoro_core.model_cache import verify_directory
from kokoro_server.engine.device import load_on_device
from kokoro_server.engine.kokoro import Engine
from kokoro_server.serving.background import BackgroundServer
from kokoro_server.settings import settings_from_env
from kokoro_stream.endpoint import Endpoint

from .strategies import Target


def _engine(model_dir: Path | None) -> Engine:
    if model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        model_dir = model_directory()
    return load_on_device(settings_from_env(), model_dir, verify_directory(model_dir))[0]  # as the server's


@contextlib.contextmanager
def open_target(
    url: str | None, endpoint: Endpoint | None, voice: str, model_dir: Path | None = None
) -> Iterator[tuple[Target, dict[str, str]]]:
    """Yield the target and a description of it; a local server started here is stopped after."""
    engine = _engine(model_dir)
    if endpoint is not None:
        where = f"SageMaker endpoint {endpoint.name} ({endpoint.region})"
        where += f" at {endpoint.url}" if endpoint.url else ""
        target = Target(endpoint.bidi, endpoint.runtime_client(), endpoint.name, engine, voice)
        yield target, {"target": where, "server_device": "endpoint"}
        return
    with contextlib.ExitStack() as stack:
        if url is None:
            settings = settings_from_env(host="127.0.0.1", port=0, model_dir=model_dir)
            url = stack.enter_context(BackgroundServer(settings)).url
            where = "local server started by the bench (embedded model)"
        else:
            where = f"server at {url}"
        url = url.rstrip("/")
        ws_url = url.replace("http://", "ws://").replace("https://", "wss://") + "/invocations-bidirectional-stream"
        with urllib.request.urlopen(f"{url}/ping", timeout=10) as response:
            device = json.load(response).get("device", "?")

        from kokoro_stream.websocket_transport import WebSocketTransport

        target = Target(lambda: WebSocketTransport(ws_url), LocalRuntimeClient(url), LOCAL_ENDPOINT, engine, voice)
        yield target, {"target": where, "server_device": device}
