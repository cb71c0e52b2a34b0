"""Scaling, alarms and dashboard in the synthesized endpoint template."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cfnlint.api import lint_file
from syrupy.extensions.json import JSONSnapshotExtension

from kokoro_core import metrics as server_metrics

from .conftest import Assembly, synthesize
from .test_templates import masked

STACK = "KokoroEndpoint"
DONE_COMMAND = {"min_instances": "1", "max_instances": "4", "alarm_email": "ops@example.com"}


@pytest.fixture(scope="module")
def scaled(tmp_path_factory: pytest.TempPathFactory) -> Assembly:
    """`cdk synth -c min_instances=1 -c max_instances=4 -c alarm_email=ops@example.com`"""
    return synthesize(tmp_path_factory.mktemp("scaled"), **DONE_COMMAND)


def endpoint_ref(assembly: Assembly) -> dict[str, Any]:
    endpoint_id, _ = assembly.one(STACK, "AWS::SageMaker::Endpoint")
    return {"Fn::GetAtt": [endpoint_id, "EndpointName"]}


def alarms(assembly: Assembly) -> dict[str, dict[str, Any]]:
    """The stack's own alarms by name (a step scaling policy's alarm is Application Auto Scaling's, unnamed)."""
    return {
        v["Properties"]["AlarmName"]: v["Properties"]
        for v in assembly.resources(STACK, "AWS::CloudWatch::Alarm").values()
        if "AlarmName" in v["Properties"]
    }


def metric_stats(alarm: dict[str, Any]) -> list[dict[str, Any]]:
    return [query["MetricStat"]["Metric"] for query in alarm["Metrics"] if "MetricStat" in query]


def dimensions(metric: dict[str, Any]) -> dict[str, Any]:
    return {d["Name"]: d["Value"] for d in metric["Dimensions"]}


def test_snapshot_of_the_scaled_endpoint_with_alarm_email(scaled: Assembly, snapshot) -> None:
    assert masked(scaled.templates[STACK]) == snapshot.use_extension(JSONSnapshotExtension)


def test_no_scaling_resources_unless_max_exceeds_min(assembly: Assembly) -> None:
    assert assembly.resources(STACK, "AWS::ApplicationAutoScaling::ScalableTarget") == {}
    assert assembly.resources(STACK, "AWS::ApplicationAutoScaling::ScalingPolicy") == {}
    _, endpoint = assembly.one(STACK, "AWS::SageMaker::Endpoint")
    assert "RetainAllVariantProperties" not in endpoint["Properties"]


def test_scalable_target_is_the_variant_instance_count_within_min_and_max(scaled: Assembly) -> None:
    _, target = scaled.one(STACK, "AWS::ApplicationAutoScaling::ScalableTarget")
    props = target["Properties"]
    assert (props["MinCapacity"], props["MaxCapacity"]) == (1, 4)
    assert props["ServiceNamespace"] == "sagemaker"
    assert props["ScalableDimension"] == "sagemaker:variant:DesiredInstanceCount"
    assert props["ResourceId"] == {"Fn::Join": ["", ["endpoint/", endpoint_ref(scaled), "/variant/AllTraffic"]]}
    assert json.dumps(props["RoleARN"]).endswith(
        ":role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/"
        'AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint"'
    )
    assert scaled.resources(STACK, "AWS::IAM::Role").keys().isdisjoint({"ScalingTargetRole"})


def test_concurrency_tracking_scales_out_fast_and_in_slowly(scaled: Assembly) -> None:
    (policy,) = scaled.resources(STACK, "AWS::ApplicationAutoScaling::ScalingPolicy").values()
    config = policy["Properties"]["TargetTrackingScalingPolicyConfiguration"]
    assert config["PredefinedMetricSpecification"] == {
        "PredefinedMetricType": "SageMakerVariantConcurrentRequestsPerModelHighResolution"
    }
    assert config["TargetValue"] == 10
    assert (config["ScaleOutCooldown"], config["ScaleInCooldown"]) == (60, 900)
    assert "DisableScaleIn" not in config or config["DisableScaleIn"] is False


