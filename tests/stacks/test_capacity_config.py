"""A capacity profile in cdk context: its values replace the hand-set ones, and synth refuses one that
was measured for another deployment or cannot be read, naming the file and what is wrong."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from kokoro_core.capacity_profile import flavor_requirements, requirements_sha256

from .capacity_fixture import FIXTURE, profile_file
from .conftest import REPO_ROOT, cdk_json_context
from .test_config import error_for, settings


def test_without_a_profile_the_hand_set_values_stay() -> None:
    value = settings()
    assert cdk_json_context()["capacity_profile"] is None
    assert value.profile is None and value.capacity_profile is None
    assert (value.min_instances, value.max_instances, value.scaling_target_concurrency) == (1, 1, 10)
    assert "KOKORO_MAX_ACTIVE_UTTERANCES" not in value.container_env
    assert settings(capacity_profile="").profile is None  # -c capacity_profile= unsets it


def test_the_profile_decides_instances_target_cooldowns_and_admission(tmp_path: Path) -> None:
    path = profile_file(tmp_path)
    value = settings(capacity_profile=path)
    assert (value.min_instances, value.max_instances, value.autoscaling) == (1, 18, True)
    assert value.scaling_target_concurrency == 7.5
    assert (value.scale_out_cooldown_seconds, value.scale_in_cooldown_seconds) == (60, 900)
    assert value.container_env["KOKORO_MAX_ACTIVE_UTTERANCES"] == "14"
    assert value.profile is not None
    policy = value.profile.profile.policy
    assert (policy.metric, policy.statistic, policy.scale_in_threshold, policy.scale_in_evaluation_minutes) == (
        "ConcurrentRequestsPerModelHighResolution",
        "Maximum",
        3.0,
        15,
    )


def test_a_profile_without_batching_leaves_it_to_the_container(tmp_path: Path) -> None:
    """A profile from a measurement that did not know the server's batching (the fixture has no batching
    part, as profiles written before it): batching stays as container_env sets it, or the server's default."""
    assert "batching" not in json.loads(FIXTURE.read_text())
    value = settings(capacity_profile=profile_file(tmp_path))
    assert not {"KOKORO_MAX_BATCH", "KOKORO_BATCH_WAIT_MS"} & set(value.container_env)
    assert (
        value.profile is not None and "batching not pinned (the container's settings apply)" in value.profile.summary()
    )
    hand_set = settings(capacity_profile=profile_file(tmp_path), container_env='{"KOKORO_MAX_BATCH": "8"}')
    assert hand_set.container_env["KOKORO_MAX_BATCH"] == "8"
    assert hand_set.profile is not None and not any("KOKORO_MAX_BATCH" in line for line in hand_set.profile.overrides)


def test_the_profile_pins_the_batching_it_was_measured_with(tmp_path: Path) -> None:
    path = profile_file(tmp_path, batching={"max_batch": 16, "batch_wait_ms": 4.0})
    value = settings(capacity_profile=path, container_env='{"KOKORO_MAX_BATCH": "1", "KOKORO_BATCH_WAIT_MS": "4"}')
    assert value.container_env == {
        "KOKORO_MAX_BATCH": "16",
        "KOKORO_BATCH_WAIT_MS": "4",
        "KOKORO_MAX_ACTIVE_UTTERANCES": "14",
    }
    assert value.profile is not None
    # 4 and 4.0 are the same wait: only the batch size is a replaced value
    assert value.profile.overrides[-1] == "container_env.KOKORO_MAX_BATCH: 1 → 16"
    assert "admission limit 14, batching 16 chunks per model call with a 4 ms wait" in value.profile.summary()


def test_the_committed_fixture_deploys_from_this_checkout() -> None:
    """The fixture itself, named relative to the repository root as cdk.json names a profile."""
    stored = json.loads(FIXTURE.read_text())["image"]["requirements_sha256"]
    current = requirements_sha256(flavor_requirements(REPO_ROOT, "gpu"))
    assert stored == current, f"container/requirements-gpu.txt changed: set {FIXTURE.name}'s requirements_sha256"
    assert settings(capacity_profile=str(FIXTURE.relative_to(REPO_ROOT))).max_instances == 18


def test_synth_names_each_hand_set_value_the_profile_replaces(tmp_path: Path) -> None:
    value = settings(
        capacity_profile=profile_file(tmp_path),
        min_instances="1",  # the same as the profile's: not an override
        max_instances="4",
        scale_in_cooldown_seconds=1800,
        container_env='{"KOKORO_MAX_ACTIVE_UTTERANCES": "64", "KOKORO_WORKERS": "2"}',
    )
    assert value.profile is not None
    assert value.profile.overrides == (
        "max_instances: 4 → 18",
        "scaling_target_concurrency: 10 → 7.5",
        "scale_in_cooldown_seconds: 1800 → 900",
        "container_env.KOKORO_MAX_ACTIVE_UTTERANCES: 64 → 14",
    )
    assert value.container_env == {"KOKORO_MAX_ACTIVE_UTTERANCES": "14", "KOKORO_WORKERS": "2"}
    summary = value.profile.summary()
    assert "1-18 instances, target tracking on ConcurrentRequestsPerModelHighResolution Maximum at 7.5" in summary
    assert "the profile replaces these hand-set values: max_instances: 4 → 18;" in summary


