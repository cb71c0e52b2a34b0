"""A real speech server on a loopback port with the deterministic fake engine: the fast tier's server.

Everything but the model is real (routes, sessions, scheduler, encoders, sockets); the test holds
the engine's gate to decide when synthesis may finish, so order claims never depend on speed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.engine.speech_engine import Interrupted, Speech, SpeechRequest
from kokoro_server.settings import ServerSettings
from tests.local_server import RunningServer


@contextmanager
def fake_server(gate: threading.Event | None = None, **settings: object) -> Iterator[tuple[RunningServer, FakeEngine]]:
    engine = FakeEngine(gate=gate)
    running = RunningServer(ServerSettings(host="127.0.0.1", port=0, **settings), engine=engine).start(timeout=30)
    try:
        yield running, engine
    finally:
        if gate is not None:
            gate.set()  # nothing may stay blocked on the gate past the test
        running.stop()


class FirstChunkOnly(FakeEngine):
    """Synthesizes the first call, then holds every later one until the test sets ``held``: a session
    has sent exactly one chunk's audio for as long as the test needs."""

    def __init__(self) -> None:
        super().__init__()
        self.held = threading.Event()

    def speak_batch(self, requests: list[SpeechRequest]) -> list[Speech | Interrupted]:
        if self.calls:
            self.gate = self.held
        return super().speak_batch(requests)
