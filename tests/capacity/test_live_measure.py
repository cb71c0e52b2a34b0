"""``capacity measure`` on a live endpoint, its AWS calls stubbed (botocore Stubber): the ladder runs
pinned to one instance (here through the emulator, a fake engine behind it), the CloudWatch metric is
read per level and set against the client's in-flight count, and the endpoint is restored even when
Ctrl-C stops the ladder half-way."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber

from kokoro_capacity.aws import cloudwatch_concurrency
from kokoro_capacity.ladder import LadderPlan, Slo
from kokoro_capacity.local import open_measured
from kokoro_capacity.measure import measure
from kokoro_capacity.pinning import PinnedToOneInstance
from kokoro_capacity.traffic import Gap, TrafficModel

from .test_pinning import ENDPOINT, VARIANT, clients, expect_pin, expect_restore

TRAFFIC = TrafficModel(
    {"a": "Yes. It is done."}, listen=Gap.parse("fixed:0.1"), think=Gap.parse("fixed:0"), turns=Gap.parse("fixed:2")
)
PLAN = LadderPlan((1, 2), hold_seconds=3, window_seconds=3, repeats=1)


def test_a_live_ladder_runs_pinned_and_reads_the_metric(monkeypatch: Any) -> None:
    monkeypatch.setenv("KOKORO_ENGINE", "fake")
    autoscaling, sagemaker, scaling, sage = clients()
    expect_pin(scaling, sage)
    expect_restore(scaling, sage)
    cloudwatch = boto3.client("cloudwatch", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b")
    watch = Stubber(cloudwatch)
    for value in (0.9, 1.8):  # what CloudWatch saw at each level
        watch.add_response(
            "get_metric_data",
            {"MetricDataResults": [{"Id": "concurrency", "Values": [value]}]},
            {"MetricDataQueries": ANY, "StartTime": ANY, "EndTime": ANY},
        )
    pinned: list[bool] = []

    def pin() -> PinnedToOneInstance:
        pinned.append(True)
        return PinnedToOneInstance(ENDPOINT, VARIANT, autoscaling, sagemaker, sleep=lambda _: None)

    with scaling, sage, watch, open_measured(emulate=True) as opened:
        opened.kind = "endpoint"  # as a live endpoint: pinned, its metric from CloudWatch
        opened.metric = cloudwatch_concurrency(ENDPOINT, "us-east-1", cloudwatch)
        opened.metric_source = "CloudWatch"
        results = measure(opened, TRAFFIC, ("bidi",), PLAN, Slo(60_000, 100_000), pin)
    scaling.assert_no_pending_responses()
    sage.assert_no_pending_responses()
    watch.assert_no_pending_responses()
    runs = results["routes"]["bidi"]["runs"]
    assert pinned == [True] and [run["metric"] for run in runs] == [0.9, 1.8]
    for run in runs:  # the ratio is the metric over the sessions the client held open on average
        assert 0 < run["client_in_flight"] <= run["level"]
        assert run["metric_ratio"] == round(run["metric"] / run["client_in_flight"], 3)


class Interrupting:
    """A transport whose connect is where the operator presses Ctrl-C."""

    def __init__(self) -> None:
        raise KeyboardInterrupt


def test_ctrl_c_during_the_ladder_restores_the_endpoint(monkeypatch: Any) -> None:
    monkeypatch.setenv("KOKORO_ENGINE", "fake")
    autoscaling, sagemaker, scaling, sage = clients()
    expect_pin(scaling, sage)
    expect_restore(scaling, sage)

    def pin() -> PinnedToOneInstance:
        return PinnedToOneInstance(ENDPOINT, VARIANT, autoscaling, sagemaker, sleep=lambda _: None)

    with scaling, sage, open_measured() as opened:
        opened.target.bidi = Interrupting  # type: ignore[assignment]
        with pytest.raises(KeyboardInterrupt):
            measure(opened, TRAFFIC, ("bidi",), PLAN, Slo(), pin)
    scaling.assert_no_pending_responses()
    sage.assert_no_pending_responses()
