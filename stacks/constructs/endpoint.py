"""The SageMaker real-time endpoint: execution role, model, endpoint config, endpoint, invoke policy."""

from __future__ import annotations

from dataclasses import dataclass, field

import aws_cdk as cdk
from aws_cdk import aws_ecr as ecr
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_sagemaker as sagemaker
from constructs import Construct

from ..config import Settings
from ..instance_types import has_gpu, has_instance_storage
from .handler_provider import HandlerProvider
from .model_cache import grant_prefix
from .nag import acknowledge

VARIANT_NAME = "AllTraffic"
# sagemaker:InvokeEndpoint authorizes the POST and response-stream calls (the API reference says so);
# the bidirectional call is granted by its own action as AWS's streaming integrations grant it, even
# though cfn-lint's action list (W3037) does not know it yet.
INVOKE_ACTIONS = [
    "sagemaker:InvokeEndpoint",
    "sagemaker:InvokeEndpointWithResponseStream",
    "sagemaker:InvokeEndpointWithBidirectionalStream",
]
METRIC_NAMESPACES = ["/aws/sagemaker/Endpoints"]


def server_environment(endpoint_name: str, instance_type: str, container_env: dict[str, str]) -> dict[str, str]:
    """The speech server's environment on the endpoint. The endpoint name labels its EMF metrics. On a GPU
    instance type the server fails its start if the GPU does not start (KOKORO_DEVICE=cuda), rather than serve
    from the host's few vCPUs; container_env adds KOKORO_* settings (KOKORO_ALLOW_CPU_FALLBACK=1 to serve so)."""
    device = {"KOKORO_DEVICE": "cuda"} if has_gpu(instance_type) else {}
    return {"KOKORO_ENDPOINT_NAME": endpoint_name, **device, **container_env}


@dataclass(frozen=True)
class EndpointSettings:
    """What the model, endpoint config and endpoint need, and nothing else."""

    endpoint_name: str
    instance_type: str
    instance_count: int
    autoscaling: bool
    health_check_timeout_seconds: int
    model_download_timeout_seconds: int
    log_retention: logs.RetentionDays
    inference_ami: str | None = None
    container_env: dict[str, str] = field(default_factory=dict)
    keep_endpoint_logs: bool = False
    removal_policy: cdk.RemovalPolicy = cdk.RemovalPolicy.DESTROY

    @classmethod
    def of(cls, settings: Settings) -> EndpointSettings:
        return cls(
            endpoint_name=settings.endpoint_name,
            instance_type=settings.instance_type,
            instance_count=settings.instance_count,
            autoscaling=settings.autoscaling,
            health_check_timeout_seconds=settings.health_check_timeout_seconds,
            model_download_timeout_seconds=settings.model_download_timeout_seconds,
            log_retention=settings.log_retention,
            inference_ami=settings.inference_ami,
            container_env=dict(settings.container_env),
            keep_endpoint_logs=settings.keep_endpoint_logs,
            removal_policy=settings.removal_policy,
        )


