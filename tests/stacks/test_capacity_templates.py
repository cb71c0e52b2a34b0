"""The endpoint template built from a capacity profile: the measured policy, the separate scale-in, the
admission limit and batching, and the alarms on scaling."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cfnlint.api import lint_file
from syrupy.extensions.json import JSONSnapshotExtension

from .capacity_fixture import profile_file
from .conftest import REPO_ROOT, Assembly, synthesize
from .test_operations import STACK, alarms, dimensions, endpoint_ref, metric_stats
from .test_templates import masked


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> Assembly:
    """`cdk synth -c capacity_profile=<the fixture, measured batching 16>` (ml.g5.xlarge, cdk.json's other
    defaults)."""
    path = profile_file(tmp_path_factory.mktemp("profile"), batching={"max_batch": 16, "batch_wait_ms": 4.0})
    return synthesize(tmp_path_factory.mktemp("measured"), capacity_profile=path)


def policies(assembly: Assembly) -> dict[str, dict[str, Any]]:
    """Scaling policies by type."""
    found = assembly.resources(STACK, "AWS::ApplicationAutoScaling::ScalingPolicy").values()
    by_type: dict[str, dict[str, Any]] = {}
    for policy in found:
        kind = policy["Properties"]["PolicyType"]
        assert kind not in by_type, f"two {kind} policies"
        by_type[kind] = policy["Properties"]
    return by_type


def test_snapshot_of_the_endpoint_deployed_from_a_profile(measured: Assembly, snapshot) -> None:
    assert masked(measured.templates[STACK]) == snapshot.use_extension(JSONSnapshotExtension)


def test_instances_come_from_the_profile(measured: Assembly) -> None:
    _, target = measured.one(STACK, "AWS::ApplicationAutoScaling::ScalableTarget")
    assert (target["Properties"]["MinCapacity"], target["Properties"]["MaxCapacity"]) == (1, 18)
    _, endpoint = measured.one(STACK, "AWS::SageMaker::Endpoint")
    assert endpoint["Properties"]["RetainAllVariantProperties"] is True


def test_target_tracking_follows_the_profile_statistic_and_never_scales_in(measured: Assembly) -> None:
    config = policies(measured)["TargetTrackingScaling"]["TargetTrackingScalingPolicyConfiguration"]
    metric = config["CustomizedMetricSpecification"]
    assert (metric["Namespace"], metric["MetricName"], metric["Statistic"]) == (
        "AWS/SageMaker",
        "ConcurrentRequestsPerModel",
        "Maximum",
    )
    assert dimensions(metric) == {"EndpointName": endpoint_ref(measured), "VariantName": "AllTraffic"}
    assert config["TargetValue"] == 7.5
    assert config["DisableScaleIn"] is True
    assert (config["ScaleOutCooldown"], config["ScaleInCooldown"]) == (60, 900)


def test_a_separate_step_policy_removes_one_instance_below_the_threshold(measured: Assembly) -> None:
    step = policies(measured)["StepScaling"]["StepScalingPolicyConfiguration"]
    assert step["AdjustmentType"] == "ChangeInCapacity"
    assert step["StepAdjustments"] == [{"MetricIntervalUpperBound": 0, "ScalingAdjustment": -1}]
    assert step["Cooldown"] == 900
    (alarm,) = [
        a["Properties"]
        for a in measured.resources(STACK, "AWS::CloudWatch::Alarm").values()
        if "AlarmName" not in a["Properties"]
    ]
    policy_id = next(
        k
        for k, v in measured.resources(STACK, "AWS::ApplicationAutoScaling::ScalingPolicy").items()
        if v["Properties"]["PolicyType"] == "StepScaling"
    )
    assert alarm["AlarmActions"] == [{"Ref": policy_id}]
    assert (alarm["ComparisonOperator"], alarm["Threshold"]) == ("LessThanOrEqualToThreshold", 3)
    assert (alarm["EvaluationPeriods"], alarm["DatapointsToAlarm"]) == (15, 15)  # 15 minutes in a row
    expression, concurrency = alarm["Metrics"]
    assert expression["Expression"] == "FILL(concurrency, 0)"  # no requests at all reads as 0: shrink to min
    stat = concurrency["MetricStat"]
    assert (stat["Metric"]["MetricName"], stat["Stat"], stat["Period"]) == ("ConcurrentRequestsPerModel", "Maximum", 60)
    assert dimensions(stat["Metric"]) == {"EndpointName": endpoint_ref(measured), "VariantName": "AllTraffic"}


def test_the_container_admits_the_profile_limit_and_batches_as_measured(measured: Assembly) -> None:
    _, model = measured.one(STACK, "AWS::SageMaker::Model")
    environment = model["Properties"]["PrimaryContainer"]["Environment"]
    assert environment["KOKORO_MAX_ACTIVE_UTTERANCES"] == "14"
    assert (environment["KOKORO_MAX_BATCH"], environment["KOKORO_BATCH_WAIT_MS"]) == ("16", "4")


def test_failed_scaling_reaches_the_alarm_topic_with_its_reason(measured: Assembly) -> None:
    topic_id, _ = measured.one(STACK, "AWS::SNS::Topic")
    rules = {
        v["Properties"]["EventPattern"]["detail-type"][0]: (k, v["Properties"])
        for k, v in measured.resources(STACK, "AWS::Events::Rule").items()
    }
    assert set(rules) == {"AWS API Call via CloudTrail", "SageMaker Endpoint State Change"}
    refused_id, refused = rules["AWS API Call via CloudTrail"]
    assert refused["EventPattern"]["source"] == ["aws.sagemaker"]
    assert refused["EventPattern"]["detail"] == {
        "eventSource": ["sagemaker.amazonaws.com"],
        "eventName": ["UpdateEndpointWeightsAndCapacities"],
        "errorCode": [{"exists": True}],
        "requestParameters": {"endpointName": ["kokoro-tts"]},
    }
    rolled_back_id, rolled_back = rules["SageMaker Endpoint State Change"]
    assert rolled_back["EventPattern"]["detail"]["EndpointName"] == ["kokoro-tts"]
    assert {"RollingBack", "ROLLING_BACK", "UpdateRollbackFailed"} <= set(
        rolled_back["EventPattern"]["detail"]["EndpointStatus"]
    )
    for rule in (refused, rolled_back):
        (target,) = rule["Targets"]
        assert target["Arn"] == {"Ref": topic_id}
        assert "kokoro-tts: scaling" in target["InputTransformer"]["InputTemplate"]
    assert set(rolled_back["Targets"][0]["InputTransformer"]["InputPathsMap"].values()) == {
        "$.detail.EndpointStatus",
        "$.detail.FailureReason",
    }
    # EventBridge may use the topic's key and publish to it.
    key_id = measured.one(STACK, "AWS::SNS::Topic")[1]["Properties"]["KmsMasterKeyId"]["Fn::GetAtt"][0]
    key_statements = measured.templates[STACK]["Resources"][key_id]["Properties"]["KeyPolicy"]["Statement"]
    assert any(s["Principal"] == {"Service": "events.amazonaws.com"} for s in key_statements)
    (topic_policy,) = measured.resources(STACK, "AWS::SNS::TopicPolicy").values()
    assert any(
        s["Effect"] == "Allow" and s["Principal"] == {"Service": "events.amazonaws.com"}
        for s in topic_policy["Properties"]["PolicyDocument"]["Statement"]
    )

    failed = alarms(measured)["kokoro-tts-ScalingFailed"]
    assert failed["Metrics"][0]["Expression"] == "FILL(refused, 0) + FILL(rolledback, 0)"
    counted = {m["Id"]: m["MetricStat"] for m in failed["Metrics"] if "MetricStat" in m}
    assert {k: (v["Metric"]["Namespace"], v["Metric"]["MetricName"], v["Stat"]) for k, v in counted.items()} == {
        "refused": ("AWS/Events", "TriggeredRules", "Sum"),
        "rolledback": ("AWS/Events", "TriggeredRules", "Sum"),
    }
    assert dimensions(counted["refused"]["Metric"]) == {"RuleName": {"Ref": refused_id}}
    assert dimensions(counted["rolledback"]["Metric"]) == {"RuleName": {"Ref": rolled_back_id}}
    assert (failed["Threshold"], failed["EvaluationPeriods"], failed["ComparisonOperator"]) == (
        1,
        1,
        "GreaterThanOrEqualToThreshold",
    )
    assert failed["AlarmActions"] == [{"Ref": topic_id}] and failed["OKActions"] == [{"Ref": topic_id}]


def test_sitting_at_max_capacity_alarms_after_15_minutes(measured: Assembly) -> None:
    at_max = alarms(measured)["kokoro-tts-AtMaxCapacity"]
    assert at_max["Metrics"][0]["Expression"].startswith("FILL(samples, 0) /")  # ready servers
    assert (at_max["ComparisonOperator"], at_max["Threshold"]) == ("GreaterThanOrEqualToThreshold", 17.5)
    assert (at_max["EvaluationPeriods"], at_max["DatapointsToAlarm"]) == (15, 15)
    assert (metric_stats(at_max)[0]["MetricName"], at_max["Metrics"][1]["MetricStat"]["Period"]) == ("QueueDepth", 60)


def test_synth_says_what_the_profile_set_and_replaced(measured: Assembly) -> None:
    (message,) = measured.messages[STACK]
    assert "capacity profile " in message and "1-18 instances" in message
    assert "admission limit 14, batching 16 chunks per model call with a 4 ms wait" in message
    assert (
        "the profile replaces these hand-set values: max_instances: 1 → 18; scaling_target_concurrency: 10 → 7.5"
        in (message)
    )


def test_without_a_profile_synth_says_the_target_is_not_measured(tmp_path: Path, assembly: Assembly) -> None:
    assert assembly.messages[STACK] == []  # a fixed fleet has no target to speak of
    scaled = synthesize(tmp_path, min_instances="1", max_instances="3")
    (message,) = scaled.messages[STACK]
    assert "scaling_target_concurrency=10 is a hand-set starting point, not a measurement" in message
    assert alarms(scaled).keys() >= {"kokoro-tts-ScalingFailed", "kokoro-tts-AtMaxCapacity"}
    assert "StepScaling" not in policies(scaled)  # target tracking alone, scaling in too


def test_profile_template_is_cfn_lint_clean_and_nag_clean(measured: Assembly) -> None:
    errors = [m for m in lint_file(measured.outdir / f"{STACK}.template.json") if m.rule.id.startswith("E")]
    assert errors == []
    assert [v for r in measured.validation_report["pluginReports"] for v in r.get("violations", [])] == []


def test_cdk_cli_synth_deploys_the_profile_named_on_the_command_line(tmp_path: Path) -> None:
    """`npx cdk synth -c capacity_profile=<path> -c instance_type=<its type>`, as a newcomer runs it; the
    profile has no batching part, so the container keeps the server's own batching."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "CDK_DEFAULT_"))}
    env.update(AWS_EC2_METADATA_DISABLED="true", DOCKER_HOST="unix:///nonexistent.sock", AWS_CONFIG_FILE="/dev/null")
    env["AWS_SHARED_CREDENTIALS_FILE"] = "/dev/null"
    path = profile_file(tmp_path)
    command = [
        "npx",
        "--no-install",
        "cdk",
        "synth",
        "KokoroEndpoint",
        "--exclusively",
        "--output",
        str(tmp_path / "out"),
    ]
    command += ["-c", f"capacity_profile={path}", "-c", "instance_type=ml.g5.xlarge"]
    result = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "MaxCapacity: 18" in result.stdout and "DisableScaleIn: true" in result.stdout
    assert "capacity profile" in result.stderr  # the info line, with the values it replaced
    assert "KOKORO_MAX_ACTIVE_UTTERANCES" in result.stdout and "KOKORO_MAX_BATCH" not in result.stdout
    assert "batching not pinned" in result.stderr
