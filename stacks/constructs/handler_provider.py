"""A custom-resource provider running one of the project's handlers.

Each provider gets its own role, granted only what its handler needs by the caller, and
log groups with a set retention, so no managed policy and no log group lives forever.
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import custom_resources as cr
from constructs import Construct

from .handler_code import RUNTIME, handler_code
from .nag import acknowledge_wildcard_resource

# The provider framework's onEvent function waits for the handler within its own 15-minute limit.
# A handler allowed as long would be cut off with the framework, and CloudFormation would wait an
# hour for an answer nobody sends; a minute's margin lets the framework report the failure.
FRAMEWORK_TIMEOUT = cdk.Duration.minutes(15)
ANSWER_MARGIN = cdk.Duration.minutes(1)


class HandlerProvider(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        handler: str,
        description: str,
        timeout: cdk.Duration,
        memory_size: int,
        log_retention: logs.RetentionDays,
    ) -> None:
        super().__init__(scope, id)
        if timeout.to_seconds() > FRAMEWORK_TIMEOUT.to_seconds() - ANSWER_MARGIN.to_seconds():
            raise ValueError(
                f"handler {handler} may run {timeout.to_seconds()} s, but the provider framework waits at most "
                f"{FRAMEWORK_TIMEOUT.to_seconds()} s and needs {ANSWER_MARGIN.to_seconds()} s to answer CloudFormation"
            )
        self.role = iam.Role(
            self, "Role", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"), description=description
        )
        log_group = logs.LogGroup(self, "Logs", retention=log_retention, removal_policy=cdk.RemovalPolicy.DESTROY)
        log_group.grant_write(self.role)
        self.function = lambda_.Function(
            self,
            "Function",
            runtime=RUNTIME,
            architecture=lambda_.Architecture.ARM_64,
            handler=handler,
            code=handler_code(),
            description=description,
            timeout=timeout,
            memory_size=memory_size,
            role=self.role,
            log_group=log_group,
        )
        framework_role = iam.Role(
            self,
            "FrameworkRole",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"Provider framework: {description}",
        )
        framework_logs = logs.LogGroup(
            self, "FrameworkLogs", retention=log_retention, removal_policy=cdk.RemovalPolicy.DESTROY
        )
        framework_logs.grant_write(framework_role)
        provider = cr.Provider(
            self,
            "Provider",
            on_event_handler=self.function,
            framework_on_event_role=framework_role,
            log_group=framework_logs,
        )
        self.service_token = provider.service_token
        acknowledge_wildcard_resource(
            framework_role,
            f"{self.function.function_arn}:*",
            "The provider framework may invoke every version of its own handler function, and only that function.",
        )