def test_deploys_keep_the_instance_count_scaling_set(scaled: Assembly) -> None:
    _, endpoint = scaled.one(STACK, "AWS::SageMaker::Endpoint")
    assert endpoint["Properties"]["RetainAllVariantProperties"] is True
    _, config = scaled.one(STACK, "AWS::SageMaker::EndpointConfig")
    assert config["Properties"]["ProductionVariants"][0]["InitialInstanceCount"] == 1


def test_standard_resolution_tracks_the_same_concurrency_metric(tmp_path: Path) -> None:
    assembly = synthesize(
        tmp_path,
        **DONE_COMMAND,
        scaling_high_resolution="false",
        scaling_target_concurrency="6",
        scale_out_cooldown_seconds="120",
        scale_in_cooldown_seconds="1800",
    )
    (policy,) = assembly.resources(STACK, "AWS::ApplicationAutoScaling::ScalingPolicy").values()
    config = policy["Properties"]["TargetTrackingScalingPolicyConfiguration"]
    metric = config["CustomizedMetricSpecification"]
    assert (metric["Namespace"], metric["MetricName"], metric["Statistic"]) == (
        "AWS/SageMaker",
        "ConcurrentRequestsPerModel",
        "Average",
    )
    assert dimensions(metric) == {"EndpointName": endpoint_ref(assembly), "VariantName": "AllTraffic"}
    assert (config["TargetValue"], config["ScaleOutCooldown"], config["ScaleInCooldown"]) == (6, 120, 1800)


def test_queue_depth_step_policy_only_scales_out(tmp_path: Path) -> None:
    assembly = synthesize(tmp_path, **DONE_COMMAND, queue_depth_scale_out="4")
    policies = assembly.resources(STACK, "AWS::ApplicationAutoScaling::ScalingPolicy")
    steps = [p["Properties"] for p in policies.values() if p["Properties"]["PolicyType"] == "StepScaling"]
    assert len(policies) == 2 and len(steps) == 1
    config = steps[0]["StepScalingPolicyConfiguration"]
    assert config["AdjustmentType"] == "ChangeInCapacity" and config["Cooldown"] == 60
    adjustments = sorted((s.get("MetricIntervalLowerBound"), s["ScalingAdjustment"]) for s in config["StepAdjustments"])
    assert adjustments == [(0, 1), (8, 2)]  # +1 from 4 queued jobs per instance, +2 from 12
    (alarm,) = [
        a for a in assembly.resources(STACK, "AWS::CloudWatch::Alarm").values() if "AlarmName" not in a["Properties"]
    ]
    props = alarm["Properties"]
    (metric,) = metric_stats(props)
    assert (metric["Namespace"], metric["MetricName"], props["Metrics"][0]["MetricStat"]["Stat"]) == (
        server_metrics.NAMESPACE,
        server_metrics.QUEUE_DEPTH,
        "Average",
    )
    assert dimensions(metric) == {server_metrics.DIMENSION: endpoint_ref(assembly)}
    assert props["Threshold"] == 4 and props["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"


def test_every_alarm_notifies_the_encrypted_topic_on_alarm_and_recovery(scaled: Assembly) -> None:
    topic_id, topic = scaled.one(STACK, "AWS::SNS::Topic")
    key_id, key = next((k, v) for k, v in scaled.resources(STACK, "AWS::KMS::Key").items() if k.startswith("Alarms"))
    assert topic["Properties"]["KmsMasterKeyId"] == {"Fn::GetAtt": [key_id, "Arn"]}
    assert key["Properties"]["EnableKeyRotation"] is True
    key_statements = key["Properties"]["KeyPolicy"]["Statement"]
    assert any(
        s["Principal"] == {"Service": "cloudwatch.amazonaws.com"} and "kms:GenerateDataKey*" in s["Action"]
        for s in key_statements
    )
    found = alarms(scaled)
    assert set(found) == {
        f"kokoro-tts-{name}"
        for name in (
            "Errors5xx",
            "ModelLatencyP95",
            "TimeToFirstAudioP95",
            "CpuUtilization",
            "GpuUtilization",
            "ServingOnCpu",  # GPU types only
            "InstanceHealth",
            "ScalingFailed",  # with autoscaling only
            "AtMaxCapacity",
        )
    }
    for props in found.values():
        assert props["AlarmActions"] == [{"Ref": topic_id}] and props["OKActions"] == [{"Ref": topic_id}]
    (subscription,) = scaled.resources(STACK, "AWS::SNS::Subscription").values()
    assert subscription["Properties"] == {
        "Endpoint": "ops@example.com",
        "Protocol": "email",
        "TopicArn": {"Ref": topic_id},
    }
    (policy,) = scaled.resources(STACK, "AWS::SNS::TopicPolicy").values()
    statements = policy["Properties"]["PolicyDocument"]["Statement"]
    assert any(
        s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}} for s in statements
    )
    assert any(s["Effect"] == "Allow" and s["Principal"] == {"Service": "cloudwatch.amazonaws.com"} for s in statements)


