"""Pinning a live endpoint to one instance with scaling suspended, and putting both back exactly: on a
normal exit, after an exception, after Ctrl-C and after SIGTERM (botocore Stubber, no AWS)."""

from __future__ import annotations

import os
import signal
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from kokoro_capacity.pinning import NOT_SUSPENDED, SCALABLE_DIMENSION, SUSPENDED, PinnedToOneInstance

ENDPOINT, VARIANT = "kokoro-tts", "AllTraffic"
RESOURCE = f"endpoint/{ENDPOINT}/variant/{VARIANT}"
SAVED_SUSPENDED = {
    "DynamicScalingInSuspended": True,
    "DynamicScalingOutSuspended": False,
    "ScheduledScalingSuspended": False,
}


def clients() -> tuple[Any, Any, Stubber, Stubber]:
    autoscaling = boto3.client(
        "application-autoscaling", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )
    sagemaker = boto3.client("sagemaker", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b")
    return autoscaling, sagemaker, Stubber(autoscaling), Stubber(sagemaker)


def described(count: int, status: str = "InService") -> dict[str, Any]:
    return {
        "EndpointName": ENDPOINT,
        "EndpointArn": f"arn:aws:sagemaker:us-east-1:000000000000:endpoint/{ENDPOINT}",
        "EndpointConfigName": "config",
        "EndpointStatus": status,
        "CreationTime": "2026-12-01T00:00:00Z",
        "LastModifiedTime": "2026-12-01T00:00:00Z",
        "ProductionVariants": [{"VariantName": VARIANT, "CurrentInstanceCount": count, "DesiredInstanceCount": count}],
    }


def register(minimum: int, maximum: int, suspended: dict[str, bool]) -> dict[str, Any]:
    return {
        "ServiceNamespace": "sagemaker",
        "ResourceId": RESOURCE,
        "ScalableDimension": SCALABLE_DIMENSION,
        "MinCapacity": minimum,
        "MaxCapacity": maximum,
        "SuspendedState": suspended,
    }


def expect_pin(scaling: Stubber, sage: Stubber, count: int = 3) -> None:
    expect_suspend(scaling, sage, count)
    sage.add_response(
        "update_endpoint_weights_and_capacities",
        {"EndpointArn": "arn:aws:sagemaker:us-east-1:000000000000:endpoint/kokoro-tts"},
        {
            "EndpointName": ENDPOINT,
            "DesiredWeightsAndCapacities": [{"VariantName": VARIANT, "DesiredInstanceCount": 1}],
        },
    )
    sage.add_response("describe_endpoint", described(1, "Updating"), {"EndpointName": ENDPOINT})
    sage.add_response("describe_endpoint", described(1), {"EndpointName": ENDPOINT})


def expect_suspend(scaling: Stubber, sage: Stubber, count: int) -> None:
    """The scalable target and the count are read, then the target is set to 1/1, suspended."""
    scaling.add_response(
        "describe_scalable_targets",
        {
            "ScalableTargets": [
                {
                    **{key: value for key, value in register(2, 8, SAVED_SUSPENDED).items()},
                    "RoleARN": "arn:aws:iam::000000000000:role/scaling",
                    "CreationTime": "2026-12-01T00:00:00Z",
                }
            ]
        },
        {"ServiceNamespace": "sagemaker", "ResourceIds": [RESOURCE], "ScalableDimension": SCALABLE_DIMENSION},
    )
    sage.add_response("describe_endpoint", described(count), {"EndpointName": ENDPOINT})
    scaling.add_response("register_scalable_target", {}, register(1, 1, SUSPENDED))


def expect_restore(scaling: Stubber, sage: Stubber, count: int = 3) -> None:
    sage.add_response("describe_endpoint", described(1), {"EndpointName": ENDPOINT})
    sage.add_response(
        "update_endpoint_weights_and_capacities",
        {"EndpointArn": "arn:aws:sagemaker:us-east-1:000000000000:endpoint/kokoro-tts"},
        {
            "EndpointName": ENDPOINT,
            "DesiredWeightsAndCapacities": [{"VariantName": VARIANT, "DesiredInstanceCount": count}],
        },
    )
    sage.add_response("describe_endpoint", described(count), {"EndpointName": ENDPOINT})
    scaling.add_response("register_scalable_target", {}, register(2, 8, SAVED_SUSPENDED))


def pinned(autoscaling: Any, sagemaker: Any, slept: list[float]) -> PinnedToOneInstance:
    return PinnedToOneInstance(ENDPOINT, VARIANT, autoscaling, sagemaker, sleep=slept.append)


def test_pins_then_restores_exactly_what_it_read() -> None:
    autoscaling, sagemaker, scaling, sage = clients()
    expect_pin(scaling, sage)
    expect_restore(scaling, sage)
    slept: list[float] = []
    with scaling, sage, pinned(autoscaling, sagemaker, slept) as pin:
        assert pin.saved_count == 3 and pin.saved_target is not None
        assert pin.saved_target["SuspendedState"] == SAVED_SUSPENDED
    scaling.assert_no_pending_responses()
    sage.assert_no_pending_responses()
    assert slept == [15]  # waited once for the Updating endpoint to be InService


def test_restores_after_an_exception() -> None:
    autoscaling, sagemaker, scaling, sage = clients()
    expect_pin(scaling, sage)
    expect_restore(scaling, sage)
    with scaling, sage, pytest.raises(RuntimeError, match="measurement broke"):
        with pinned(autoscaling, sagemaker, []):
            raise RuntimeError("measurement broke")
    scaling.assert_no_pending_responses()
    sage.assert_no_pending_responses()


def test_restores_after_ctrl_c() -> None:
    autoscaling, sagemaker, scaling, sage = clients()
    expect_pin(scaling, sage)
    expect_restore(scaling, sage)
    with scaling, sage, pytest.raises(KeyboardInterrupt):
        with pinned(autoscaling, sagemaker, []):
            raise KeyboardInterrupt
    scaling.assert_no_pending_responses()
    sage.assert_no_pending_responses()


def test_sigterm_while_pinned_restores_and_the_handler_is_put_back() -> None:
    autoscaling, sagemaker, scaling, sage = clients()
    expect_pin(scaling, sage)
    expect_restore(scaling, sage)
    before = signal.getsignal(signal.SIGTERM)
    with scaling, sage, pytest.raises(KeyboardInterrupt, match="signal"):
        with pinned(autoscaling, sagemaker, []):
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs between bytecodes of the main thread
                pass
    assert signal.getsignal(signal.SIGTERM) == before
    scaling.assert_no_pending_responses()
    sage.assert_no_pending_responses()


def test_a_failure_while_pinning_still_restores_what_was_changed() -> None:
    autoscaling, sagemaker, scaling, sage = clients()
    expect_suspend(scaling, sage, 3)
    sage.add_client_error("update_endpoint_weights_and_capacities", "ValidationException", "endpoint is Updating")
    sage.add_response("describe_endpoint", described(3), {"EndpointName": ENDPOINT})  # restore: count unchanged
    scaling.add_response("register_scalable_target", {}, register(2, 8, SAVED_SUSPENDED))
    with scaling, sage, pytest.raises(Exception, match="endpoint is Updating"):
        with pinned(autoscaling, sagemaker, []):
            pytest.fail("the block must not run when pinning failed")
    scaling.assert_no_pending_responses()
    sage.assert_no_pending_responses()


def test_an_endpoint_without_scaling_is_pinned_by_its_count_alone() -> None:
    autoscaling, sagemaker, scaling, sage = clients()
    scaling.add_response("describe_scalable_targets", {"ScalableTargets": []})
    sage.add_response("describe_endpoint", described(1), {"EndpointName": ENDPOINT})
    sage.add_response("describe_endpoint", described(1), {"EndpointName": ENDPOINT})  # restore: still 1
    with scaling, sage, pinned(autoscaling, sagemaker, []) as pin:
        assert pin.saved_target is None and pin.saved_count == 1
    scaling.assert_no_pending_responses()
    sage.assert_no_pending_responses()


def test_a_restore_that_fails_says_what_to_put_back() -> None:
    autoscaling, sagemaker, scaling, sage = clients()
    expect_pin(scaling, sage)
    sage.add_response("describe_endpoint", described(1), {"EndpointName": ENDPOINT})
    sage.add_client_error("update_endpoint_weights_and_capacities", "ThrottlingException", "slow down")
    scaling.add_response("register_scalable_target", {}, register(2, 8, SAVED_SUSPENDED))  # still restored
    with scaling, sage, pytest.raises(RuntimeError, match="instance count 3: put them back by hand"):
        with pinned(autoscaling, sagemaker, []):
            pass
    scaling.assert_no_pending_responses()
    assert NOT_SUSPENDED == {key: False for key in SUSPENDED}
