"""Acknowledging cdk-nag findings: one helper, so every acknowledgment names its finding and reason."""

from __future__ import annotations

import json
from typing import Any

import aws_cdk as cdk
from aws_cdk import Validations
from constructs import IConstruct


def acknowledge(construct: IConstruct, finding: str, reason: str) -> None:
    Validations.of(construct).acknowledge(cdk.Acknowledgment(id=finding, reason=reason))


def acknowledge_wildcard_resource(construct: IConstruct, resource: str, reason: str) -> None:
    """Acknowledge AwsSolutions-IAM5 for exactly one wildcard resource, named as cdk-nag names it."""
    acknowledge(construct, f"AwsSolutions-IAM5[Resource::{flatten_reference(resource, construct)}]", reason)


def flatten_reference(value: Any, scope: IConstruct) -> str:
    """Render a token the way cdk-nag flattens CloudFormation references in finding ids."""

    def visit(node: Any) -> str:
        if node is None:
            return ""
        if isinstance(node, str):
            return node.replace("${", "<").replace("}", ">")
        if isinstance(node, dict) and "Fn::Join" in node:
            delimiter, items = node["Fn::Join"]
            return delimiter.join(visit(item) for item in items)
        if isinstance(node, dict) and "Fn::Sub" in node:
            return visit(node["Fn::Sub"])
        if isinstance(node, dict) and "Fn::GetAtt" in node:
            resource, attribute = node["Fn::GetAtt"]
            return f"<{visit(resource)}.{visit(attribute)}>"
        if isinstance(node, dict) and "Fn::ImportValue" in node:
            return visit(node["Fn::ImportValue"])
        if isinstance(node, dict) and "Ref" in node:
            return f"<{visit(node['Ref'])}>"
        return json.dumps(node, separators=(",", ":"))

    return visit(cdk.Stack.of(scope).resolve(value))
