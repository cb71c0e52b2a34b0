"""Settings from cdk context: defaults from cdk.json, -c overrides, clear errors for bad values."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from kokoro_server.engine.embedded_model import VOICE_SHA256
from stacks.config import SettingsError, settings_from_context

from .conftest import REPO_ROOT, cdk_json_context


def settings(**overrides):
    return settings_from_context({**cdk_json_context(), **overrides})


def error_for(**overrides) -> str:
    with pytest.raises(SettingsError) as caught:
        settings(**overrides)
    return str(caught.value)


def test_cdk_json_defaults_describe_the_production_deployment() -> None:
    value = settings()
    assert value.instance_type == "ml.g5.xlarge"
    assert value.model_source.repo == "onnx-community/Kokoro-82M-v1.0-ONNX"
    assert value.model_source.revision == "1939ad2a8e416c0acfeecc08a694d14ef25f2231"
    assert value.model_source.files["onnx/model.onnx"].bytes == 325_532_232
    assert len(value.model_source.voice_names) == 54
    assert value.default_voice == "af_heart"


def test_every_default_model_file_is_pinned_by_sha256_and_the_voices_agree_with_another_source() -> None:
    files = settings().model_source.files
    assert all(spec.sha256 and spec.bytes for spec in files.values()), "a default model file is not pinned"
    # The embedded model's voices come from the kokoro-js npm package, not the hub: the same bytes.
    voices = {name.removeprefix("voices/").removesuffix(".bin"): spec.sha256 for name, spec in files.items()}
    del voices["onnx/model.onnx"]
    assert voices == VOICE_SHA256


def test_command_line_strings_are_parsed_into_their_types() -> None:
    value = settings(
        max_instances="4",
        initial_instance_count="3",
        populate_model_cache="false",
        container_env='{"A": "1"}',
        image_uri="",
        alarm_email="",
    )
    assert (value.max_instances, value.initial_instance_count, value.instance_count) == (4, 3, 3)
    assert value.alarm_email is None
    assert value.populate_model_cache is False
    assert value.container_env == {"A": "1"}
    assert value.image_uri is None


def test_cdk_feature_flags_are_not_mistaken_for_settings() -> None:
    assert settings(**{"@aws-cdk/core:newStyleStackSynthesis": True, "aws:cdk:version-reporting": False})


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"instance_type": "g5.xlarge"}, "instance_type='g5.xlarge' is invalid"),
        ({"instance_type": "g5.xlarge"}, "like ml.g5.xlarge"),
        ({"initial_instance_count": "0"}, "initial_instance_count='0' is invalid"),
        ({"initial_instance_count": "two"}, "initial_instance_count='two' is invalid"),
        ({"endpoint_name": "kokoro_tts"}, "1-63 letters, digits and hyphens"),
        ({"default_voice": "xx_nobody"}, "choose one of: af_alloy, af_aoede"),
        ({"bucket_removal_policy": "delete"}, "'retain' or 'destroy'"),
        ({"log_retention_days": "31"}, "one of CloudWatch's retention periods: 1, 3, 5"),
        ({"image_uri": "docker.io/library/python:3.12"}, "must be an Amazon ECR image"),
        ({"hub_endpoint": "http://huggingface.co"}, "is invalid: String should match pattern"),
        ({"hub_endpoint": "http://huggingface.co"}, "(an https:// URL of the hub or a mirror)"),
        ({"model_prefix": "no-slash"}, "(an S3 key prefix ending in '/', e.g. kokoro/v1/)"),
        ({"container_env": "{not json"}, "container_env='{not json' is not valid JSON"),
        ({"container_env": '{"1BAD": "x"}'}, "variable name '1BAD'"),
        ({"health_check_timeout_seconds": "10"}, "greater than or equal to 60"),
        ({"instance_typ": "ml.g5.xlarge"}, "unknown context key(s) instance_typ; known keys:"),
        ({"instance_type": "ml.g5.huge"}, "instance size 'huge' of ml.g5.huge is not medium, large, xlarge or Nxlarge"),
        ({"max_instances": "101"}, "max_instances='101' is invalid"),
        ({"alarm_email": "ops-at-example"}, "(an email address like ops@example.com)"),
        ({"alarm_cpu_percent": "120"}, "alarm_cpu_percent='120' is invalid"),
        ({"container_env": '{"KOKORO_ENDPOINT_NAME": "x"}'}, "KOKORO_ENDPOINT_NAME is set by the stack"),
        ({"container_env": '{"KOKORO_LOAD_SAMPLE_SECONDS": "1"}'}, "KOKORO_LOAD_SAMPLE_SECONDS is set by the stack"),
    ],
)
def test_invalid_value_names_key_value_and_what_is_allowed(overrides, expected) -> None:
    assert expected in error_for(**overrides)


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            {"min_instances": "3", "max_instances": "2"},
            "max_instances=2 is below min_instances=3; set max_instances >= min_instances",
        ),
        (
            {"initial_instance_count": "2"},
            "initial_instance_count=2 is outside min_instances..max_instances (1..1)",
        ),
        (
            {"min_instances": "2", "max_instances": "4", "initial_instance_count": "1"},
            "initial_instance_count=1 is outside min_instances..max_instances (2..4)",
        ),
        (
            {"queue_depth_scale_out": "4"},
            "queue_depth_scale_out=4.0 needs autoscaling, but max_instances equals min_instances (1)",
        ),
    ],
)
def test_inconsistent_scaling_stops_synth_with_the_rule_it_breaks(overrides, expected) -> None:
    message = error_for(**overrides)
    assert expected in message
    assert "model_source" not in message  # the rule, not a dump of the whole context


def test_fixed_fleet_and_autoscaling_start_with_min_instances_unless_told() -> None:
    assert (settings().autoscaling, settings().instance_count) == (False, 1)
    fleet = settings(min_instances="3", max_instances="3")
    assert (fleet.autoscaling, fleet.instance_count) == (False, 3)
    scaled = settings(min_instances="2", max_instances="6")
    assert (scaled.autoscaling, scaled.instance_count) == (True, 2)


def test_model_source_must_pin_a_commit_not_a_branch() -> None:
    source = {**cdk_json_context()["model_source"], "revision": "main"}
    message = error_for(model_source=source)
    assert "model_source.revision='main' is invalid" in message
    assert "(a full 40-hex commit id, never a branch)" in message


def test_model_source_onnx_and_voices_must_be_listed_files() -> None:
    source = {**cdk_json_context()["model_source"], "onnx": "onnx/model_fp16.onnx"}
    assert "onnx 'onnx/model_fp16.onnx' must be one of the listed files" in error_for(model_source=source)
    source = {**cdk_json_context()["model_source"], "files": {"onnx/model.onnx": {"bytes": 1}, "../x.bin": {}}}
    assert "must be a plain relative path" in error_for(model_source=source)


def test_missing_key_says_where_to_set_it() -> None:
    context = cdk_json_context()
    del context["instance_type"]
    with pytest.raises(
        SettingsError,
        match=r"'instance_type' is required \(like ml.g5.xlarge\); set it in cdk.json or with -c instance_type=",
    ):
        settings_from_context(context)


def test_a_new_revision_gets_a_new_cache_prefix() -> None:
    first = settings().cache_prefix
    source = {**cdk_json_context()["model_source"], "revision": "0" * 40}
    assert settings(model_source=source).cache_prefix != first
    assert settings(model_prefix="custom/place/").cache_prefix == "custom/place/"


def test_app_exits_with_the_message_not_a_traceback() -> None:
    result = subprocess.run(
        ["uv", "run", "--locked", "python", "app.py"],
        cwd=REPO_ROOT,
        env={**os.environ, "CDK_CONTEXT_JSON": json.dumps({**cdk_json_context(), "instance_type": "big"})},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "error: invalid configuration" in result.stderr
    assert "instance_type='big' is invalid" in result.stderr
    assert "Traceback" not in result.stderr


def test_deploy_page_configuration_table_documents_every_key() -> None:
    from stacks.config import Settings

    page = (REPO_ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    section = page[page.index("## Configuration") :]
    end = section.find("\n## ")  # the next section of the page, if any
    table = section if end == -1 else section[:end]
    undocumented = [key for key in Settings.model_fields if f"| `{key}` |" not in table]
    assert undocumented == []
