"""``capacity validate --endpoint``'s parts: the instance count read from describe_endpoint (Stubber), and a
trace followed by real sessions (against a fake-engine server here), the count polled as it goes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from kokoro_capacity.live_validate import follow_trace, instance_count, minute_figures
from kokoro_capacity.local import open_measured
from kokoro_capacity.plots import live_plot
from kokoro_capacity.sessions import new_load
from kokoro_capacity.traffic import Gap, TrafficModel

from .test_pinning import ENDPOINT, VARIANT, described


def test_the_instance_count_comes_from_describe_endpoint() -> None:
    sagemaker = boto3.client("sagemaker", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b")
    with Stubber(sagemaker) as stub:
        stub.add_response("describe_endpoint", described(3, "Updating"), {"EndpointName": ENDPOINT})
        assert instance_count(sagemaker, ENDPOINT, VARIANT) == {"status": "Updating", "current": 3, "desired": 3}
        stub.add_response("describe_endpoint", described(3), {"EndpointName": ENDPOINT})
        with pytest.raises(ValueError, match="no variant 'Other'"):
            instance_count(sagemaker, ENDPOINT, "Other")


def test_a_trace_is_followed_by_that_many_sessions(monkeypatch: Any, tmp_path: Path) -> None:
    monkeypatch.setenv("KOKORO_ENGINE", "fake")
    traffic = TrafficModel(
        {"a": "Yes. Done."}, listen=Gap.parse("fixed:0.1"), think=Gap.parse("fixed:0"), turns=Gap.parse("fixed:1")
    )
    polled: list[int] = []
    with open_measured() as opened:
        load = new_load(opened.target, traffic)
        samples = asyncio.run(follow_trace(load, [1, 3, 3, 0], 1.0, lambda: {"current": len(polled)}, poll_seconds=1))
        polled.append(1)
    assert [sample["sessions"] for sample in samples] == [1, 3, 3, 0]  # one poll a step, each with its demand
    assert load.sessions_started >= 3 and load.turns  # three slots ran at the peak
    rows = minute_figures(load, min(turn.started for turn in load.turns))  # a few seconds: all in minute 0
    assert rows and rows[0]["turns"] == len(load.turns) and rows[0]["errors"] == 0
    assert live_plot(samples, tmp_path, "steps").read_bytes()[:4] == b"\x89PNG"
