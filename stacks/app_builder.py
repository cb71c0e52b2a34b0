"""Assemble the CDK app from validated settings: both stacks and the cdk-nag checks."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import Validations
from cdk_nag import AwsSolutionsChecks

from .config import Settings
from .endpoint_stack import EndpointStack
from .model_cache_stack import ModelCacheStack


def build_app(
    app: cdk.App, settings: Settings, env: cdk.Environment | None = None
) -> tuple[ModelCacheStack, EndpointStack]:
    cache = ModelCacheStack(app, "KokoroModelCache", settings=settings, env=env)
    endpoint = EndpointStack(app, "KokoroEndpoint", settings=settings, cache=cache, env=env)
    Validations.of(app).add_plugins(AwsSolutionsChecks(app))
    return cache, endpoint
