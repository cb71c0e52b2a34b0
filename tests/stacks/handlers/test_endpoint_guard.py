"""The endpoint guard stops an update SageMaker would refuse midway, and lets every other one through."""

from __future__ import annotations

import pytest

from stacks.handlers.endpoint_guard import GuardError, on_event

G5 = {"EndpointName": "kokoro-tts", "InstanceType": "ml.g5.xlarge", "Autoscaling": "true"}


def update(old: dict, new: dict) -> dict:
    return {
        "RequestType": "Update",
        "PhysicalResourceId": "endpoint-guard-kokoro-tts",
        "OldResourceProperties": old,
        "ResourceProperties": new,
    }


def test_an_instance_type_change_under_autoscaling_stops_with_the_two_deployments_that_work() -> None:
    with pytest.raises(GuardError) as stopped:
        on_event(update(G5, {**G5, "InstanceType": "ml.g6.xlarge"}))
    message = str(stopped.value)
    assert "cannot change from ml.g5.xlarge to ml.g6.xlarge while autoscaling manages it" in message
    assert "first keep instance_type=ml.g5.xlarge and set max_instances equal to min_instances" in message
    assert "then deploy instance_type=ml.g6.xlarge" in message


def test_turning_scaling_off_in_the_same_deployment_does_not_help() -> None:
    # CloudFormation deregisters the old scalable target only after it has updated the endpoint.
    with pytest.raises(GuardError):
        on_event(update(G5, {**G5, "InstanceType": "ml.g6.xlarge", "Autoscaling": "false"}))


@pytest.mark.parametrize(
    "new",
    [
        G5,  # nothing changes
        {**G5, "Autoscaling": "false"},  # scaling off, same type
    ],
)
def test_updates_sagemaker_takes_pass(new: dict) -> None:
    assert on_event(update(G5, new)) == {"PhysicalResourceId": "endpoint-guard-kokoro-tts"}


def test_a_type_change_without_scaling_passes_even_when_scaling_comes_on() -> None:
    # The new scalable target is registered after the endpoint update: SageMaker takes it.
    unscaled = {**G5, "Autoscaling": "false"}
    assert on_event(update(unscaled, {**G5, "InstanceType": "ml.g6.xlarge"}))


@pytest.mark.parametrize("request_type", ["Create", "Delete"])
def test_create_and_delete_pass(request_type: str) -> None:
    event = {"RequestType": request_type, "ResourceProperties": G5}
    if request_type == "Delete":
        event["PhysicalResourceId"] = "endpoint-guard-kokoro-tts"
    assert on_event(event) == {"PhysicalResourceId": "endpoint-guard-kokoro-tts"}
