"""The engine contract's cancel token: an interruption stops the calls made under it through a token that
knows nothing of ONNX Runtime (the Kokoro engine binds its run's flag to it; tests/server/engine/test_engine.py
stops a real inference call that way). Checked here on the token itself and on the fake engine."""

from __future__ import annotations

import threading
import time

from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.engine.speech_engine import BatchCall, Call, Interrupted, Interruption


def test_a_callback_registered_after_the_stop_runs_at_once_and_each_runs_once() -> None:
    call, seen = Call(), []
    call.on_stop(lambda: seen.append("before"))
    call.stop()
    call.stop()
    call.on_stop(lambda: seen.append("after"))
    assert call.stopped and seen == ["before", "after"]


def test_a_call_under_two_interruptions_is_stopped_by_either_and_leaves_both_when_done() -> None:
    mine, server = Interruption(), Interruption()
    with BatchCall(server, [mine]) as batch:
        assert mine.in_flight == server.in_flight == 1
    assert mine.in_flight == server.in_flight == 0 and not batch.call.stopped
    with BatchCall(server, [mine]) as batch:
        assert server.interrupt() == 1
        assert batch.items[0].stopped and batch.call.stopped
    with BatchCall(server, [mine]) as batch:
        assert batch.live == [] and batch.call.stopped  # the server's interruption stays: later calls are refused


def test_an_item_interrupted_leaves_the_call_which_stops_when_its_last_item_does() -> None:
    first, second = Interruption(), Interruption()
    with BatchCall(Interruption(), [first, second]) as batch:
        assert first.interrupt() == 1
        assert batch.items[0].stopped and not batch.call.stopped  # the other is still being spoken
        assert second.interrupt() == 1
        assert batch.items[1].stopped and batch.call.stopped  # its last item gone, the call stops
    with BatchCall(Interruption(), [first, Interruption()]) as batch:
        assert batch.live == [1] and batch.items[0].stopped and not batch.call.stopped  # refused before: not in it


def test_the_fake_engines_call_in_flight_stops_when_interrupted() -> None:
    engine = FakeEngine(gate=threading.Event())  # the call holds at its gate until it is released or stopped
    interruption, outcome = Interruption(), {}

    def speak() -> None:
        try:
            engine.synthesize(
                "A sentence the fake engine would take seconds to say.", "af_heart", interruption=interruption
            )
        except Interrupted as error:
            outcome["error"] = error

    worker = threading.Thread(target=speak)
    worker.start()
    deadline = time.monotonic() + 30
    while not interruption.in_flight and time.monotonic() < deadline:
        time.sleep(0.005)
    assert interruption.interrupt() == 1
    worker.join(timeout=30)
    assert not worker.is_alive() and isinstance(outcome.get("error"), Interrupted)
    assert engine.interrupted_calls == 1