class Endpoint(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        settings: EndpointSettings,
        image_uri: str,
        repository: ecr.IRepository,
        bucket: s3.IBucket,
        prefix: str,
    ) -> None:
        super().__init__(scope, id)
        self.role = iam.Role(
            self,
            "ExecutionRole",
            assumed_by=iam.ServicePrincipal("sagemaker.amazonaws.com"),
            description=f"SageMaker execution role of endpoint {settings.endpoint_name}",
        )
        repository.grant_pull(self.role)
        # Instance metrics (CPU, GPU, memory, disk) are published with the execution role.
        self.role.add_to_policy(
            iam.PolicyStatement(
                actions=["cloudwatch:PutMetricData"],
                resources=["*"],
                conditions={"StringEquals": {"cloudwatch:namespace": METRIC_NAMESPACES}},
            )
        )
        acknowledge(
            self.role,
            "AwsSolutions-IAM5[Resource::*]",
            "ecr:GetAuthorizationToken and cloudwatch:PutMetricData have no resource-level permissions; "
            "image pulls are limited to one repository and metrics to the endpoint namespace.",
        )
        grant_prefix(
            self.role,
            bucket,
            prefix,
            ["s3:GetObject"],
            "SageMaker reads the model files under the model's own prefix only; their names come from the manifest.",
        )
        # A log group left behind would make the next deployment of the same endpoint name fail
        # ("already exists"), so it goes with the stack unless keep_endpoint_logs asks otherwise.
        self.log_group = logs.LogGroup(
            self,
            "Logs",
            log_group_name=f"/aws/sagemaker/Endpoints/{settings.endpoint_name}",
            retention=settings.log_retention,
            removal_policy=cdk.RemovalPolicy.RETAIN if settings.keep_endpoint_logs else cdk.RemovalPolicy.DESTROY,
        )
        self.log_group.grant_write(self.role)
        self.log_group.grant(self.role, "logs:DescribeLogStreams")

        model = sagemaker.CfnModel(
            self,
            "Model",
            execution_role_arn=self.role.role_arn,
            # The container needs no network: SageMaker delivers the image and the model files.
            enable_network_isolation=True,
            primary_container=sagemaker.CfnModel.ContainerDefinitionProperty(
                image=image_uri,
                model_data_source=sagemaker.CfnModel.ModelDataSourceProperty(
                    s3_data_source=sagemaker.CfnModel.S3DataSourceProperty(
                        s3_uri=f"s3://{bucket.bucket_name}/{prefix}",
                        s3_data_type="S3Prefix",
                        compression_type="None",
                    )
                ),
                environment=server_environment(settings.endpoint_name, settings.instance_type, settings.container_env),
            ),
        )
        # The role's policy must exist before SageMaker validates access to the image and data.
        model.node.add_dependency(self.role.node.find_child("DefaultPolicy"))
        acknowledge(
            model,
            "AwsSolutions-SM1",
            "The model runs with network isolation: the container has no network access at all, so a VPC adds nothing.",
        )

        variant = sagemaker.CfnEndpointConfig.ProductionVariantProperty(
            variant_name=VARIANT_NAME,
            model_name=model.attr_model_name,
            instance_type=settings.instance_type,
            initial_instance_count=settings.instance_count,
            container_startup_health_check_timeout_in_seconds=settings.health_check_timeout_seconds,
            model_data_download_timeout_in_seconds=settings.model_download_timeout_seconds,
            routing_config=sagemaker.CfnEndpointConfig.RoutingConfigProperty(
                routing_strategy="LEAST_OUTSTANDING_REQUESTS"
            ),
            # GPU hosts: an NVIDIA driver that runs the image's CUDA 12 libraries (see instance_types).
            inference_ami_version=settings.inference_ami,
        )
        local_storage = has_instance_storage(settings.instance_type)
        volume_key = (
            None
            if local_storage
            else kms.Key(
                self,
                "VolumeKey",
                enable_key_rotation=True,
                description=f"Storage volumes of endpoint {settings.endpoint_name}",
                removal_policy=settings.removal_policy,
            )
        )
        config = sagemaker.CfnEndpointConfig(
            self,
            "Config",
            production_variants=[variant],
            kms_key_id=volume_key.key_arn if volume_key else None,
        )
        if local_storage:
            acknowledge(
                config,
                "AwsSolutions-SM2",
                f"{settings.instance_type} stores data on local instance NVMe volumes, which are always encrypted "
                "at rest and for which SageMaker rejects a KMS key.",
            )
        self.endpoint = sagemaker.CfnEndpoint(
            self,
            "Endpoint",
            endpoint_name=settings.endpoint_name,
            endpoint_config_name=config.attr_endpoint_config_name,
            # With autoscaling, a deploy keeps the instance count scaling has set instead of resetting
            # it to the config's initial count (the instance type and model still change).
            retain_all_variant_properties=True if settings.autoscaling else None,
        )
        # Deleted after the endpoint: SageMaker may write until the endpoint is gone.
        self.endpoint.node.add_dependency(self.log_group)
        self.endpoint.node.add_dependency(self._guard(settings))
        self.invoke_policy = iam.ManagedPolicy(
            self,
            "InvokePolicy",
            description=f"Invoke SageMaker endpoint {settings.endpoint_name}: POST, response stream, bidi stream",
            statements=[iam.PolicyStatement(actions=INVOKE_ACTIONS, resources=[self.endpoint.attr_endpoint_arn])],
        )
        policy = self.invoke_policy.node.default_child
        assert isinstance(policy, cdk.CfnResource)
        policy.add_metadata(
            "cfn-lint", {"config": {"ignore_checks": ["W3037"]}}
        )  # InvokeEndpointWithBidirectionalStream: see INVOKE_ACTIONS

    def _guard(self, settings: EndpointSettings) -> cdk.CustomResource:
        """Stops, before the endpoint is updated, an instance type change SageMaker refuses under autoscaling."""
        provider = HandlerProvider(
            self,
            "Guard",
            handler="handlers.endpoint_guard.on_event",
            description=f"Checks updates of endpoint {settings.endpoint_name} before SageMaker sees them",
            timeout=cdk.Duration.minutes(1),
            memory_size=128,
            log_retention=settings.log_retention,
        )
        return cdk.CustomResource(
            self,
            "UpdateCheck",
            service_token=provider.service_token,
            resource_type="Custom::KokoroEndpointGuard",
            properties={
                "EndpointName": settings.endpoint_name,
                "InstanceType": settings.instance_type,
                "Autoscaling": "true" if settings.autoscaling else "false",
            },
        )
