"""The S3 model cache: a private, versioned bucket and the custom resource that fills it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from constructs import Construct

from ..config import ModelSource, Settings
from .handler_provider import FRAMEWORK_TIMEOUT, HandlerProvider
from .nag import acknowledge, acknowledge_wildcard_resource

# Well under the provider framework's own limit: a populator that runs out of time must still fail
# in time for the framework to tell CloudFormation, which otherwise waits an hour for an answer.
POPULATOR_TIMEOUT = FRAMEWORK_TIMEOUT.minus(cdk.Duration.minutes(2))


@dataclass(frozen=True)
class ModelCacheSettings:
    """What the bucket and its populator need, and nothing else."""

    prefix: str
    log_retention: logs.RetentionDays
    populate: bool
    model_source: ModelSource
    default_voice: str
    hub_endpoint: str
    hub_token_secret_arn: str | None = None
    bucket_removal_policy: Literal["retain", "destroy"] = "retain"
    removal_policy: cdk.RemovalPolicy = cdk.RemovalPolicy.DESTROY

    @classmethod
    def of(cls, settings: Settings) -> ModelCacheSettings:
        return cls(
            prefix=settings.cache_prefix,
            log_retention=settings.log_retention,
            populate=settings.populate_model_cache,
            model_source=settings.model_source,
            default_voice=settings.default_voice,
            hub_endpoint=settings.hub_endpoint,
            hub_token_secret_arn=settings.hub_token_secret_arn,
            bucket_removal_policy=settings.bucket_removal_policy,
            removal_policy=settings.removal_policy,
        )

    def populator_properties(self, bucket_name: str) -> dict[str, Any]:
        """What the populator's custom resource is given: the cache's bucket and prefix, the pinned files."""
        source = self.model_source
        return {
            "Bucket": bucket_name,
            "Prefix": self.prefix,
            "Repo": source.repo,
            "Revision": source.revision,
            "Files": {name: spec.model_dump(exclude_none=True) for name, spec in sorted(source.files.items())},
            "Onnx": source.onnx,
            "Voices": source.voices,
            "DefaultVoice": self.default_voice,
            "HubEndpoint": self.hub_endpoint,
            **({"HubTokenSecretArn": self.hub_token_secret_arn} if self.hub_token_secret_arn else {}),
        }


class ModelCache(Construct):
    def __init__(self, scope: Construct, id: str, *, settings: ModelCacheSettings) -> None:
        super().__init__(scope, id)
        destroy = settings.bucket_removal_policy == "destroy"
        removal = settings.removal_policy
        access_logs = s3.Bucket(
            self,
            "AccessLogs",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
            lifecycle_rules=[s3.LifecycleRule(expiration=cdk.Duration.days(365))],
            removal_policy=removal,
            auto_delete_objects=destroy,
        )
        acknowledge(
            access_logs,
            "AwsSolutions-S1",
            "This is the server access log bucket of the model cache; logging it into itself would loop.",
        )
        self.bucket = s3.Bucket(
            self,
            "Bucket",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            versioned=True,
            lifecycle_rules=[
                s3.LifecycleRule(
                    noncurrent_version_expiration=cdk.Duration.days(30),
                    abort_incomplete_multipart_upload_after=cdk.Duration.days(7),
                )
            ],
            server_access_logs_bucket=access_logs,
            server_access_logs_prefix="model-cache/",
            removal_policy=removal,
            auto_delete_objects=destroy,
        )
        self.prefix = settings.prefix
        self.populator = self._populator(settings) if settings.populate else None

    def _populator(self, settings: ModelCacheSettings) -> cdk.CustomResource:
        source = settings.model_source
        provider = HandlerProvider(
            self,
            "Populator",
            handler="handlers.model_cache_populator.on_event",
            description=f"Fills s3 model cache {self.prefix} from {source.repo}",
            timeout=POPULATOR_TIMEOUT,
            memory_size=1024,
            log_retention=settings.log_retention,
        )
        grant_prefix(
            provider.role,
            self.bucket,
            self.prefix,
            ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
            "The populator writes the model files, whose names come from the model source, under its own prefix only.",
        )
        if settings.hub_token_secret_arn:
            provider.role.add_to_policy(
                iam.PolicyStatement(
                    actions=["secretsmanager:GetSecretValue"], resources=[settings.hub_token_secret_arn]
                )
            )
        return cdk.CustomResource(
            self,
            "Files",
            service_token=provider.service_token,
            resource_type="Custom::KokoroModelCache",
            properties=settings.populator_properties(self.bucket.bucket_name),
        )


def grant_prefix(role: iam.IRole, bucket: s3.IBucket, prefix: str, object_actions: list[str], reason: str) -> None:
    """Grant object actions under one prefix, and listing of that prefix only.

    Listing makes a missing object answer 404 rather than 403. The object ARN necessarily ends
    in a wildcard; ``reason`` says why that is acceptable to cdk-nag.
    """
    objects = bucket.arn_for_objects(f"{prefix}*")
    role.add_to_principal_policy(iam.PolicyStatement(actions=object_actions, resources=[objects]))
    role.add_to_principal_policy(
        iam.PolicyStatement(
            actions=["s3:ListBucket"],
            resources=[bucket.bucket_arn],
            conditions={"StringLike": {"s3:prefix": [f"{prefix}*"]}},
        )
    )
    acknowledge_wildcard_resource(role, objects, reason)
