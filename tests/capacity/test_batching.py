"""The ladder sees batching: ``measure`` records how the measured server shares its model between sessions
(from its ``ready`` message: device, max_batch, batch_wait_ms), and ``plan`` pins that batching in the
profile, or says it does not where the measurement did not know it. Servers here run the fake engine:
what is checked is what is recorded, never how fast."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kokoro_capacity.batching import described, from_ready
from kokoro_capacity.ladder import LadderPlan, Slo
from kokoro_capacity.local import open_measured
from kokoro_capacity.measure import measure
from kokoro_capacity.traffic import Gap, TrafficModel
from kokoro_core.capacity_profile import Batching, load_profile
from kokoro_core.server_messages import Ready
from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.settings import ServerSettings
from kokoro_stream.cli import app
from kokoro_stream.websocket_transport import WebSocketTransport
from kokoro_tools.ports import free_port
from tests.local_server import RunningServer

from .test_measure import LOOSE, QUICK, measured
from .test_plan import measurement

TRAFFIC = TrafficModel(
    {"a": "Yes. It is done."}, listen=Gap.parse("fixed:0.1"), think=Gap.parse("fixed:0"), turns=Gap.parse("fixed:2")
)


@pytest.fixture
def batching_server() -> Iterator[RunningServer]:
    """A server whose engine speaks up to 4 chunks per call, a batch waiting up to 3 ms for company."""
    settings = ServerSettings(host="127.0.0.1", port=0, batch_wait_ms=3)
    running = RunningServer(settings, engine=FakeEngine(max_batch=4)).start(timeout=30)
    try:
        yield running
    finally:
        running.stop()


def test_measure_records_the_batching_the_server_announces(batching_server: RunningServer, tmp_path: Path) -> None:
    corpus = tmp_path / "replies.jsonl"
    corpus.write_text('{"id": "a", "text": "Yes. It is done."}\n')
    out = tmp_path / "out"
    arguments = ["capacity", "measure", "--url", batching_server.url, "--levels", "1", "--repeats", "1"]
    result = CliRunner().invoke(app, [*arguments, *QUICK, *LOOSE, "--corpus", str(corpus), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert measured(out)["server"] == {
        "device": "cpu",
        "max_batch": 4,
        "batch_wait_ms": 3.0,
        "source": "the server's ready message",
    }
    report = (out / "measure.md").read_text()
    assert "Batching: on cpu, up to 4 chunks per model call, a batch not full waiting up to 3 ms" in report
    assert "Q_max holds for this batching" in report


def test_a_server_that_does_not_batch_is_recorded_as_one_chunk_per_call() -> None:
    told = from_ready(Ready(sample_rate=24000, device="cpu", max_batch=1, batch_wait_ms=0.0))
    assert told == {"device": "cpu", "max_batch": 1, "batch_wait_ms": 0.0, "source": "the server's ready message"}
    assert described(told) == "on cpu, one chunk per model call (no batching) (the server's ready message)"


def test_a_server_from_before_batching_is_recorded_as_unknown() -> None:
    told = from_ready(Ready(sample_rate=24000))  # its ready message has none of the fields
    assert told["device"] is None and told["max_batch"] is None and told["batch_wait_ms"] is None
    assert told["source"] == "unknown: the server's ready message does not say (a server from before batching)"


def test_a_target_without_a_bidirectional_session_is_measured_with_its_batching_unknown(
    batching_server: RunningServer,
) -> None:
    """A target that takes POSTs only: the ladder runs on the POST route, the batching reads as unknown."""
    closed = f"ws://127.0.0.1:{free_port()}/invocations-bidirectional-stream"
    plan = LadderPlan((1,), hold_seconds=3, window_seconds=3, repeats=1)
    with open_measured(url=batching_server.url) as opened:
        opened.target.bidi = lambda: WebSocketTransport(closed, connect_timeout=1)
        results = measure(opened, TRAFFIC, ("post",), plan, Slo(60_000, 100_000))
    server = results["server"]
    assert (server["device"], server["max_batch"], server["batch_wait_ms"]) == (None, None, None)
    assert server["source"].startswith("unknown: no bidirectional session opened (TransportClosed: cannot open")
    assert results["q_max"] == {"post": 1}


def plan_with(tmp_path: Path, server: dict[str, Any] | None) -> tuple[Any, Path]:
    """``capacity plan`` on a measurement whose ``server`` is given (None: a measurement without one)."""
    document = measurement()
    if server is not None:
        document["server"] = server
    (tmp_path / "measure.json").write_text(json.dumps(document))
    arguments = ["capacity", "plan", "--measure", str(tmp_path / "measure.json"), "--growth", "0.5"]
    arguments += ["--peak-sessions", "40", "--scale-out-seconds", "240", "--instance-type", "ml.g5.xlarge"]
    arguments += ["--profile", str(tmp_path / "profile.json"), "--out", str(tmp_path)]
    return CliRunner().invoke(app, arguments, env={"TERMINAL_WIDTH": "400"}), tmp_path / "profile.json"


def test_plan_pins_the_measured_batching_in_the_profile(tmp_path: Path) -> None:
    server = {"device": "cuda", "max_batch": 16, "batch_wait_ms": 4.0, "source": "the server's ready message"}
    result, path = plan_with(tmp_path, server)
    assert result.exit_code == 0, result.output
    assert load_profile(path).batching == Batching(max_batch=16, batch_wait_ms=4.0)
    assert json.loads(path.read_text())["batching"] == {"max_batch": 16, "batch_wait_ms": 4.0}
    assert "batching 16 per call with a 4 ms wait, as measured" in result.output
    explained = (tmp_path / "plan.md").read_text()
    assert (
        "- server batching: on cuda, up to 16 chunks per model call, a batch not full waiting up to 4 ms" in explained
    )
    assert "| max_batch = **16** | as measured: the server spoke up to 16 chunks per model call" in explained
    assert "| batch_wait_ms = **4** | as measured" in explained


@pytest.mark.parametrize(
    ("server", "said"),
    [
        (
            {"device": None, "max_batch": None, "batch_wait_ms": None, "source": "unknown: no bidirectional session"},
            "- server batching: unknown: no bidirectional session",
        ),
        (None, "- server batching: not recorded (a measurement from before the server's batching was)"),
    ],
    ids=["unknown", "not recorded"],
)
def test_a_measurement_that_does_not_know_the_batching_leaves_it_unpinned_and_says_so(
    tmp_path: Path, server: dict[str, Any] | None, said: str
) -> None:
    result, path = plan_with(tmp_path, server)
    assert result.exit_code == 0, result.output
    assert load_profile(path).batching is None
    assert "batching" not in json.loads(path.read_text())
    assert "batching not pinned (the measurement does not know it)" in result.output
    explained = (tmp_path / "plan.md").read_text()
    assert said in explained
    assert "| batching = **not pinned** | the measurement does not know how the server batched" in explained


def test_a_measured_batching_the_server_could_not_take_is_refused(tmp_path: Path) -> None:
    result, path = plan_with(tmp_path, {"device": "cuda", "max_batch": 0, "batch_wait_ms": 4.0})
    assert result.exit_code == 2
    said = " ".join(result.output.replace("│", " ").split())
    assert "the measurement's server batching" in said and "max_batch" in said
    assert not path.exists()
