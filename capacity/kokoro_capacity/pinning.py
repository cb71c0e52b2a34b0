"""One instance, and no scaling, for as long as a live measurement runs; everything put back exactly after.

Application Auto Scaling's scalable target (min, max, suspended state) and the variant's desired instance
count are read first, then set to 1/1/suspended and 1; on leaving, even on an exception, Ctrl-C or SIGTERM
(turned into KeyboardInterrupt while pinned), both are restored as read. A restore that fails for one of
them still restores the other, and then raises.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

SCALABLE_DIMENSION = "sagemaker:variant:DesiredInstanceCount"
SUSPENDED = {"DynamicScalingInSuspended": True, "DynamicScalingOutSuspended": True, "ScheduledScalingSuspended": True}
NOT_SUSPENDED = {key: False for key in SUSPENDED}


def resource_id(endpoint: str, variant: str) -> str:
    return f"endpoint/{endpoint}/variant/{variant}"


class PinnedToOneInstance:
    """``with PinnedToOneInstance(...):`` — one instance, scaling suspended; restored on exit."""

    def __init__(
        self,
        endpoint: str,
        variant: str,
        autoscaling: Any,
        sagemaker: Any,
        sleep: Callable[[float], None] = time.sleep,
        settle_seconds: float = 1800.0,
    ) -> None:
        self.endpoint, self.variant = endpoint, variant
        self.autoscaling, self.sagemaker = autoscaling, sagemaker
        self.sleep, self.settle_seconds = sleep, settle_seconds
        self.saved_target: dict[str, Any] | None = None
        self.saved_count: int | None = None
        self._previous_handler: Any = None

    def __enter__(self) -> PinnedToOneInstance:
        found = self.autoscaling.describe_scalable_targets(
            ServiceNamespace="sagemaker",
            ResourceIds=[resource_id(self.endpoint, self.variant)],
            ScalableDimension=SCALABLE_DIMENSION,
        )["ScalableTargets"]
        self.saved_target = found[0] if found else None
        self.saved_count = self._desired_count()
        self._catch_sigterm()
        try:
            if self.saved_target is not None:
                self._register(1, 1, SUSPENDED)
            if self.saved_count != 1:
                self._set_count(1)
        except BaseException:
            self._restore()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._restore()

    def _restore(self) -> None:
        failures: list[BaseException] = []
        try:
            if self.saved_count is not None and self._desired_count() != self.saved_count:
                self._set_count(self.saved_count)
        except Exception as error:  # the scalable target is still put back below
            failures.append(error)
        try:
            if self.saved_target is not None:
                target = self.saved_target
                suspended = target.get("SuspendedState", NOT_SUSPENDED)
                self._register(target["MinCapacity"], target["MaxCapacity"], suspended)
        except Exception as error:
            failures.append(error)
        finally:
            self._release_sigterm()
        if failures:
            raise RuntimeError(
                f"restoring endpoint {self.endpoint}: {'; '.join(str(f) for f in failures)}; saved scalable target "
                f"{self.saved_target}, instance count {self.saved_count}: put them back by hand"
            ) from failures[0]

    def _register(self, minimum: int, maximum: int, suspended: dict[str, bool]) -> None:
        self.autoscaling.register_scalable_target(
            ServiceNamespace="sagemaker",
            ResourceId=resource_id(self.endpoint, self.variant),
            ScalableDimension=SCALABLE_DIMENSION,
            MinCapacity=minimum,
            MaxCapacity=maximum,
            SuspendedState=suspended,
        )

    def _desired_count(self) -> int:
        described = self.sagemaker.describe_endpoint(EndpointName=self.endpoint)
        for variant in described.get("ProductionVariants", []):
            if variant["VariantName"] == self.variant:
                return int(variant.get("DesiredInstanceCount", variant.get("CurrentInstanceCount", 0)))
        names = [variant["VariantName"] for variant in described.get("ProductionVariants", [])]
        raise ValueError(f"endpoint {self.endpoint} has no variant {self.variant!r}; it has {names}")

    def _set_count(self, count: int) -> None:
        self.sagemaker.update_endpoint_weights_and_capacities(
            EndpointName=self.endpoint,
            DesiredWeightsAndCapacities=[{"VariantName": self.variant, "DesiredInstanceCount": count}],
        )
        self._wait_in_service()

    def _wait_in_service(self) -> None:
        waited = 0.0
        while (status := self.sagemaker.describe_endpoint(EndpointName=self.endpoint)["EndpointStatus"]) != "InService":
            if status == "Failed" or waited >= self.settle_seconds:
                raise RuntimeError(f"endpoint {self.endpoint} is {status} after {waited:.0f} s, not InService")
            self.sleep(15)
            waited += 15

    def _catch_sigterm(self) -> None:
        if threading.current_thread() is threading.main_thread():
            self._previous_handler = signal.signal(signal.SIGTERM, _interrupt)

    def _release_sigterm(self) -> None:
        if self._previous_handler is not None:
            signal.signal(signal.SIGTERM, self._previous_handler)
            self._previous_handler = None


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")
