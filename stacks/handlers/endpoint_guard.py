"""Custom resource: refuse, before the endpoint is touched, an update SageMaker would refuse midway.

SageMaker cannot change the instance type of a variant that Application Auto Scaling manages: the
UpdateEndpoint call fails, after the new model and endpoint config exist, and CloudFormation rolls
back. CloudFormation deletes the old scalable target only after the endpoint update, so turning
scaling off in the same deployment does not help. The endpoint depends on this resource, so its
update runs first and stops the deployment at once with the two deployments that do work.

Standard library only: everything it needs is in the CloudFormation event.
"""

from __future__ import annotations

from typing import Any


class GuardError(RuntimeError):
    """The update cannot work as one deployment; the message says how to do it."""


def on_event(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    """Provider-framework entry point."""
    physical_id = event.get("PhysicalResourceId") or f"endpoint-guard-{event['ResourceProperties']['EndpointName']}"
    if event["RequestType"] == "Update":
        check_update(event["OldResourceProperties"], event["ResourceProperties"])
    return {"PhysicalResourceId": physical_id}


def check_update(old: dict[str, Any], new: dict[str, Any]) -> None:
    was_scaled = str(old.get("Autoscaling", "false")).lower() == "true"
    old_type, new_type = old.get("InstanceType"), new.get("InstanceType")
    if not was_scaled or old_type == new_type:
        return
    name = new["EndpointName"]
    raise GuardError(
        f"endpoint {name} cannot change from {old_type} to {new_type} while autoscaling manages it: SageMaker "
        "refuses an instance type change on a scaled variant. Deploy twice: first keep instance_type="
        f"{old_type} and set max_instances equal to min_instances (autoscaling off), then deploy instance_type="
        f"{new_type} with the max_instances you want."
    )
