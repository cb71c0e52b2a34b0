"""Stack 1: the model cache bucket, filled with the pinned model files."""

from __future__ import annotations

import aws_cdk as cdk
from constructs import Construct

from .config import Settings
from .constructs.model_cache import ModelCache, ModelCacheSettings


class ModelCacheStack(cdk.Stack):
    def __init__(self, scope: Construct, id: str, *, settings: Settings, **kwargs) -> None:
        super().__init__(
            scope, id, description="Kokoro-82M model cache: S3 bucket filled with the pinned model files", **kwargs
        )
        self.cache = ModelCache(self, "ModelCache", settings=ModelCacheSettings.of(settings))
        # Explicit exports: the bucket never changes, so importing it elsewhere never blocks an update.
        self.bucket_name_export = f"{self.stack_name}-BucketName"
        self.bucket_arn_export = f"{self.stack_name}-BucketArn"
        cdk.CfnOutput(
            self,
            "BucketName",
            value=self.cache.bucket.bucket_name,
            export_name=self.bucket_name_export,
            description="Model cache bucket",
        )
        cdk.CfnOutput(
            self,
            "BucketArn",
            value=self.cache.bucket.bucket_arn,
            export_name=self.bucket_arn_export,
            description="Model cache bucket ARN",
        )
        cdk.CfnOutput(
            self, "ModelPrefix", value=self.cache.prefix, description="S3 prefix holding the model and manifest.json"
        )
