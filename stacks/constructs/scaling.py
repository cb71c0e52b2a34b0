"""Application Auto Scaling of the variant's instance count: track concurrency, optionally step on queue depth.

Without a capacity profile, target tracking both adds and removes instances around the hand-set target.
With one, it tracks the profile's statistic and only adds; a separate step policy removes one instance at a
time once the metric has stayed below the profile's scale-in threshold for its evaluation minutes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aws_cdk as cdk
from aws_cdk import aws_applicationautoscaling as appscaling
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_iam as iam
from constructs import Construct

from ..config import Settings
from .endpoint_metrics import CONCURRENCY, EndpointMetrics

SERVICE_LINKED_ROLE = (
    "role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/"
    "AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint"
)


@dataclass(frozen=True)
class MeasuredPolicy:
    """A capacity profile's policy: the statistic the target is on, and when to remove an instance."""

    statistic: str
    scale_in_threshold: float
    scale_in_evaluation_minutes: int


@dataclass(frozen=True)
class ScalingSettings:
    """What the scaling policies need, and nothing else."""

    min_instances: int
    max_instances: int
    target_concurrency: float
    high_resolution: bool
    scale_out_cooldown_seconds: int
    scale_in_cooldown_seconds: int
    queue_depth_scale_out: float | None = None
    measured: MeasuredPolicy | None = None  # from a capacity profile; None: the hand-set target alone

    @classmethod
    def of(cls, settings: Settings) -> ScalingSettings:
        policy = settings.profile.profile.policy if settings.profile else None
        return cls(
            min_instances=settings.min_instances,
            max_instances=settings.max_instances,
            target_concurrency=settings.scaling_target_concurrency,
            high_resolution=settings.scaling_high_resolution,
            scale_out_cooldown_seconds=settings.scale_out_cooldown_seconds,
            scale_in_cooldown_seconds=settings.scale_in_cooldown_seconds,
            queue_depth_scale_out=settings.queue_depth_scale_out,
            measured=MeasuredPolicy(policy.statistic, policy.scale_in_threshold, policy.scale_in_evaluation_minutes)
            if policy
            else None,
        )


class EndpointScaling(Construct):
    """Only created when max_instances > min_instances."""

    def __init__(
        self, scope: Construct, id: str, *, settings: ScalingSettings, endpoint_metrics: EndpointMetrics
    ) -> None:
        super().__init__(scope, id)
        stack = cdk.Stack.of(self)
        self.target = appscaling.ScalableTarget(
            self,
            "Target",
            service_namespace=appscaling.ServiceNamespace.SAGEMAKER,
            resource_id=f"endpoint/{endpoint_metrics.endpoint_name}/variant/{endpoint_metrics.variant_name}",
            scalable_dimension="sagemaker:variant:DesiredInstanceCount",
            min_capacity=settings.min_instances,
            max_capacity=settings.max_instances,
            # Naming the service-linked role lets Application Auto Scaling create it on first use.
            role=iam.Role.from_role_arn(
                self, "ServiceLinkedRole", stack.format_arn(service="iam", region="", resource=SERVICE_LINKED_ROLE)
            ),
        )
        measured = settings.measured
        # Requests in flight, not invocations per minute: a bidi session is one long request.
        if measured is not None:
            # The profile's target is on a statistic, which only a customized metric can name. Both of the
            # profile's metric names are SageMaker's ConcurrentRequestsPerModel, published every 10 seconds.
            tracked: dict[str, Any] = {"custom_metric": endpoint_metrics.concurrency(measured.statistic)}
        elif settings.high_resolution:
            tracked = {
                "predefined_metric": (
                    appscaling.PredefinedMetric.SAGEMAKER_VARIANT_CONCURRENT_REQUESTS_PER_MODEL_HIGH_RESOLUTION
                )
            }
        else:
            tracked = {"custom_metric": endpoint_metrics.concurrency()}
        self.concurrency_policy = self.target.scale_to_track_metric(
            "Concurrency",
            target_value=settings.target_concurrency,
            scale_out_cooldown=cdk.Duration.seconds(settings.scale_out_cooldown_seconds),
            scale_in_cooldown=cdk.Duration.seconds(settings.scale_in_cooldown_seconds),
            policy_name=f"{endpoint_metrics.endpoint_name}-{CONCURRENCY}",
            disable_scale_in=True if measured else None,
            **tracked,
        )
        self.scale_in_policy: appscaling.StepScalingPolicy | None = None
        if measured is not None:
            self.scale_in_policy = self._scale_in(settings, measured, endpoint_metrics)
        self.queue_policy: appscaling.StepScalingPolicy | None = None
        if settings.queue_depth_scale_out is not None:
            threshold = settings.queue_depth_scale_out
            # Scale-out only: scale-in stays with the slow, safe policies (target tracking, or a profile's step).
            self.queue_policy = self.target.scale_on_metric(
                "QueueDepth",
                metric=endpoint_metrics.queue_depth(),
                scaling_steps=[
                    appscaling.ScalingInterval(upper=threshold, change=0),
                    appscaling.ScalingInterval(lower=threshold, change=1),
                    appscaling.ScalingInterval(lower=3 * threshold, change=2),
                ],
                adjustment_type=appscaling.AdjustmentType.CHANGE_IN_CAPACITY,
                cooldown=cdk.Duration.seconds(settings.scale_out_cooldown_seconds),
                evaluation_periods=2,
                datapoints_to_alarm=2,
            )

    def _scale_in(
        self, settings: ScalingSettings, measured: MeasuredPolicy, endpoint_metrics: EndpointMetrics
    ) -> appscaling.StepScalingPolicy:
        """-1 instance when the tracked statistic stays below the threshold for the evaluation minutes."""
        minutes = measured.scale_in_evaluation_minutes
        return self.target.scale_on_metric(
            "ScaleIn",
            # No requests at all may publish no datapoint: an idle endpoint counts as 0, so it shrinks to min.
            metric=cw.MathExpression(
                expression="FILL(concurrency, 0)",
                using_metrics={"concurrency": endpoint_metrics.concurrency(measured.statistic)},
                label=f"concurrent requests per instance ({measured.statistic.lower()}, idle as 0)",
                period=cdk.Duration.minutes(1),
            ),
            scaling_steps=[
                appscaling.ScalingInterval(upper=measured.scale_in_threshold, change=-1),
                appscaling.ScalingInterval(lower=measured.scale_in_threshold, change=0),
            ],
            adjustment_type=appscaling.AdjustmentType.CHANGE_IN_CAPACITY,
            cooldown=cdk.Duration.seconds(settings.scale_in_cooldown_seconds),
            evaluation_periods=minutes,
            datapoints_to_alarm=minutes,
        )
