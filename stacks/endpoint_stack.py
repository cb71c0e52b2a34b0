"""Stack 2: the speech server image with bidi enabled, and the SageMaker endpoint serving it."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_s3 as s3
from constructs import Construct

from .config import Settings
from .constructs.alarms import AlarmSettings, EndpointAlarms
from .constructs.bidi_image import BidiImage, ImageSettings
from .constructs.dashboard import EndpointDashboard
from .constructs.endpoint import VARIANT_NAME, Endpoint, EndpointSettings
from .constructs.endpoint_metrics import EndpointMetrics
from .constructs.scaling import EndpointScaling, ScalingSettings
from .model_cache_stack import ModelCacheStack


class EndpointStack(cdk.Stack):
    def __init__(self, scope: Construct, id: str, *, settings: Settings, cache: ModelCacheStack, **kwargs) -> None:
        super().__init__(
            scope, id, description=f"Kokoro-82M streaming speech endpoint {settings.endpoint_name}", **kwargs
        )
        # The prefix is derived from the settings, not imported, so a new model revision does not
        # have to replace a cross-stack export; the dependency still orders the deployment so the
        # endpoint is only created once the cache is complete.
        self.add_stack_dependency(cache, "the endpoint reads the model from the completed cache")
        bucket = s3.Bucket.from_bucket_attributes(
            self,
            "ModelCacheBucket",
            bucket_name=cdk.Fn.import_value(cache.bucket_name_export),
            bucket_arn=cdk.Fn.import_value(cache.bucket_arn_export),
        )
        image = BidiImage(self, "Image", settings=ImageSettings.of(settings))
        self.endpoint = Endpoint(
            self,
            "Endpoint",
            settings=EndpointSettings.of(settings),
            image_uri=image.image_uri,
            repository=image.repository,
            bucket=bucket,
            prefix=cache.cache.prefix,
        )
        endpoint_metrics = EndpointMetrics(
            endpoint_name=self.endpoint.endpoint.attr_endpoint_name,
            variant_name=VARIANT_NAME,
            instance_type=settings.instance_type,
        )
        self.scaling = (
            EndpointScaling(self, "Scaling", settings=ScalingSettings.of(settings), endpoint_metrics=endpoint_metrics)
            if settings.autoscaling
            else None
        )
        self._say_where_capacity_comes_from(settings)
        self.alarms = EndpointAlarms(
            self, "Alarms", settings=AlarmSettings.of(settings), endpoint_metrics=endpoint_metrics
        )
        self.dashboard = EndpointDashboard(
            self, "Dashboard", endpoint_metrics=endpoint_metrics, alarms=list(self.alarms.alarms.values())
        )
        outputs = {
            "EndpointName": (self.endpoint.endpoint.attr_endpoint_name, "SageMaker endpoint name"),
            "EndpointArn": (self.endpoint.endpoint.attr_endpoint_arn, "SageMaker endpoint ARN"),
            "ImageUri": (image.image_uri, "Digest-pinned image URI with bidirectional streaming enabled"),
            "InvokePolicyArn": (
                self.endpoint.invoke_policy.managed_policy_arn,
                "Managed policy that lets a caller invoke this endpoint",
            ),
            "AlarmTopicArn": (self.alarms.topic.topic_arn, "SNS topic that receives every alarm and its recovery"),
            "DashboardName": (self.dashboard.dashboard.dashboard_name, "CloudWatch dashboard of the endpoint"),
        }
        for name, (value, description) in outputs.items():
            cdk.CfnOutput(self, name, value=value, description=description)

    def _say_where_capacity_comes_from(self, settings: Settings) -> None:
        """Synth says whether the scaling values were measured, and which hand-set values a profile replaced."""
        if settings.profile is not None:
            cdk.Annotations.of(self).add_info(settings.profile.summary())
        elif settings.autoscaling:
            cdk.Annotations.of(self).add_info(
                f"scaling_target_concurrency={settings.scaling_target_concurrency:g} is a hand-set starting point, "
                "not a measurement: measure one instance and plan with kokoro-stream capacity, then deploy with "
                "-c capacity_profile=<its file>"
            )
