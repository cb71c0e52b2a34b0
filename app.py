#!/usr/bin/env python3
"""CDK entry point: validated settings from cdk context, then the two stacks."""

import os
import sys

import aws_cdk as cdk

from stacks.app_builder import build_app
from stacks.config import SettingsError, settings_from_context

app = cdk.App()
try:
    settings = settings_from_context(app.node.get_all_context())
except SettingsError as error:
    sys.exit(f"error: {error}")
account, region = os.environ.get("CDK_DEFAULT_ACCOUNT"), os.environ.get("CDK_DEFAULT_REGION")
build_app(app, settings, env=cdk.Environment(account=account, region=region) if account and region else None)
app.synth()