def test_no_email_subscription_unless_an_address_is_given(assembly: Assembly) -> None:
    assert assembly.resources(STACK, "AWS::SNS::Subscription") == {}
    assert len(alarms(assembly)) == 7


def test_alarm_thresholds_and_metrics_come_from_config_and_the_server_contract(tmp_path: Path) -> None:
    assembly = synthesize(
        tmp_path,
        alarm_5xx_errors_per_5_minutes="2",
        alarm_model_latency_p95_ms="1500",
        alarm_ttfa_p95_ms="600",
        alarm_cpu_percent="70",
        alarm_gpu_percent="95",
    )
    found = alarms(assembly)
    endpoint = endpoint_ref(assembly)
    sagemaker_dims = {"EndpointName": endpoint, "VariantName": "AllTraffic"}

    errors = found["kokoro-tts-Errors5xx"]
    (metric,) = metric_stats(errors)
    assert (metric["Namespace"], metric["MetricName"], errors["Threshold"]) == (
        "AWS/SageMaker",
        "Invocation5XXErrors",
        2,
    )
    assert dimensions(metric) == sagemaker_dims and errors["Metrics"][0]["MetricStat"]["Period"] == 300

    latency = found["kokoro-tts-ModelLatencyP95"]
    (metric,) = metric_stats(latency)
    assert (metric["MetricName"], latency["Metrics"][0]["MetricStat"]["Stat"]) == ("ModelLatency", "p95")
    assert latency["Threshold"] == 1_500_000  # microseconds

    ttfa = found["kokoro-tts-TimeToFirstAudioP95"]
    (metric,) = metric_stats(ttfa)
    assert (metric["Namespace"], metric["MetricName"]) == (server_metrics.NAMESPACE, server_metrics.TIME_TO_FIRST_AUDIO)
    assert dimensions(metric) == {server_metrics.DIMENSION: endpoint} and ttfa["Threshold"] == 600

    cpu = found["kokoro-tts-CpuUtilization"]
    assert cpu["Metrics"][0]["Expression"] == "cpu / 4" and cpu["Threshold"] == 70  # ml.g5.xlarge: 4 vCPUs
    (metric,) = metric_stats(cpu)
    assert (metric["Namespace"], metric["MetricName"]) == ("/aws/sagemaker/Endpoints", "CPUUtilization")
    assert dimensions(metric) == sagemaker_dims

    gpu = found["kokoro-tts-GpuUtilization"]
    assert metric_stats(gpu)[0]["MetricName"] == "GPUUtilization" and gpu["Threshold"] == 95

    on_cpu = found["kokoro-tts-ServingOnCpu"]
    (metric,) = metric_stats(on_cpu)
    assert (metric["Namespace"], metric["MetricName"]) == (server_metrics.NAMESPACE, server_metrics.ON_GPU)
    assert on_cpu["Metrics"][0]["MetricStat"]["Stat"] == "Minimum"
    assert (on_cpu["ComparisonOperator"], on_cpu["Threshold"]) == ("LessThanThreshold", 1)

    health = found["kokoro-tts-InstanceHealth"]
    assert health["Metrics"][0]["Expression"] == f"FILL(samples, 0) / {server_metrics.LOAD_SAMPLES_PER_MINUTE}"
    (metric,) = metric_stats(health)
    assert (metric["Namespace"], metric["MetricName"]) == (server_metrics.NAMESPACE, server_metrics.QUEUE_DEPTH)
    assert health["Metrics"][1]["MetricStat"]["Stat"] == "SampleCount"
    assert (health["ComparisonOperator"], health["Threshold"], health["TreatMissingData"]) == (
        "LessThanThreshold",
        0.5,
        "breaching",
    )


