from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fake_server import fake_server
from tests.local_server import RunningServer


@pytest.fixture(scope="module")
def speech_server() -> Iterator[RunningServer]:
    """A real server on the fake engine, for the API's fast tests."""
    with fake_server() as (server, _):
        yield server
