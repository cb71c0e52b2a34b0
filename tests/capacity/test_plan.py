"""``capacity plan``: the derivation on fixed inputs (numbers checked by hand in the comments), and the
command end to end: a valid profile, and clear refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kokoro_capacity.plan import Measured, derive
from kokoro_core.capacity_profile import load_profile
from kokoro_stream.cli import app

FACTS = Measured(
    q_max={"bidi": 6, "post": 10},
    route="bidi",
    metric_ratio=0.9,
    measured_duty=0.4,
    traffic_duty=0.4,
    scale_out_seconds=300,
    chars_per_audio_second=15.0,
    active_utterances_at_q_max=8,
)


def test_every_number_of_the_policy_checked_by_hand() -> None:
    values = derive(FACTS, growth_per_minute=1.0, peak_sessions=100, price_per_hour=1.0).values
    assert values["sessions_per_instance"] == pytest.approx(6)  # 6 × 0.4 / 0.4
    assert values["lead_seconds"] == 330  # 3 × 10 s + 300 s
    assert values["sessions_during_lead"] == pytest.approx(5.5)  # 1 × 330 / 60
    assert values["min_instances"] == 2  # ⌈5.5 / (6 × 0.5)⌉ = ⌈1.83⌉
    assert values["target_sessions"] == 3.2  # 6 − 5.5 / 2 = 3.25, down to a tenth
    assert values["target_value"] == 2.8  # 3.2 × 0.9 = 2.88, down to a tenth
    assert values["scale_in_threshold"] == pytest.approx(1.12)  # 0.4 × 2.8
    assert values["max_instances"] == 32  # ⌈100 / 3.2⌉ = ⌈31.25⌉
    assert values["admission_limit"] == 8
    assert values["scale_out_cooldown_seconds"] == 300 and values["scale_in_cooldown_seconds"] == 900
    assert values["usd_per_audio_hour"] == pytest.approx(1 / (3.2 * 0.4), abs=1e-4)  # 0.78125
    assert values["usd_per_million_chars"] == pytest.approx(1e6 / (3.2 * 0.4 * 3600 * 15), abs=1e-3)  # 14.468


def test_the_traffics_duty_rescales_what_an_instance_carries() -> None:
    quieter = Measured(**{**FACTS.__dict__, "measured_duty": 0.5, "traffic_duty": 0.25})
    values = derive(quieter, growth_per_minute=0.0, peak_sessions=100, price_per_hour=1.0).values
    assert values["sessions_per_instance"] == pytest.approx(12)  # speaking half as much: twice the sessions
    assert values["min_instances"] == 1 and values["target_sessions"] == 12.0


def test_the_standard_metric_detects_later_so_the_fleet_keeps_more_headroom() -> None:
    fast = derive(FACTS, 1.0, 100, 1.0, "ConcurrentRequestsPerModelHighResolution").values
    slow = derive(FACTS, 1.0, 100, 1.0, "ConcurrentRequestsPerModel").values
    assert slow["lead_seconds"] == 3 * 60 + 300
    # G = 8 sessions arrive before the instance serves: ⌈8 / 3⌉ = 3 instances at least, t = 6 − 8 / 3 = 3.3
    assert (slow["min_instances"], slow["target_sessions"]) == (3, 3.3)
    assert slow["sessions_during_lead"] > fast["sessions_during_lead"]


def test_no_level_within_the_slo_cannot_be_planned() -> None:
    with pytest.raises(ValueError, match="no level met the SLO on route bidi"):
        derive(Measured(**{**FACTS.__dict__, "q_max": {"bidi": 0}}), 1.0, 100, 1.0)


def measurement(kind: str = "local server") -> dict[str, Any]:
    level = {"level": 4, "ttfa_p95_ms": {"min": 500, "median": 520, "max": 540}, "active_utterances_max": 6}
    return {
        "kind": kind,
        "command": "kokoro-stream capacity measure",
        "machine": {"target": "local server started here (engine kokoro)"},
        "slo": {"ttfa_p95_ms": 800.0, "max_stalls": 0},
        "chars_per_audio_second": 14.0,
        "routes": {"bidi": {"summary": {"q_max": 4, "metric_ratio": 1.0, "speech_duty": 0.3, "levels": [level]}}},
    }


def run_plan(tmp_path: Path, *extra: str, kind: str = "local server") -> Any:
    measured = tmp_path / "measure.json"
    measured.write_text(json.dumps(measurement(kind)))
    arguments = ["capacity", "plan", "--measure", str(measured), "--growth", "0.5", "--peak-sessions", "40"]
    arguments += ["--scale-out-seconds", "240", "--profile", str(tmp_path / "profile.json"), "--out", str(tmp_path)]
    return CliRunner().invoke(app, [*arguments, *extra], env={"TERMINAL_WIDTH": "400"})


def test_plan_writes_a_profile_the_stacks_can_read(tmp_path: Path) -> None:
    result = run_plan(tmp_path, "--instance-type", "ml.c7i.xlarge")
    assert result.exit_code == 0, result.output
    profile = load_profile(tmp_path / "profile.json")
    assert profile.is_rehearsal and profile.instance_type == "ml.c7i.xlarge"
    assert profile.image.flavor == "cpu"
    # q = 4; L = 30 + 240 = 270 s; G = 0.5 × 270 / 60 = 2.25; N_min = ⌈2.25 / 2⌉ = 2; t = 4 − 1.125 = 2.875 → 2.8
    assert profile.policy.min_instances == 2 and profile.policy.target_value == 2.8
    assert profile.policy.max_instances == 15  # ⌈40 / 2.8⌉
    assert profile.policy.admission_limit == 6
    assert profile.cost.usd_per_instance_hour == 0.214
    explained = (tmp_path / "plan.md").read_text()
    assert "t = q − G / N_min = 4.00 − 2.25 / 2 = 2.8" in explained


def test_a_local_measurement_needs_the_instance_type_it_stands_for(tmp_path: Path) -> None:
    result = run_plan(tmp_path)
    assert result.exit_code != 0
    assert "stands for with --instance-type" in result.output


def test_an_instance_type_without_a_price_is_refused_with_the_ones_known(tmp_path: Path) -> None:
    result = run_plan(tmp_path, "--instance-type", "ml.x9.huge")
    assert result.exit_code != 0
    # The error's panel wraps at the width typer read when first imported, whichever test did: read it unwrapped.
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert "no price for ml.x9.huge" in said and "ml.g5.xlarge" in said


def test_a_ladder_whose_top_level_met_the_slo_plans_on_a_floor_and_says_so(tmp_path: Path) -> None:
    result = run_plan(tmp_path, "--instance-type", "ml.c7i.xlarge")  # its one level, 4, met the SLO
    assert result.exit_code == 0, result.output
    assert "at least 4: no level of the ladder broke the SLO" in (tmp_path / "plan.md").read_text()
    broken = measurement()
    failed = {"level": 6, "ttfa_p95_ms": {"min": 900, "median": 950, "max": 990}, "active_utterances_max": 9}
    broken["routes"]["bidi"]["summary"]["levels"].append(failed)
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "measure.json").write_text(json.dumps(broken))
    arguments = ["capacity", "plan", "--measure", str(tmp_path / "broken" / "measure.json"), "--growth", "0.5"]
    arguments += ["--peak-sessions", "40", "--scale-out-seconds", "240", "--instance-type", "ml.c7i.xlarge"]
    arguments += ["--profile", str(tmp_path / "broken" / "profile.json"), "--out", str(tmp_path / "broken")]
    result = CliRunner().invoke(app, arguments, env={"TERMINAL_WIDTH": "400"})
    assert result.exit_code == 0, result.output
    assert "no level of the ladder broke the SLO" not in (tmp_path / "broken" / "plan.md").read_text()


def test_plan_outside_the_projects_checkout_says_to_give_the_repository(tmp_path: Path) -> None:
    """The profile names the image by its requirements' hash: without them there is no profile to write."""
    result = run_plan(tmp_path, "--instance-type", "ml.c7i.xlarge", "--repository", str(tmp_path))
    assert result.exit_code == 2
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert "requirements-cpu.txt not found" in said and "--repository" in said
    assert not (tmp_path / "profile.json").exists()
