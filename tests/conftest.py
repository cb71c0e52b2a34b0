import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Node.js 20 works for jsii but prints an end-of-life banner on every start.
os.environ.setdefault("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")

from tests.fake_server import FirstChunkOnly  # noqa: E402
from tests.local_server import RunningServer, start_server, wait_until_idle  # noqa: E402

# Fixtures that load the real model: a test using any of them is marked `model`, so
# `uv run pytest -m "not model"` is the fast inner loop (the fake engine, templates, handlers, core).
MODEL_FIXTURES = {"embedded_model_dir", "engine", "server", "idle_after"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.model)


@pytest.fixture(scope="session")
def embedded_model_dir() -> Path:
    from kokoro_server.engine.embedded_model import model_directory

    return model_directory()


@pytest.fixture(scope="session")
def engine(embedded_model_dir: Path):
    """The embedded model loaded as the server loads it (KOKORO_ENGINE_SLOWDOWN included), once per run."""
    from kokoro_core.model_cache import verify_directory
    from kokoro_server.engine.device import load_on_device
    from kokoro_server.settings import settings_from_env

    return load_on_device(settings_from_env(), embedded_model_dir, verify_directory(embedded_model_dir))[0]


@pytest.fixture(scope="session")
def server(embedded_model_dir: Path) -> Iterator[RunningServer]:
    """One real server for the whole run (the model loads once)."""
    running = start_server(embedded_model_dir, workers=1)
    yield running
    running.stop()


@pytest.fixture
def idle_after(server: RunningServer) -> Iterator[RunningServer]:
    """The server, checked after the test: nothing left queued, running or admitted."""
    yield server
    assert wait_until_idle(server) == {"active_utterances": 0, "queued_jobs": 0, "running_jobs": 0, "lanes": 0}
    assert server.call(lambda: len(server.server.runtime.sessions)) == 0


@pytest.fixture
def engine_and_url() -> Iterator[tuple[FirstChunkOnly, str]]:
    """A real server on an engine that synthesizes the first call and holds the rest until the test sets
    ``engine.held``, and the server's WebSocket URL: for "after the first audio" without timing."""
    from kokoro_server.settings import ServerSettings

    engine = FirstChunkOnly()
    server = RunningServer(ServerSettings(host="127.0.0.1", port=0), engine=engine).start(timeout=30)
    try:
        yield engine, server.ws_url
    finally:
        engine.held.set()
        server.stop()
