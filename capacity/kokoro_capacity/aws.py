"""What a live endpoint says about itself: its high-resolution concurrency metric (CloudWatch), its
container's log lines (CloudWatch Logs), and the history of its scale-outs (Application Auto Scaling,
CloudWatch alarm history, SageMaker, the new instance's log stream)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from .ladder import MetricRead
from .pinning import SCALABLE_DIMENSION, resource_id
from .server_log import Telemetry

HIGH_RESOLUTION = "ConcurrentRequestsPerModelHighResolution"
VARIANT = "AllTraffic"
_ALARM = re.compile(r"monitor alarm (?P<name>.+?) in state ALARM")
_COUNT = re.compile(r"desired instance count to (?P<count>\d+)")


def log_group(endpoint: str) -> str:
    return f"/aws/sagemaker/Endpoints/{endpoint}"


def _when(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def concurrency_mean(cloudwatch: Any, endpoint: str, start: float, end: float, variant: str = VARIANT) -> float | None:
    """The mean of SageMaker's 10 s concurrency metric (Average over instances) between two epoch times."""
    answer = cloudwatch.get_metric_data(
        MetricDataQueries=[
            {
                "Id": "concurrency",
                "MetricStat": {
                    "Metric": {
                        "Namespace": "AWS/SageMaker",
                        "MetricName": HIGH_RESOLUTION,
                        "Dimensions": [
                            {"Name": "EndpointName", "Value": endpoint},
                            {"Name": "VariantName", "Value": variant},
                        ],
                    },
                    "Period": 10,
                    "Stat": "Average",
                },
            }
        ],
        StartTime=_when(start),
        EndTime=_when(end),
    )
    values = [value for result in answer["MetricDataResults"] for value in result.get("Values", [])]
    return sum(values) / len(values) if values else None


def cloudwatch_concurrency(endpoint: str, region: str, cloudwatch: Any = None, variant: str = VARIANT) -> MetricRead:
    if cloudwatch is None:
        import boto3

        cloudwatch = boto3.client("cloudwatch", region_name=region)

    def read(start: float, end: float, route: str) -> dict[str, float] | None:
        value = concurrency_mean(cloudwatch, endpoint, start, end, variant)
        return {"concurrency": value} if value is not None else None

    return read


def log_events(
    logs: Any, endpoint: str, start: float, end: float, pattern: str = "?utterance ?Sessions", stream: str | None = None
) -> Iterator[tuple[str, float, str]]:
    """(message, epoch seconds, log stream) of the endpoint's log lines in the window, every page."""
    arguments: dict[str, Any] = {
        "logGroupName": log_group(endpoint),
        "startTime": int(start * 1000),
        "endTime": int(end * 1000),
        "filterPattern": pattern,
    }
    if stream is not None:
        arguments["logStreamNames"] = [stream]
    while True:
        page = logs.filter_log_events(**arguments)
        for event in page.get("events", []):
            yield event["message"], event["timestamp"] / 1000, event.get("logStreamName", "")
        if not page.get("nextToken"):
            return
        arguments["nextToken"] = page["nextToken"]


def endpoint_telemetry(logs: Any, endpoint: str, start: float, end: float, sample_seconds: float) -> Telemetry:
    return Telemetry(sample_seconds=sample_seconds).extend(log_events(logs, endpoint, start, end))


def scale_out_activities(autoscaling: Any, endpoint: str, variant: str = VARIANT) -> list[dict[str, Any]]:
    """Successful activities that raised the desired instance count, oldest first."""
    activities: list[dict[str, Any]] = []
    arguments = {
        "ServiceNamespace": "sagemaker",
        "ResourceId": resource_id(endpoint, variant),
        "ScalableDimension": SCALABLE_DIMENSION,
    }
    while True:
        page = autoscaling.describe_scaling_activities(**arguments)
        activities += page["ScalingActivities"]
        if not page.get("NextToken"):
            break
        arguments["NextToken"] = page["NextToken"]
    activities.sort(key=lambda activity: activity["StartTime"])
    raised, previous = [], None
    for activity in activities:
        found = _COUNT.search(activity.get("Description", ""))
        count = int(found["count"]) if found else None
        if activity.get("StatusCode") == "Successful" and count is not None:
            if (previous is not None and count > previous) or (
                previous is None and "High" in activity.get("Cause", "")
            ):
                raised.append({**activity, "desired_count": count})
            previous = count
    return raised


def _alarm_time(cloudwatch: Any, activity: dict[str, Any]) -> datetime | None:
    found = _ALARM.search(activity.get("Cause", ""))
    if found is None:
        return None
    history = cloudwatch.describe_alarm_history(
        AlarmName=found["name"],
        HistoryItemType="StateUpdate",
        StartDate=activity["StartTime"] - timedelta(hours=1),
        EndDate=activity["StartTime"],
    )["AlarmHistoryItems"]
    alarms = [item["Timestamp"] for item in history if "to ALARM" in item.get("HistorySummary", "")]
    return max(alarms) if alarms else None


def _new_stream(logs: Any, endpoint: str, after: datetime) -> dict[str, Any] | None:
    """The instance that started after ``after``: the log stream whose first event is the earliest after it."""
    streams = logs.describe_log_streams(logGroupName=log_group(endpoint), orderBy="LastEventTime", descending=True)
    later = [s for s in streams["logStreams"] if s.get("firstEventTimestamp", 0) / 1000 >= after.timestamp()]
    return min(later, key=lambda s: s["firstEventTimestamp"]) if later else None


def _first(logs: Any, endpoint: str, stream: str, start: float, pattern: str, event: str) -> float | None:
    for message, at, _ in log_events(logs, endpoint, start, start + 3600, pattern, stream):
        try:
            if json.loads(message).get("event") == event:
                return at
        except ValueError:
            continue
    return None


def time_scale_out(
    activity: dict[str, Any], endpoint: str, cloudwatch: Any, logs: Any, sagemaker: Any
) -> dict[str, Any]:
    """One added instance, stage by stage, in seconds (None where the record is missing)."""
    started, ended = activity["StartTime"], activity.get("EndTime")
    alarm = _alarm_time(cloudwatch, activity)
    stream = _new_stream(logs, endpoint, started)
    boot = stream["firstEventTimestamp"] / 1000 if stream else None
    ready = _first(logs, endpoint, stream["logStreamName"], boot, '"ready"', "ready") if stream and boot else None
    traffic = (
        _first(logs, endpoint, stream["logStreamName"], boot, '"utterance"', "utterance") if stream and boot else None
    )
    described = sagemaker.describe_endpoint(EndpointName=endpoint)

    def between(first: float | None, second: float | None) -> float | None:
        return round(second - first, 1) if first is not None and second is not None else None

    start_s, end_s = started.timestamp(), ended.timestamp() if ended else None
    alarm_s = alarm.timestamp() if alarm else None
    stages = {
        "policy_reaction": between(alarm_s, start_s),
        "provisioning_and_image_pull": between(start_s, boot),
        "model_load": between(boot, ready),
        "healthy": between(ready, end_s),
        "first_traffic": between(end_s, traffic),
    }
    total = between(alarm_s if alarm_s is not None else start_s, traffic if traffic is not None else end_s)
    return {
        "activity": activity.get("ActivityId"),
        "desired_count": activity["desired_count"],
        "started": started.isoformat(),
        "stages_s": stages,
        "total_s": total,
        "instance_log_stream": stream["logStreamName"] if stream else None,
        "endpoint_status_now": described.get("EndpointStatus"),
        "not_separable": "provisioning and the image pull: SageMaker reports neither apart; the container's "
        "first log line ends both",
    }
