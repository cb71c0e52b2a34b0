"""Assemble the CDK app from validated settings: the stacks and the cdk-nag checks."""

from __future__ import annotations

from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import Validations
from cdk_nag import AwsSolutionsChecks

from .agent_stack import AgentStack
from .config import Settings
from .endpoint_stack import EndpointStack
from .model_cache_stack import ModelCacheStack


@dataclass(frozen=True)
class Stacks:
    cache: ModelCacheStack
    endpoint: EndpointStack
    agent: AgentStack | None


def build_app(app: cdk.App, settings: Settings, env: cdk.Environment | None = None) -> Stacks:
    cache = ModelCacheStack(app, "KokoroModelCache", settings=settings, env=env)
    endpoint = EndpointStack(app, "KokoroEndpoint", settings=settings, cache=cache, env=env)
    agent = AgentStack(app, "KokoroAgent", settings=settings, endpoint=endpoint, env=env) if settings.agent else None
    Validations.of(app).add_plugins(AwsSolutionsChecks(app))
    return Stacks(cache, endpoint, agent)
