"""Failed scaling, as the services report it: EventBridge rules that send the reason to the alarm topic.

Application Auto Scaling itself sends EventBridge only "scaled to max" events, not failures. A failure
shows in SageMaker's events instead, in one of two ways:

- the scale call is refused (a ResourceLimitExceeded instance quota, throttling, the endpoint busy
  updating): CloudTrail's event for ``UpdateEndpointWeightsAndCapacities`` with an ``errorCode``;
- the call is accepted but the instances cannot be brought up (no capacity, a failing container): the
  endpoint goes through ``RollingBack`` (or ends ``Failed``/``UpdateRollbackFailed``), in SageMaker's
  endpoint state change events.
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_sns as sns
from constructs import Construct

# Endpoint states of a scale (or update) that did not take. SageMaker's API spells them in CamelCase; its
# event examples spell them in upper snake case: an event pattern matches exactly, so both are listed.
FAILED_STATES = {"RollingBack": "ROLLING_BACK", "Failed": "FAILED", "UpdateRollbackFailed": "UPDATE_ROLLBACK_FAILED"}
SCALE_CALL = "UpdateEndpointWeightsAndCapacities"


class ScalingFailureEvents(Construct):
    """Two rules on the default event bus, for one endpoint, each sending a readable line to ``topic``."""

    def __init__(self, scope: Construct, id: str, *, endpoint_name: str, topic: sns.ITopic) -> None:
        super().__init__(scope, id)
        field = events.EventField.from_path
        self.refused = events.Rule(
            self,
            "Refused",
            description=f"{endpoint_name}: a call to scale the endpoint was refused",
            event_pattern=events.EventPattern(
                source=["aws.sagemaker"],
                detail_type=["AWS API Call via CloudTrail"],
                detail={
                    "eventSource": ["sagemaker.amazonaws.com"],
                    "eventName": [SCALE_CALL],
                    "errorCode": events.Match.exists(),
                    "requestParameters": {"endpointName": [endpoint_name]},
                },
            ),
            targets=[
                targets.SnsTopic(
                    topic,
                    message=events.RuleTargetInput.from_text(
                        f"{endpoint_name}: scaling was refused: {SCALE_CALL} failed with "
                        f"{field('$.detail.errorCode')}: {field('$.detail.errorMessage')}"
                    ),
                )
            ],
        )
        self.rolled_back = events.Rule(
            self,
            "RolledBack",
            description=f"{endpoint_name}: the endpoint could not reach the instance count it was scaled to",
            event_pattern=events.EventPattern(
                source=["aws.sagemaker"],
                detail_type=["SageMaker Endpoint State Change"],
                detail={
                    "EndpointName": [endpoint_name],
                    "EndpointStatus": [spelling for pair in FAILED_STATES.items() for spelling in pair],
                },
            ),
            targets=[
                targets.SnsTopic(
                    topic,
                    message=events.RuleTargetInput.from_text(
                        f"{endpoint_name}: scaling failed: the endpoint is {field('$.detail.EndpointStatus')}: "
                        f"{field('$.detail.FailureReason')}"
                    ),
                )
            ],
        )

    def matched(self, period: cdk.Duration) -> cw.MathExpression:
        """Events either rule matched in ``period`` (EventBridge's own TriggeredRules, 0 when none)."""
        triggered = {
            name: cw.Metric(
                namespace="AWS/Events",
                metric_name="TriggeredRules",
                dimensions_map={"RuleName": rule.rule_name},
                statistic="Sum",
                period=period,
            )
            for name, rule in (("refused", self.refused), ("rolledback", self.rolled_back))
        }
        return cw.MathExpression(
            expression="FILL(refused, 0) + FILL(rolledback, 0)",
            using_metrics=triggered,
            label="failed scaling events",
            period=period,
        )