def test_a_cpu_profile_deploys_on_its_cpu_instance_type(tmp_path: Path) -> None:
    cpu_sha = requirements_sha256(flavor_requirements(REPO_ROOT, "cpu"))
    path = profile_file(
        tmp_path,
        instance_type="ml.c7i.2xlarge",
        measured_on="local 8-core machine standing for ml.c7i.2xlarge",
        image={"flavor": "cpu", "requirements_sha256": cpu_sha},
    )
    value = settings(capacity_profile=path, instance_type="ml.c7i.2xlarge")
    assert value.profile is not None and value.profile.profile.is_rehearsal
    assert value.max_instances == 18


def test_a_profile_for_another_instance_type_is_refused(tmp_path: Path) -> None:
    path = profile_file(tmp_path)
    message = error_for(capacity_profile=path, instance_type="ml.g6.xlarge")
    assert f"capacity profile {path} was measured for ml.g5.xlarge, but this deployment runs ml.g6.xlarge" in message
    assert "-c instance_type=ml.g5.xlarge" in message


def test_a_profile_for_another_image_flavor_is_refused(tmp_path: Path) -> None:
    path = profile_file(tmp_path, image={"flavor": "cpu"})
    message = error_for(capacity_profile=path)
    assert "was measured with the cpu image, but ml.g5.xlarge runs the gpu image" in message


def test_a_profile_for_other_pinned_packages_is_refused(tmp_path: Path) -> None:
    path = profile_file(tmp_path, image={"requirements_sha256": "0" * 64})
    message = error_for(capacity_profile=path)
    current = requirements_sha256(flavor_requirements(REPO_ROOT, "gpu"))
    assert f"its requirements_sha256 {'0' * 64} is not the sha256 of container/requirements-gpu.txt" in message
    assert current in message and "measure and plan again" in message


def test_a_missing_profile_names_the_file(tmp_path: Path) -> None:
    message = error_for(capacity_profile="capacity/nowhere.json")
    assert f"capacity profile {REPO_ROOT / 'capacity' / 'nowhere.json'}: cannot read it" in message
    assert "context capacity_profile='capacity/nowhere.json', relative to the repository root" in message


def test_a_profile_that_is_not_json_names_the_file_and_where(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"schema": 1,\n  "created": }', encoding="utf-8")
    message = error_for(capacity_profile=str(path))
    assert f"capacity profile {path}: not JSON" in message
    assert "line 2" in message


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"policy": {"target_value": -1}}, "policy.target_value: Input should be greater than 0"),
        ({"policy": {"statistic": "p95"}}, "policy.statistic: Input should be 'Average', 'Maximum' or 'Sum'"),
        ({"policy": {"metric": "Invocations"}}, "policy.metric: Input should be"),
        ({"policy": {"scale_in_threshold": 9}}, "scale_in_threshold 9.0 must be below target_value 7.5"),
        ({"schema": 2}, "schema 2 is not supported"),
        ({"instance_type": "g5.xlarge"}, "instance_type: String should match pattern"),
        ({"batching": {"max_batch": 0, "batch_wait_ms": 4}}, "batching.max_batch: Input should be greater than"),
        ({"batching": {"max_batch": 16, "batch_wait_ms": 80}}, "batching.batch_wait_ms: Input should be less than"),
    ],
)
def test_a_schema_error_names_the_file_and_the_field(tmp_path: Path, changes, expected) -> None:
    path = profile_file(tmp_path, **changes)
    message = error_for(capacity_profile=path)
    assert f"capacity profile {path}" in message
    assert expected in message


def test_a_profile_value_the_stacks_cannot_deploy_says_where_it_came_from(tmp_path: Path) -> None:
    path = profile_file(tmp_path, policy={"max_instances": 150})
    message = error_for(capacity_profile=path)
    assert "max_instances=150 is invalid" in message
    assert f"come from capacity profile {path}" in message


def test_app_refuses_a_profile_for_another_instance_type_without_a_traceback(tmp_path: Path) -> None:
    context = {**cdk_json_context(), "capacity_profile": profile_file(tmp_path), "instance_type": "ml.g6.xlarge"}
    result = subprocess.run(
        ["uv", "run", "--locked", "python", "app.py"],
        cwd=REPO_ROOT,
        env={**os.environ, "CDK_CONTEXT_JSON": json.dumps(context)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "error: capacity profile" in result.stderr and "was measured for ml.g5.xlarge" in result.stderr
    assert "Traceback" not in result.stderr
