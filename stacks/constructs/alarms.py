"""Alarms on the endpoint, each sending ALARM and OK to one encrypted SNS topic (email optional)."""

from __future__ import annotations

from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct

from .. import instance_types
from ..config import Settings
from .endpoint_metrics import EndpointMetrics
from .scaling_events import ScalingFailureEvents

FIVE_MINUTES = cdk.Duration.minutes(5)
AT_MAX_MINUTES = 15  # long enough that a burst scaling stops short of does not page anyone


@dataclass(frozen=True)
class AlarmSettings:
    """What the alarms need, and nothing else."""

    endpoint_name: str
    instance_type: str
    min_instances: int
    errors_5xx_per_5_minutes: int
    model_latency_p95_ms: int
    ttfa_p95_ms: int
    cpu_percent: int
    gpu_percent: int
    email: str | None = None
    cpu_by_choice: bool = False  # KOKORO_DEVICE=cpu in container_env: a GPU type told to serve from its CPU
    removal_policy: cdk.RemovalPolicy = cdk.RemovalPolicy.DESTROY
    max_instances: int | None = None  # set when autoscaling is on: the scaling alarms watch it

    @classmethod
    def of(cls, settings: Settings) -> AlarmSettings:
        return cls(
            endpoint_name=settings.endpoint_name,
            instance_type=settings.instance_type,
            min_instances=settings.min_instances,
            errors_5xx_per_5_minutes=settings.alarm_5xx_errors_per_5_minutes,
            model_latency_p95_ms=settings.alarm_model_latency_p95_ms,
            ttfa_p95_ms=settings.alarm_ttfa_p95_ms,
            cpu_percent=settings.alarm_cpu_percent,
            gpu_percent=settings.alarm_gpu_percent,
            email=settings.alarm_email,
            cpu_by_choice=settings.container_env.get("KOKORO_DEVICE") == "cpu",
            removal_policy=settings.removal_policy,
            max_instances=settings.max_instances if settings.autoscaling else None,
        )


