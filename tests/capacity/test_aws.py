"""What a live endpoint says about itself, through botocore Stubber: the concurrency metric, speech duty
from its log lines, and one scale-out timed stage by stage from its records."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber

from kokoro_capacity.aws import cloudwatch_concurrency, log_events, scale_out_activities, time_scale_out
from kokoro_capacity.duty import endpoint_duty
from kokoro_capacity.pinning import SCALABLE_DIMENSION

ENDPOINT = "kokoro-tts"
GROUP = f"/aws/sagemaker/Endpoints/{ENDPOINT}"
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def client(name: str) -> Any:
    return boto3.client(name, region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b")


def utterance(audio_ms: float, synth_ms: float, chars: int) -> str:
    return json.dumps(
        {"event": "utterance", "outcome": "done", "chars": chars, "audio_ms": audio_ms, "synth_ms": synth_ms}
    )


def load(sessions: int, at: datetime) -> str:
    stamp = int(at.timestamp() * 1000)
    return json.dumps(
        {
            "_aws": {"Timestamp": stamp},
            "Endpoint": ENDPOINT,
            "Sessions": sessions,
            "ActiveUtterances": 1,
            "QueueDepth": 0,
        }
    )


def test_the_concurrency_metric_is_the_mean_of_the_high_resolution_datapoints() -> None:
    cloudwatch = client("cloudwatch")
    with Stubber(cloudwatch) as stub:
        stub.add_response(
            "get_metric_data",
            {"MetricDataResults": [{"Id": "concurrency", "Values": [3.0, 4.0, 5.0], "StatusCode": "Complete"}]},
            {
                "MetricDataQueries": [
                    {
                        "Id": "concurrency",
                        "MetricStat": {
                            "Metric": {
                                "Namespace": "AWS/SageMaker",
                                "MetricName": "ConcurrentRequestsPerModelHighResolution",
                                "Dimensions": [
                                    {"Name": "EndpointName", "Value": ENDPOINT},
                                    {"Name": "VariantName", "Value": "AllTraffic"},
                                ],
                            },
                            "Period": 10,
                            "Stat": "Average",
                        },
                    }
                ],
                "StartTime": T0,
                "EndTime": T0 + timedelta(seconds=60),
            },
        )
        stub.add_response("get_metric_data", {"MetricDataResults": [{"Id": "concurrency", "Values": []}]})
        read = cloudwatch_concurrency(ENDPOINT, "us-east-1", cloudwatch)
        assert read(T0.timestamp(), T0.timestamp() + 60, "bidi") == {"concurrency": 4.0}
        assert read(T0.timestamp(), T0.timestamp() + 60, "bidi") is None  # no datapoints yet: no figure


def test_duty_reads_every_page_of_the_endpoints_log_lines() -> None:
    logs = client("logs")
    start = T0.timestamp()
    with Stubber(logs) as stub:
        first = {
            "events": [
                {
                    "message": load(2, T0 + timedelta(seconds=10)),
                    "timestamp": int(start * 1000) + 10_000,
                    "logStreamName": "AllTraffic/i-1",
                },
                {
                    "message": utterance(6000, 1500, 90),
                    "timestamp": int(start * 1000) + 12_000,
                    "logStreamName": "AllTraffic/i-1",
                },
            ],
            "nextToken": "page-2",
        }
        second = {
            "events": [
                {
                    "message": load(4, T0 + timedelta(seconds=20)),
                    "timestamp": int(start * 1000) + 20_000,
                    "logStreamName": "AllTraffic/i-1",
                },
                {
                    "message": utterance(12000, 3000, 180),
                    "timestamp": int(start * 1000) + 22_000,
                    "logStreamName": "AllTraffic/i-1",
                },
                {"message": "not json", "timestamp": int(start * 1000) + 23_000, "logStreamName": "AllTraffic/i-1"},
            ]
        }
        window = {
            "logGroupName": GROUP,
            "startTime": int(start * 1000),
            "endTime": int((start + 600) * 1000),
            "filterPattern": ANY,
        }
        stub.add_response("filter_log_events", first, window)
        stub.add_response("filter_log_events", second, {**window, "nextToken": "page-2"})
        result = endpoint_duty(ENDPOINT, "us-east-1", 10, 10.0, logs=logs, now=start + 600)
    # 18 s of audio over (2 + 4) sessions × 10 s per sample = 60 session-seconds
    assert result["speech_duty"] == pytest.approx(0.3)
    assert result["engine_duty"] == pytest.approx(4.5 / 60, abs=1e-4)
    assert result["chars_per_audio_s"] == pytest.approx(15.0)
    assert result["utterances"] == 2


def test_duty_without_load_samples_says_so() -> None:
    logs = client("logs")
    with Stubber(logs) as stub:
        stub.add_response("filter_log_events", {"events": []})
        with pytest.raises(ValueError, match="no load samples with open sessions"):
            endpoint_duty(ENDPOINT, "us-east-1", 10, 10.0, logs=logs, now=T0.timestamp())


def activity(number: int, count: int, start: datetime, cause: str) -> dict[str, Any]:
    return {
        "ActivityId": f"a{number}",
        "ServiceNamespace": "sagemaker",
        "ResourceId": f"endpoint/{ENDPOINT}/variant/AllTraffic",
        "ScalableDimension": SCALABLE_DIMENSION,
        "Description": f"Setting desired instance count to {count}.",
        "Cause": cause,
        "StartTime": start,
        "EndTime": start + timedelta(seconds=400),
        "StatusCode": "Successful",
    }


ALARM = "TargetTracking-endpoint/kokoro-tts/variant/AllTraffic-AlarmHigh-abc"
HIGH = f"monitor alarm {ALARM} in state ALARM triggered policy kokoro-target"


def test_scale_out_stages_from_the_records() -> None:
    autoscaling, cloudwatch, logs, sagemaker = (
        client("application-autoscaling"),
        client("cloudwatch"),
        client("logs"),
        client("sagemaker"),
    )
    scale_out = activity(2, 2, T0, HIGH)
    scale_in = activity(
        3, 1, T0 + timedelta(hours=1), "monitor alarm kokoro-scale-in in state ALARM triggered policy in"
    )
    earlier = activity(1, 1, T0 - timedelta(days=1), "user request update endpoint weights and capacities")
    with (
        Stubber(autoscaling) as scaling,
        Stubber(cloudwatch) as watch,
        Stubber(logs) as log,
        Stubber(sagemaker) as sage,
    ):
        scaling.add_response(
            "describe_scaling_activities", {"ScalingActivities": [scale_in, scale_out], "NextToken": "n"}
        )
        scaling.add_response("describe_scaling_activities", {"ScalingActivities": [earlier]})
        found = scale_out_activities(autoscaling, ENDPOINT)
        assert [a["ActivityId"] for a in found] == ["a2"]  # 1 → 2 only; 2 → 1 is a scale-in

        watch.add_response(
            "describe_alarm_history",
            {
                "AlarmHistoryItems": [
                    {
                        "AlarmName": ALARM,
                        "Timestamp": T0 - timedelta(seconds=45),
                        "HistoryItemType": "StateUpdate",
                        "HistorySummary": "Alarm updated from OK to ALARM",
                    },
                    {
                        "AlarmName": ALARM,
                        "Timestamp": T0 - timedelta(minutes=30),
                        "HistoryItemType": "StateUpdate",
                        "HistorySummary": "Alarm updated from ALARM to OK",
                    },
                ]
            },
            {"AlarmName": ALARM, "HistoryItemType": "StateUpdate", "StartDate": T0 - timedelta(hours=1), "EndDate": T0},
        )
        boot = T0 + timedelta(seconds=240)
        log.add_response(
            "describe_log_streams",
            {
                "logStreams": [
                    {"logStreamName": "AllTraffic/i-new", "firstEventTimestamp": int(boot.timestamp() * 1000)},
                    {
                        "logStreamName": "AllTraffic/i-old",
                        "firstEventTimestamp": int((T0 - timedelta(days=2)).timestamp() * 1000),
                    },
                ]
            },
        )
        ms = int(boot.timestamp() * 1000)
        log.add_response(
            "filter_log_events",
            {
                "events": [
                    {
                        "message": json.dumps({"event": "ready", "seconds": 70}),
                        "timestamp": ms + 70_000,
                        "logStreamName": "AllTraffic/i-new",
                    }
                ]
            },
        )
        log.add_response(
            "filter_log_events",
            {
                "events": [
                    {"message": utterance(900, 200, 12), "timestamp": ms + 200_000, "logStreamName": "AllTraffic/i-new"}
                ]
            },
        )
        sage.add_response(
            "describe_endpoint",
            {
                "EndpointName": ENDPOINT,
                "EndpointArn": "arn:aws:sagemaker:us-east-1:000000000000:endpoint/kokoro-tts",
                "EndpointStatus": "InService",
                "CreationTime": T0,
                "LastModifiedTime": T0,
            },
        )
        timed = time_scale_out(found[0], ENDPOINT, cloudwatch, logs, sagemaker)
    # alarm T0-45 s; activity T0..T0+400 s; container's first line T0+240; ready T0+310; first utterance T0+440
    assert timed["stages_s"] == {
        "policy_reaction": 45.0,
        "provisioning_and_image_pull": 240.0,
        "model_load": 70.0,
        "healthy": 90.0,
        "first_traffic": 40.0,
    }
    assert timed["total_s"] == 485.0
    assert timed["instance_log_stream"] == "AllTraffic/i-new"


def test_log_events_pass_the_stream_and_pattern() -> None:
    logs = client("logs")
    with Stubber(logs) as stub:
        stub.add_response(
            "filter_log_events",
            {"events": []},
            {
                "logGroupName": GROUP,
                "startTime": 1000,
                "endTime": 2000,
                "filterPattern": '"ready"',
                "logStreamNames": ["s"],
            },
        )
        assert list(log_events(logs, ENDPOINT, 1, 2, '"ready"', "s")) == []
