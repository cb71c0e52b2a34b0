"""The simulated Application Auto Scaling on simple traces, each figure worked out by hand, and
``capacity validate`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kokoro_capacity.simulation import Curve, SimPolicy, World, simulate
from kokoro_capacity.traces import built_in, recorded, trace
from kokoro_capacity.validate import curve_from_measure
from kokoro_stream.cli import app

from .test_plan import measurement

CURVE = Curve(((1.0, 100.0), (10.0, 2000.0)))  # p95 = 100 + 1900 × (c − 1) / 9 ms: 800 ms at c ≈ 4.3
WORLD = World(CURVE, slo_ms=800, metric_ratio=1.0, scale_out_seconds=300, usd_per_instance_hour=1.0, speech_duty=0.5)
POLICY = SimPolicy("test", target_value=5, period_seconds=10, scale_in_threshold=2, max_instances=10)


def row_at(result: dict, t_s: int) -> dict:
    return next(row for row in result["timeline"] if row["t_s"] == t_s)


def test_a_step_in_load_scales_out_after_three_datapoints_and_the_scale_out_time() -> None:
    result = simulate([2.0] * 600 + [8.0] * 1200, POLICY, WORLD)
    # datapoints of 10 s: 8 > 5 in the periods ending 610, 620, 630: the alarm acts at 630, ⌈1 × 8 / 5⌉ = 2
    assert result["events"] == [{"t_s": 630, "action": "scale-out", "desired": 2}]
    assert row_at(result, 900)["in_service"] == 1 and row_at(result, 960)["in_service"] == 2  # serves at 930
    # 8 sessions on one instance (p95 ≈ 1578 ms) from 600 s to 930 s: 8 × 330 s = 44 session-minutes
    assert result["breach_session_minutes"] == 44.0
    assert result["refused_session_minutes"] == 0
    # billed: 1 instance for 630 s, 2 from then (the second from the moment it was asked for) to 1800 s
    assert result["instance_hours"] == pytest.approx((630 + 2 * 1170) / 3600, abs=0.01)


def test_the_standard_metric_reacts_a_minute_per_datapoint() -> None:
    standard = SimPolicy("standard", target_value=5, period_seconds=60, scale_in_threshold=2, max_instances=10)
    result = simulate([2.0] * 600 + [8.0] * 1200, standard, WORLD)
    assert result["events"] == [{"t_s": 780, "action": "scale-out", "desired": 2}]  # 600 + 3 × 60


def test_the_step_scale_in_waits_fifteen_quiet_minutes() -> None:
    result = simulate([8.0] * 1800 + [1.0] * 3000, POLICY, WORLD)
    assert row_at(result, 60)["in_service"] == 2  # starts settled for 8 sessions: ⌈8 / 5⌉
    # from 1800 s each instance carries 0.5 < 2: the fifteenth quiet one-minute datapoint ends at 2700 s
    assert result["events"] == [{"t_s": 2700, "action": "scale-in", "desired": 1}]
    assert row_at(result, 2700)["in_service"] == 1


def test_target_trackings_own_scale_in_uses_ninety_percent_of_the_target() -> None:
    own = SimPolicy("own", target_value=5, period_seconds=60, step_scale_in=False, max_instances=10)
    result = simulate([9.6] * 1800 + [4.6] * 1800, own, WORLD)
    scale_ins = [event for event in result["events"] if event["action"] == "scale-in"]
    # 9.6 / 2 = 4.8 per instance stays over 0.9 × 5 = 4.5; from 1800 s 4.6 / 2 = 2.3 is under it:
    # in at 1800 + 15 min = 2700 s, to ⌈2 × 2.3 / 5⌉ = 1
    assert scale_ins == [{"t_s": 2700, "action": "scale-in", "desired": 1}]


def test_the_maximum_statistic_sees_bursts_the_average_hides() -> None:
    bursty = ([2.0] * 9 + [20.0]) * 60  # a 1 s burst every 10 s: average 3.8, maximum 20
    assert simulate(bursty, POLICY, WORLD)["events"] == []
    maximum = SimPolicy("max", target_value=5, period_seconds=10, statistic="Maximum", max_instances=4)
    assert simulate(bursty, maximum, WORLD)["events"][0] == {"t_s": 30, "action": "scale-out", "desired": 4}


def test_sessions_past_the_admission_limit_are_refused_not_slowed() -> None:
    capped = SimPolicy("capped", target_value=50, max_instances=1, sessions_admitted=4)
    result = simulate([10.0] * 600, capped, WORLD)
    assert result["refused_session_minutes"] == 60.0  # 6 sessions a second for 600 s
    assert result["breach_session_minutes"] == 0  # the 4 admitted stay at p95 733 ms


def test_the_curve_interpolates_and_extrapolates() -> None:
    assert CURVE.p95(0.5) == 100 and CURVE.p95(5.5) == pytest.approx(1050)
    assert CURVE.p95(19) == pytest.approx(3900)
    assert Curve(((1.0, 300.0),)).p95(2) == float("inf")


def test_the_measured_curve_never_falls_as_sessions_rise() -> None:
    document = measurement()
    document["routes"]["bidi"]["summary"]["levels"] = [
        {"level": level, "ttfa_p95_ms": {"min": p95, "median": p95, "max": p95}}
        for level, p95 in ((1, 300), (2, 350), (3, 1300), (4, 850))
    ]
    curve = curve_from_measure(document, "bidi")
    assert curve.points == ((1, 300), (2, 350), (3, 1300), (4, 1300))  # 850 at 4 sessions is noise
    assert curve.p95(5) == pytest.approx(1300 + 1000 / 3)  # past the end: the mean slope, not the flat step


def test_traces() -> None:
    surge = built_in("surge", peak_sessions=100, growth_per_minute=10)
    assert surge[0] == 20 and max(surge) == 100 and len(surge) == 1800 + 480 + 3600 + 3600
    assert len(built_in("diurnal", 100, 1)) == 86_400
    with pytest.raises(ValueError, match="unknown trace 'weekly'"):
        trace("weekly", 100, 1)


def test_a_recorded_trace_holds_each_row_until_the_next(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_text('{"t_s": 0, "sessions": 3}\n{"t_s": 2, "sessions": 5}\n')
    assert recorded(path)[:4] == [3, 3, 5, 5]
    path.write_text('{"t_s": 5, "sessions": 3}\n{"t_s": 2, "sessions": 5}\n')
    with pytest.raises(ValueError, match="increase in t_s"):
        recorded(path)


def test_validate_writes_the_comparison_and_the_timeline(tmp_path: Path) -> None:
    measured = tmp_path / "measure.json"
    document = measurement()
    document["routes"]["bidi"]["summary"]["levels"] = [
        {"level": 1, "ttfa_p95_ms": {"min": 300, "median": 300, "max": 300}},
        {"level": 4, "ttfa_p95_ms": {"min": 700, "median": 700, "max": 700}},
        {"level": 6, "ttfa_p95_ms": {"min": 1500, "median": 1500, "max": 1500}},
    ]
    measured.write_text(json.dumps(document))
    runner = CliRunner()
    planned = runner.invoke(
        app,
        [
            "capacity",
            "plan",
            "--measure",
            str(measured),
            "--growth",
            "0.5",
            "--peak-sessions",
            "40",
            "--scale-out-seconds",
            "240",
            "--instance-type",
            "ml.c7i.xlarge",
            "--profile",
            str(tmp_path / "p.json"),
            "--out",
            str(tmp_path),
        ],
    )
    assert planned.exit_code == 0, planned.output
    result = runner.invoke(
        app,
        [
            "capacity",
            "validate",
            "--profile",
            str(tmp_path / "p.json"),
            "--measure",
            str(measured),
            "--trace",
            "surge",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    validation = json.loads((tmp_path / "validate-surge.json").read_text())
    names = [run["policy"] for run in validation["results"]]
    assert names[0].startswith("profile") and names[-1] == "fixed target 10 (before)"
    timelines = [run["timeline"] for run in validation["results"]]
    assert all(t["columns"] == ["t_s", "sessions", "in_service", "desired"] for t in timelines)
    assert all(0 < len(t["rows"]) <= 2 * 300 for t in timelines)
    assert (tmp_path / "validate-surge.png").read_bytes()[:4] == b"\x89PNG"
    assert "| policy |" in (tmp_path / "validate-surge.md").read_text()
