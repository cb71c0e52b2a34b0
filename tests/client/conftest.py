from collections.abc import Iterator

import pytest

from kokoro_server.settings import ServerSettings
from tests.fake_server import FirstChunkOnly
from tests.local_server import RunningServer


@pytest.fixture
def engine_and_url() -> Iterator[tuple[FirstChunkOnly, str]]:
    """A real server on an engine that synthesizes the first call and holds the rest until the test sets
    ``engine.held``, and the server's WebSocket URL: for "after the first audio" without timing."""
    engine = FirstChunkOnly()
    server = RunningServer(ServerSettings(host="127.0.0.1", port=0), engine=engine).start(timeout=30)
    try:
        yield engine, server.ws_url
    finally:
        engine.held.set()
        server.stop()
