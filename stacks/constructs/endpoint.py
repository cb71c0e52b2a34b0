"""The SageMaker real-time endpoint: execution role, model, endpoint config, endpoint, invoke policy."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_ecr as ecr
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_sagemaker as sagemaker
from constructs import Construct

from ..config import Settings
from ..instance_types import has_instance_storage
from .model_cache import grant_prefix
from .nag import acknowledge

VARIANT_NAME = "AllTraffic"
INVOKE_ACTIONS = [
    "sagemaker:InvokeEndpoint",
    "sagemaker:InvokeEndpointWithResponseStream",
    "sagemaker:InvokeEndpointWithBidirectionalStream",
]
METRIC_NAMESPACES = ["/aws/sagemaker/Endpoints"]


class Endpoint(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        settings: Settings,
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
        self.log_group = logs.LogGroup(
            self,
            "Logs",
            log_group_name=f"/aws/sagemaker/Endpoints/{settings.endpoint_name}",
            retention=settings.log_retention,
            removal_policy=cdk.RemovalPolicy.RETAIN,
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
                # The endpoint name labels the server's EMF metrics; container_env may add KOKORO_* settings.
                environment={"KOKORO_ENDPOINT_NAME": settings.endpoint_name, **settings.container_env},
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
        self.invoke_policy = iam.ManagedPolicy(
            self,
            "InvokePolicy",
            description=f"Invoke SageMaker endpoint {settings.endpoint_name}: POST, response stream, bidi stream",
            statements=[iam.PolicyStatement(actions=INVOKE_ACTIONS, resources=[self.endpoint.attr_endpoint_arn])],
        )