class EndpointAlarms(Construct):
    def __init__(
        self, scope: Construct, id: str, *, settings: AlarmSettings, endpoint_metrics: EndpointMetrics
    ) -> None:
        super().__init__(scope, id)
        name = settings.endpoint_name
        self._endpoint_name = name
        self.topic_key, self.topic = self._topic(name, settings.email, settings.removal_policy)
        # CloudWatch publishes the alarms; it needs the topic's key and, from this account only, the topic.
        self._allow_publishing(iam.ServicePrincipal("cloudwatch.amazonaws.com"))
        m = endpoint_metrics
        above = cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD
        self.alarms: dict[str, cw.Alarm] = {}
        self._add(
            "Errors5xx",
            f"{name}: {settings.errors_5xx_per_5_minutes}+ invocations failed with 5XX in 5 minutes",
            m.errors("5XX", FIVE_MINUTES),
            settings.errors_5xx_per_5_minutes,
            above,
            evaluation_periods=1,
        )
        self._add(
            "ModelLatencyP95",
            f"{name}: model latency p95 over {settings.model_latency_p95_ms} ms for 3 of 5 minutes",
            m.model_latency("p95"),
            settings.model_latency_p95_ms * 1000,  # SageMaker reports microseconds
            above,
        )
        self._add(
            "TimeToFirstAudioP95",
            f"{name}: server time to first audio p95 over {settings.ttfa_p95_ms} ms for 3 of 5 minutes",
            m.time_to_first_audio("p95"),
            settings.ttfa_p95_ms,
            above,
        )
        self._add(
            "CpuUtilization",
            f"{name}: CPU over {settings.cpu_percent} % of all vCPUs for 3 of 5 minutes",
            m.cpu_percent(),
            settings.cpu_percent,
            above,
        )
        if instance_types.has_gpu(settings.instance_type):
            self._add(
                "GpuUtilization",
                f"{name}: GPU over {settings.gpu_percent} % for 3 of 5 minutes",
                m.gpu_percent(),
                settings.gpu_percent,
                above,
            )
        if instance_types.has_gpu(settings.instance_type) and not settings.cpu_by_choice:
            self._add(
                "ServingOnCpu",
                f"{name}: a speech server on this GPU instance type runs on the CPU (its CUDA provider did not "
                "start, and KOKORO_ALLOW_CPU_FALLBACK let it serve): its model_loaded log event says why",
                m.on_gpu(),
                1,
                cw.ComparisonOperator.LESS_THAN_THRESHOLD,
                evaluation_periods=1,
            )
        self._add(
            "InstanceHealth",
            f"{name}: fewer than {settings.min_instances} ready speech server(s) for 3 of 5 minutes "
            "(no load samples: crashed, stuck loading the model, or the endpoint is down)",
            m.ready_instances(),
            settings.min_instances - 0.5,  # load samples jitter around the minute boundary
            cw.ComparisonOperator.LESS_THAN_THRESHOLD,
            missing=cw.TreatMissingData.BREACHING,
        )
        if settings.max_instances is not None:
            self._scaling_alarms(name, settings.max_instances, m)

    def _scaling_alarms(self, name: str, max_instances: int, m: EndpointMetrics) -> None:
        """Scaling that failed, and scaling that has nowhere left to go."""
        # The rules' topic targets grant EventBridge the topic and its key.
        self.scaling_events = ScalingFailureEvents(self, "ScalingFailures", endpoint_name=name, topic=self.topic)
        self._add(
            "ScalingFailed",
            f"{name}: a scaling activity failed in the last 5 minutes (refused, e.g. by the instance quota, or "
            "rolled back); the topic also receives SageMaker's reason",
            self.scaling_events.matched(FIVE_MINUTES),
            1,
            cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            evaluation_periods=1,
        )
        self._add(
            "AtMaxCapacity",
            f"{name}: all {max_instances} instances (max_instances) ready for {AT_MAX_MINUTES} minutes: scaling "
            "cannot add more; raise max_instances (check the instance quota first) or plan capacity again",
            m.ready_instances(),
            max_instances - 0.5,  # load samples jitter around the minute boundary
            cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            evaluation_periods=AT_MAX_MINUTES,
            datapoints=AT_MAX_MINUTES,
        )

    def _topic(
        self, endpoint_name: str, email: str | None, removal_policy: cdk.RemovalPolicy
    ) -> tuple[kms.Key, sns.Topic]:
        key = kms.Key(
            self,
            "TopicKey",
            enable_key_rotation=True,
            description=f"Alarm notifications of endpoint {endpoint_name}",
            removal_policy=removal_policy,
        )
        topic = sns.Topic(self, "Topic", display_name=f"{endpoint_name} alarms", master_key=key, enforce_ssl=True)
        if email:
            topic.add_subscription(subscriptions.EmailSubscription(email))
        return key, topic

    def _allow_publishing(self, service: iam.ServicePrincipal) -> None:
        """``service``, acting for this account only, may use the topic's key and publish to the topic."""
        account = cdk.Stack.of(self).account
        self.topic_key.add_to_resource_policy(
            iam.PolicyStatement(
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                principals=[service],
                resources=["*"],  # in a key policy, "*" is this key
                conditions={"StringEquals": {"aws:SourceAccount": account}},
            )
        )
        self.topic.add_to_resource_policy(
            iam.PolicyStatement(
                actions=["sns:Publish"],
                principals=[service],
                resources=[self.topic.topic_arn],
                conditions={"StringEquals": {"aws:SourceAccount": account}},
            )
        )

    def _add(
        self,
        id: str,
        description: str,
        metric: cw.IMetric,
        threshold: float,
        comparison: cw.ComparisonOperator,
        *,
        evaluation_periods: int = 5,
        datapoints: int = 3,
        missing: cw.TreatMissingData = cw.TreatMissingData.NOT_BREACHING,
    ) -> None:
        alarm = cw.Alarm(
            self,
            id,
            alarm_name=f"{self._endpoint_name}-{id}",
            alarm_description=description,
            metric=metric,
            threshold=threshold,
            comparison_operator=comparison,
            evaluation_periods=evaluation_periods,
            datapoints_to_alarm=min(datapoints, evaluation_periods),
            treat_missing_data=missing,
        )
        action = cw_actions.SnsAction(self.topic)
        alarm.add_alarm_action(action)
        alarm.add_ok_action(action)
        self.alarms[id] = alarm
