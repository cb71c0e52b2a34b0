"""``capacity measure`` and ``capacity duty``: traffic drawing, in-flight arithmetic, telemetry lines, the
Q_max rule, and runs end to end against the fake engine (a server here, and through the emulator) and
against the real model. SLOs are set loose here: these tests check what is measured, never how fast."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kokoro_capacity.ladder import LadderPlan, Slo, level_figures, summarize
from kokoro_capacity.server_log import Telemetry, parse_line, read_log_file
from kokoro_capacity.sessions import InFlight, SpeechTarget, hold, new_load
from kokoro_capacity.traffic import Gap, RecordedGaps, TrafficModel
from kokoro_stream.cli import app
from kokoro_stream.websocket_transport import WebSocketTransport
from kokoro_tools.ports import free_port

LOOSE = ["--ttfa-p95-ms", "60000", "--max-stalls", "100000"]
QUICK = ["--listen", "fixed:0.1", "--think", "fixed:0", "--turns", "fixed:2", "--hold", "4", "--window", "4"]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "replies.jsonl"
    path.write_text('{"id": "a", "text": "Yes. It is done."}\n{"id": "b", "text": "Sure thing."}\n')
    return path


def test_gaps_parse_draw_and_refuse_clearly() -> None:
    rng = random.Random(3)
    assert Gap.parse("fixed:2").draw(rng) == 2 and Gap.parse("uniform:1,4").mean() == 2.5
    assert 1 <= Gap.parse("uniform:1,4").draw(rng) <= 4
    assert Gap.parse("exponential:3").mean() == 3 and str(Gap.parse("lognormal:2,0.5")) == "lognormal:2,0.5"
    with pytest.raises(ValueError, match="unknown distribution 'normal'; use one of fixed, uniform"):
        Gap.parse("normal:1")
    with pytest.raises(ValueError, match="uniform takes 2 non-negative number"):
        Gap.parse("uniform:1")
    with pytest.raises(ValueError, match="low <= high"):
        Gap.parse("uniform:4,1")


def test_sessions_draw_the_same_turns_for_the_same_seed(tmp_path: Path) -> None:
    model = TrafficModel({"a": "Yes.", "b": "No."}, seed=5)
    assert model.session_plan(3) == model.session_plan(3)
    assert all(3 <= len(model.session_plan(n)) <= 8 for n in range(20))
    trace = tmp_path / "gaps.jsonl"
    trace.write_text('{"listen_s": 1.5, "think_s": 0.5}\n{"listen_s": 3, "think_s": 1}\n')
    recorded = TrafficModel({"a": "Yes."}, recorded=RecordedGaps.load(trace), turns=Gap.parse("fixed:3"))
    assert [silence for silence, _ in recorded.session_plan(0)] == [2.0, 4.0, 2.0]
    trace.write_text('{"listen_s": -1, "think_s": 0}\n')
    with pytest.raises(ValueError, match="non-negative"):
        RecordedGaps.load(trace)


def test_in_flight_is_time_weighted() -> None:
    clock = iter([10.0, 12.0, 13.0, 16.0])
    flight = InFlight(now=lambda: next(clock))
    for delta in (1, 1, -1, -1):
        flight.add(delta)
    # 0 until 10, 1 on 10-12, 2 on 12-13, 1 on 13-16, 0 after: over 10..20, (2 + 2 + 3) / 10
    assert flight.mean(10, 20) == pytest.approx(0.7)
    assert flight.mean(12.5, 13) == pytest.approx(2.0)


def emf(sessions: int, active: int, at_ms: int) -> str:
    return json.dumps({"_aws": {"Timestamp": at_ms}, "Sessions": sessions, "ActiveUtterances": active, "QueueDepth": 0})


def test_telemetry_lines_give_duty_and_the_gauge(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text(
        "\n".join(
            [
                json.dumps({"event": "listening", "port": 8080}),
                emf(2, 1, 100_000),
                json.dumps({"event": "utterance", "chars": 30, "audio_ms": 2000, "synth_ms": 800}),
                emf(2, 3, 110_000),
                json.dumps({"event": "utterance", "chars": 60, "audio_ms": 4000, "synth_ms": 1600}),
                "a line that is not JSON",
            ]
        )
    )
    telemetry = read_log_file(log, Telemetry(sample_seconds=10))
    assert [line.at for line in telemetry.utterances] == [100.0, 110.0]  # the sample before each
    duty = telemetry.duty(0, 200)
    assert duty is not None
    assert duty["speech_duty"] == pytest.approx(6 / 40) and duty["engine_duty"] == pytest.approx(2.4 / 40)
    assert duty["chars_per_audio_s"] == pytest.approx(15)
    gauge = telemetry.gauge(0, 200)
    assert gauge == {"sessions_mean": 2, "active_utterances_mean": 2, "active_utterances_max": 3, "samples": 2}
    assert parse_line("[1, 2]", 0) is None and telemetry.gauge(500, 600) is None


def run(level: int, repeat: int, met: bool) -> dict[str, Any]:
    return {
        "level": level,
        "repeat": repeat,
        "met_slo": met,
        "ttfa_p95_ms": 100.0 * level,
        "ttfa_p50_ms": 50.0 * level,
        "stalls": 0,
        "errors": 0,
        "audio_s_per_s": 1.0,
        "metric_ratio": 1.0 + level / 100,
    }


def test_q_max_is_the_highest_level_met_in_every_repeat_with_every_level_below() -> None:
    plan = LadderPlan((1, 2, 3, 4), hold_seconds=10, window_seconds=5, repeats=2)
    runs = [run(1, 1, True), run(2, 1, True), run(3, 1, True), run(4, 1, False)]
    runs += [run(1, 2, True), run(2, 2, True), run(3, 2, False), run(4, 2, True)]
    summary = summarize(runs, plan)
    assert summary["q_max"] == 2  # 3 missed in the second repeat; 4's lucky pass does not count
    assert summary["levels"][2]["met_every_repeat"] is False
    assert summary["levels"][0]["ttfa_p95_ms"] == {"min": 100.0, "median": 100.0, "max": 100.0}
    assert summary["metric_ratio"] == pytest.approx(1.015)  # median over the levels up to Q_max


def test_a_ladder_plan_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="increasing whole numbers"):
        LadderPlan((2, 1))
    with pytest.raises(ValueError, match="at most the hold"):
        LadderPlan((1,), hold_seconds=5, window_seconds=10)


def measured(out: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((out / "measure.json").read_text())
    return loaded


def test_measure_end_to_end_against_a_fake_engine_server_here(tmp_path: Path, corpus: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("KOKORO_ENGINE", "fake")
    out = tmp_path / "out"
    arguments = ["capacity", "measure", "--levels", "1,2", "--repeats", "1", "--routes", "bidi,post"]
    result = CliRunner().invoke(app, [*arguments, *QUICK, *LOOSE, "--corpus", str(corpus), "--out", str(out)])
    assert result.exit_code == 0, result.output
    results = measured(out)
    assert results["q_max"] == {"bidi": 2, "post": 2}
    # how the server shared its model, from its ready message: the fake engine speaks one chunk per call
    assert (results["server"]["device"], results["server"]["max_batch"], results["server"]["batch_wait_ms"]) == (
        "cpu",
        1,
        0.0,
    )
    bidi = results["routes"]["bidi"]["runs"]
    assert [run["level"] for run in bidi] == [1, 2]
    assert all(run["turns"] >= 1 and run["errors"] == 0 for run in bidi)
    # the server's own gauge counted the sessions the client held open
    assert "load gauge" in bidi[0]["metric_source"] and bidi[1]["metric"] > 0
    assert bidi[1]["duty"]["source"] == "server telemetry" and bidi[1]["duty"]["speech_duty"] > 0
    report = (out / "measure.md").read_text()
    assert "Q_max = **2**" in report and "Batching: on cpu, one chunk per model call (no batching)" in report
    assert (out / "ladder.png").read_bytes()[:4] == b"\x89PNG"


def test_measure_end_to_end_through_the_emulator(tmp_path: Path, corpus: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("KOKORO_ENGINE", "fake")
    out = tmp_path / "out"
    arguments = ["capacity", "measure", "--emulate", "--levels", "1", "--repeats", "1"]
    result = CliRunner().invoke(app, [*arguments, *QUICK, *LOOSE, "--corpus", str(corpus), "--out", str(out)])
    assert result.exit_code == 0, result.output
    results = measured(out)
    assert results["kind"] == "emulator" and results["machine"]["target"].startswith("emulator at https://127.0.0.1")
    assert results["routes"]["bidi"]["runs"][0]["turns"] >= 1 and results["q_max"] == {"bidi": 1}
    assert results["server"]["max_batch"] == 1  # the ready message reaches through SageMaker's bidirectional stream


def test_a_target_that_refuses_every_session_meets_no_slo(tmp_path: Path, corpus: Path) -> None:
    closed = f"ws://127.0.0.1:{free_port()}/invocations-bidirectional-stream"
    target = SpeechTarget(lambda: WebSocketTransport(closed, connect_timeout=1), None, "local")
    load = new_load(target, TrafficModel({"a": "Yes."}))
    start, end = asyncio.run(hold(load, 1, 1.5))
    figures = level_figures(load, 1, start, end, 1.5, Slo())
    assert figures["errors"] >= 1 and figures["met_slo"] is False and figures["error_examples"]


def test_duty_against_a_fake_engine_through_the_emulator(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("KOKORO_ENGINE", "fake")
    # 9 s: a session's first turn waits up to 7.2 s (listen uniform:2,6 and think uniform:0.3,1.2)
    result = CliRunner().invoke(
        app, ["capacity", "duty", "--emulate", "--sessions", "1", "--seconds", "9", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    duty = json.loads((tmp_path / "duty.json").read_text())
    assert duty["speech_duty"] > 0 and duty["session_s"] > 0 and duty["source"].startswith("emulator")
    assert "| speech duty |" in (tmp_path / "duty.md").read_text()


def test_scale_out_locally_shows_what_it_can_and_says_what_it_cannot(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("KOKORO_ENGINE", "fake")
    result = CliRunner().invoke(app, ["capacity", "scale-out", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "scale-out.json").read_text())
    stages = report["runs"][0]["stages_s"]
    assert stages["policy_reaction"] is None and stages["provisioning_and_image_pull"] is None
    assert stages["model_load"] >= 0 and stages["first_traffic"] > 0
    assert report["runs"][0]["total_s"] >= stages["first_traffic"] and report["scale_out_seconds"] > 0
    assert "no Application Auto Scaling" in (tmp_path / "scale-out.md").read_text()


@pytest.mark.model
def test_measure_against_the_real_model(server: Any, idle_after: Any, tmp_path: Path, corpus: Path) -> None:
    out = tmp_path / "out"
    arguments = ["capacity", "measure", "--url", server.url, "--levels", "1", "--repeats", "1"]
    result = CliRunner().invoke(app, [*arguments, *QUICK, *LOOSE, "--corpus", str(corpus), "--out", str(out)])
    assert result.exit_code == 0, result.output
    level = measured(out)["routes"]["bidi"]["runs"][0]
    assert level["turns"] >= 1 and level["errors"] == 0 and level["audio_s"] > 0
    assert level["ttfa_p95_ms"] is not None
    assert level["metric_source"] == "none (ratio taken as 1)" and level["metric_ratio"] == 1.0
