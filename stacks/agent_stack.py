"""Stack 3 (optional, ``-c agent=true``): the voice agent on Amazon Bedrock AgentCore Runtime.

The agent's role may invoke only the configured Bedrock model and only this project's speech
endpoint (the endpoint stack's invoke policy), pull only its own image, and write only its logs.
"""

from __future__ import annotations

import re

import aws_cdk as cdk
from aws_cdk import aws_bedrockagentcore as agentcore
from aws_cdk import aws_ecr_assets as ecr_assets
from aws_cdk import aws_iam as iam
from constructs import Construct

from .config import Settings
from .constructs.nag import acknowledge_wildcard_resource
from .endpoint_stack import EndpointStack
from .image_context import image_from_root

# The image needs three packages of the repository and the agent's pinned requirements; nothing else.
IMAGE_COPIES = ["agent/requirements.txt", "agent/kokoro_agent", "client/kokoro_stream", "core/kokoro_core"]
# Cross-region inference profiles are model ids with a geography in front.
PROFILE_PREFIXES = ("us.", "eu.", "apac.", "jp.", "au.", "ca.", "us-gov.", "global.")
ENDPOINT_NAME = "live"


def runtime_name(endpoint_name: str) -> str:
    """AgentCore runtime names are letters, digits and underscores, starting with a letter, at most 48."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", f"{endpoint_name}_agent")
    if not name[0].isalpha():  # endpoint names may start with a digit
        name = f"agent_{name}"
    return name[:48]


def model_statements(model_id: str, stack: cdk.Stack) -> list[iam.PolicyStatement]:
    """Invoke exactly the configured model: a foundation model, or an inference profile and the models behind it."""
    actions = ["bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"]
    partition, region, account = stack.partition, stack.region, stack.account
    if not model_id.startswith(PROFILE_PREFIXES):
        return [
            iam.PolicyStatement(
                actions=actions, resources=[f"arn:{partition}:bedrock:{region}::foundation-model/{model_id}"]
            )
        ]
    profile = f"arn:{partition}:bedrock:{region}:{account}:inference-profile/{model_id}"
    base_model = model_id.split(".", 1)[1]
    return [
        iam.PolicyStatement(actions=actions, resources=[profile]),
        # The profile routes to the same model in the regions of its geography, and only through it.
        iam.PolicyStatement(
            actions=actions,
            resources=[f"arn:{partition}:bedrock:*::foundation-model/{base_model}"],
            conditions={"StringEquals": {"bedrock:InferenceProfileArn": profile}},
        ),
    ]


class AgentStack(cdk.Stack):
    def __init__(self, scope: Construct, id: str, *, settings: Settings, endpoint: EndpointStack, **kwargs) -> None:
        super().__init__(
            scope, id, description=f"Voice agent speaking through endpoint {settings.endpoint_name}", **kwargs
        )
        assert settings.agent_model_id is not None  # validated with the settings
        image = image_from_root(
            self,
            "Image",
            dockerfile="agent/Dockerfile",
            copies=IMAGE_COPIES,
            platform=ecr_assets.Platform.LINUX_ARM64,  # AgentCore Runtime runs arm64 containers
        )
        self.role = iam.Role(
            self,
            "Role",
            assumed_by=iam.ServicePrincipal(
                "bedrock-agentcore.amazonaws.com",
                conditions={
                    "StringEquals": {"aws:SourceAccount": self.account},
                    "ArnLike": {
                        "aws:SourceArn": f"arn:{self.partition}:bedrock-agentcore:{self.region}:{self.account}:*"
                    },
                },
            ),
            description=f"AgentCore Runtime role of the voice agent of endpoint {settings.endpoint_name}",
        )
        for statement in model_statements(settings.agent_model_id, self):
            self.role.add_to_policy(statement)
            for resource in statement.resources:
                if "*" in resource:
                    acknowledge_wildcard_resource(
                        self.role,
                        resource,
                        "An inference profile sends each request to its one model in a region of its geography; "
                        "the statement allows that model only through that profile (bedrock:InferenceProfileArn).",
                    )
        self.role.add_managed_policy(endpoint.endpoint.invoke_policy)
        image.repository.grant_pull(self.role)
        acknowledge_wildcard_resource(
            self.role,
            "*",
            "ecr:GetAuthorizationToken has no resource-level permissions; pulls are limited to one repository.",
        )
        log_groups = (
            f"arn:{self.partition}:logs:{self.region}:{self.account}:log-group:/aws/bedrock-agentcore/runtimes/*"
        )
        log_streams = f"{log_groups}:log-stream:*"
        self.role.add_to_policy(
            iam.PolicyStatement(
                actions=["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"],
                resources=[log_groups, log_streams],
            )
        )
        for resource in (log_groups, log_streams):
            acknowledge_wildcard_resource(
                self.role,
                resource,
                "AgentCore names the runtime's log group after the runtime id, which exists only once the runtime "
                "does; the role writes runtime logs only.",
            )
        self._add_runtime_permissions(runtime_name(settings.endpoint_name))
        self.runtime = agentcore.CfnRuntime(
            self,
            "Runtime",
            agent_runtime_name=runtime_name(settings.endpoint_name),
            description="Voice agent: speaks its answer through the Kokoro endpoint while writing it",
            agent_runtime_artifact=agentcore.CfnRuntime.AgentRuntimeArtifactProperty(
                container_configuration=agentcore.CfnRuntime.ContainerConfigurationProperty(
                    container_uri=image.image_uri
                )
            ),
            network_configuration=agentcore.CfnRuntime.NetworkConfigurationProperty(network_mode="PUBLIC"),
            protocol_configuration="HTTP",
            role_arn=self.role.role_arn,
            environment_variables={
                "KOKORO_AGENT_MODEL_ID": settings.agent_model_id,
                "KOKORO_AGENT_TTS_ENDPOINT": settings.endpoint_name,
                "KOKORO_AGENT_REGION": self.region,
            },
        )
        # The runtime checks the role when it is created: its policies must exist first.
        self.runtime.node.add_dependency(self.role.node.find_child("DefaultPolicy"))
        self.endpoint = agentcore.CfnRuntimeEndpoint(
            self,
            "Endpoint",
            agent_runtime_id=self.runtime.attr_agent_runtime_id,
            name=ENDPOINT_NAME,
            description="The endpoint callers invoke (qualifier)",
        )
        outputs = {
            "AgentRuntimeArn": (
                self.runtime.attr_agent_runtime_arn,
                "AgentCore runtime ARN (kokoro-agent ask --runtime-arn)",
            ),
            "AgentEndpointName": (self.endpoint.name, "Runtime endpoint to invoke (kokoro-agent ask --qualifier)"),
        }
        for name, (value, description) in outputs.items():
            cdk.CfnOutput(self, name, value=value, description=description)

    def _add_runtime_permissions(self, name: str) -> None:
        """What AWS documents for a runtime's execution role, each scoped as tightly as the service allows."""
        arn = f"arn:{self.partition}"
        statements = {
            # Traces and the runtime's telemetry: X-Ray has no resource-level permissions.
            "xray": iam.PolicyStatement(
                actions=[
                    "xray:PutTraceSegments",
                    "xray:PutTelemetryRecords",
                    "xray:GetSamplingRules",
                    "xray:GetSamplingTargets",
                ],
                resources=["*"],
            ),
            "metrics": iam.PolicyStatement(
                actions=["cloudwatch:PutMetricData"],
                resources=["*"],
                conditions={"StringEquals": {"cloudwatch:namespace": "bedrock-agentcore"}},
            ),
            "log groups": iam.PolicyStatement(
                actions=["logs:DescribeLogGroups"],
                resources=[f"{arn}:logs:{self.region}:{self.account}:log-group:*"],
            ),
            # The runtime's own workload identity: tokens for this runtime only, and none for arbitrary
            # user ids (AWS advises against GetWorkloadAccessTokenForUserId where callers bring JWTs).
            "workload identity": iam.PolicyStatement(
                actions=["bedrock-agentcore:GetWorkloadAccessToken", "bedrock-agentcore:GetWorkloadAccessTokenForJWT"],
                resources=[
                    f"{arn}:bedrock-agentcore:{self.region}:{self.account}:workload-identity-directory/default",
                    f"{arn}:bedrock-agentcore:{self.region}:{self.account}:workload-identity-directory/default"
                    f"/workload-identity/{name}-*",
                ],
            ),
        }
        reasons = {
            "*": "X-Ray and cloudwatch:PutMetricData have no resource-level permissions; metrics are limited to the "
            "bedrock-agentcore namespace.",
            f"{arn}:logs:{self.region}:{self.account}:log-group:*": "logs:DescribeLogGroups lists log groups; it "
            "cannot be scoped to one, and it reads nothing in them.",
            statements["workload identity"].resources[1]: "AgentCore names the runtime's workload identity after "
            "the runtime with a suffix it chooses; the statement covers this runtime's identity only.",
        }
        for statement in statements.values():
            self.role.add_to_policy(statement)
        for resource, reason in reasons.items():
            acknowledge_wildcard_resource(self.role, resource, reason)