def test_cpu_instance_has_no_gpu_alarm_and_divides_cpu_by_its_vcpus(tmp_path: Path) -> None:
    assembly = synthesize(tmp_path, instance_type="ml.c7i.2xlarge", min_instances="2", max_instances="2")
    found = alarms(assembly)
    assert "kokoro-tts-GpuUtilization" not in found and "kokoro-tts-ServingOnCpu" not in found
    assert found["kokoro-tts-CpuUtilization"]["Metrics"][0]["Expression"] == "cpu / 8"
    assert found["kokoro-tts-InstanceHealth"]["Threshold"] == 1.5  # fewer than the 2 instances it should have


def dashboard_body(assembly: Assembly) -> dict[str, Any]:
    """The dashboard JSON with the endpoint name token resolved, as CloudFormation would."""
    (dashboard,) = assembly.resources(STACK, "AWS::CloudWatch::Dashboard").values()
    endpoint = endpoint_ref(assembly)
    parts = dashboard["Properties"]["DashboardBody"]["Fn::Join"][1]
    rendered = []
    for part in parts:
        if part == endpoint:
            rendered.append("ENDPOINT")
        elif part == {"Ref": "AWS::Region"}:
            rendered.append("REGION")
        elif isinstance(part, dict) and list(part) == ["Fn::GetAtt"] and part["Fn::GetAtt"][1] == "Arn":
            rendered.append(f"ARN:{part['Fn::GetAtt'][0]}")
        else:
            assert isinstance(part, str), f"unexpected token in the dashboard: {part}"
            rendered.append(part)
    return json.loads("".join(rendered))


def test_dashboard_charts_this_endpoint_and_variant(scaled: Assembly) -> None:
    body = dashboard_body(scaled)
    titles = [w["properties"].get("title") for w in body["widgets"]]
    for expected in (
        "Alarms",
        "Concurrency",
        "time to first audio",
        "latency",
        "errors",
        "resources",
        "Ready instances",
    ):
        assert any(expected in (title or "") for title in titles), expected
    charted = [
        entry
        for widget in body["widgets"]
        for entry in widget["properties"].get("metrics", [])
        if not isinstance(entry[0], dict)  # math expressions reference metrics listed beside them
    ]
    names = set()
    for entry in charted:
        namespace, name, *rest = [part for part in entry if not isinstance(part, dict)]
        dims = dict(zip(rest[::2], rest[1::2], strict=True))
        names.add(name)
        if namespace == server_metrics.NAMESPACE:
            assert dims == {server_metrics.DIMENSION: "ENDPOINT"}, entry
        else:
            assert dims == {"EndpointName": "ENDPOINT", "VariantName": "AllTraffic"}, entry
    assert names >= {
        "ConcurrentRequestsPerModel",
        "ModelLatency",
        "Invocation5XXErrors",
        "CPUUtilization",
        "GPUUtilization",
        server_metrics.TIME_TO_FIRST_AUDIO,
        server_metrics.QUEUE_DEPTH,
        server_metrics.SESSIONS,
        server_metrics.BATCH_SIZE,
    }
    (alarm_widget,) = [w for w in body["widgets"] if w["properties"].get("title") == "Alarms"]
    alarm_ids = {v for v in alarm_widget["properties"]["alarms"]}
    assert alarm_ids == {f"ARN:{k}" for k in scaled.resources(STACK, "AWS::CloudWatch::Alarm")}


def test_scaled_template_is_cfn_lint_clean_and_nag_clean(scaled: Assembly) -> None:
    errors = [m for m in lint_file(scaled.outdir / f"{STACK}.template.json") if m.rule.id.startswith("E")]
    assert errors == []
    assert [v for r in scaled.validation_report["pluginReports"] for v in r.get("violations", [])] == []
