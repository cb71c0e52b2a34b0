"""The capacity profile model: the documented example validates, bad profiles say what is wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kokoro_core.capacity_profile import (
    CapacityProfile,
    CapacityProfileError,
    flavor_requirements,
    load_profile,
    requirements_sha256,
)

REPOSITORY = Path(__file__).resolve().parents[2]


def example() -> dict[str, Any]:
    return {
        "schema": 1,
        "created": "2026-12-02T12:34:56Z",
        "instance_type": "ml.g5.xlarge",
        "measured_on": "endpoint kokoro-tts, 1 × ml.g5.xlarge",
        "image": {"flavor": "gpu", "requirements_sha256": "a" * 64},
        "slo": {"ttfa_p95_ms": 600, "max_stalls": 0},
        "q_max": {"bidi": 12, "post": 20},
        "route": "bidi",
        "metric_ratio": 1.0,
        "speech_duty": 0.35,
        "scale_out_seconds": 420,
        "growth": {"sessions_per_minute": 10},
        "peak_sessions": 200,
        "policy": {
            "metric": "ConcurrentRequestsPerModelHighResolution",
            "statistic": "Maximum",
            "target_value": 7.5,
            "scale_in_threshold": 3.0,
            "scale_in_evaluation_minutes": 15,
            "scale_out_cooldown_seconds": 60,
            "scale_in_cooldown_seconds": 900,
            "min_instances": 1,
            "max_instances": 18,
            "admission_limit": 14,
        },
        "cost": {
            "price_table_date": "2026-12-01",
            "usd_per_instance_hour": 1.41,
            "usd_per_audio_hour": 0.12,
            "usd_per_million_chars": 1.9,
        },
    }


def write(tmp_path: Path, content: Any) -> Path:
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    return path


def test_the_example_round_trips(tmp_path: Path) -> None:
    profile = load_profile(write(tmp_path, example()))
    assert profile.policy.target_value == 7.5
    assert profile.q_max == {"bidi": 12, "post": 20}
    assert not profile.is_rehearsal
    written = json.loads(profile.to_json())
    assert written == example()


def test_a_local_measurement_is_a_rehearsal() -> None:
    local = "local 2-core CPU, standing for ml.g5.xlarge"
    profile = CapacityProfile.model_validate({**example(), "measured_on": local})
    assert profile.is_rehearsal


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda p: p["policy"].update(max_instances=0), "policy.max_instances"),
        (lambda p: p["policy"].update(min_instances=3, max_instances=2), "below min_instances"),
        (lambda p: p["policy"].update(scale_in_threshold=8), "must be below target_value"),
        (lambda p: p["policy"].update(metric="CPUUtilization"), "policy.metric"),
        (lambda p: p["policy"].update(statistic="p95"), "policy.statistic"),
        (lambda p: p.update(route="ws"), "route"),
        (lambda p: p.update(q_max={"post": 3}), "route 'bidi' needs a q_max"),
        (lambda p: p.update(speech_duty=1.5), "speech_duty"),
        (lambda p: p.update(instance_type="g5.xlarge"), "instance_type"),
        (lambda p: p["image"].update(requirements_sha256="xyz"), "image.requirements_sha256"),
        (lambda p: p.update(created="2026-12-02T12:34:56"), "created"),
        (lambda p: p.update(extra_field=1), "extra_field"),
    ],
)
def test_a_bad_profile_says_which_field(tmp_path: Path, change: Any, said: str) -> None:
    content = example()
    change(content)
    with pytest.raises(CapacityProfileError, match=said) as raised:
        load_profile(write(tmp_path, content))
    assert str(tmp_path) in str(raised.value)


def test_another_schema_version_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CapacityProfileError, match="schema 2 is not supported; this version reads schema 1"):
        load_profile(write(tmp_path, {**example(), "schema": 2}))


def test_unreadable_files_say_so(tmp_path: Path) -> None:
    with pytest.raises(CapacityProfileError, match="cannot read it"):
        load_profile(tmp_path / "absent.json")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(CapacityProfileError, match="not JSON"):
        load_profile(tmp_path / "broken.json")
    with pytest.raises(CapacityProfileError, match="must be a JSON object"):
        load_profile(write(tmp_path, [1]))


def test_the_image_fingerprint_is_the_requirements_files_sha256() -> None:
    import hashlib

    path = flavor_requirements(REPOSITORY, "cpu")
    assert requirements_sha256(path) == hashlib.sha256(path.read_bytes()).hexdigest()
    assert path.name == "requirements-cpu.txt"


@pytest.mark.parametrize("path", sorted((REPOSITORY / "capacity").glob("*.json")), ids=lambda path: path.name)
def test_the_repositorys_profiles_validate(path: Path) -> None:
    profile = load_profile(path)
    assert profile.image.flavor == ("gpu" if profile.instance_type.split(".")[1][0] in "gp" else "cpu")
