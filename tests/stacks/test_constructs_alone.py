"""Constructs take the narrow settings they use, so each one is built and checked on its own, in a
bare stack, without the app's whole configuration."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_ecr as ecr
from aws_cdk import aws_ecr_assets as ecr_assets
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk.assertions import Match, Template

from stacks.config import settings_from_context
from stacks.constructs.alarms import AlarmSettings, EndpointAlarms
from stacks.constructs.bidi_image import BidiImage, ImageSettings
from stacks.constructs.endpoint import Endpoint, EndpointSettings
from stacks.constructs.endpoint_metrics import EndpointMetrics
from stacks.constructs.model_cache import ModelCache, ModelCacheSettings
from stacks.constructs.scaling import EndpointScaling, ScalingSettings

from .conftest import cdk_json_context

METRICS = EndpointMetrics(endpoint_name="speech", variant_name="AllTraffic", instance_type="ml.c7i.xlarge")


def bare_stack() -> cdk.Stack:
    return cdk.Stack(cdk.App(), "Alone", env=cdk.Environment(account="111122223333", region="us-east-1"))


def test_scaling_alone_tracks_concurrency_and_steps_out_on_queue_depth() -> None:
    stack = bare_stack()
    settings = ScalingSettings(
        min_instances=2,
        max_instances=6,
        target_concurrency=4.0,
        high_resolution=False,
        scale_out_cooldown_seconds=60,
        scale_in_cooldown_seconds=600,
        queue_depth_scale_out=3.0,
    )
    EndpointScaling(stack, "Scaling", settings=settings, endpoint_metrics=METRICS)
    template = Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::ApplicationAutoScaling::ScalableTarget",
        {"MinCapacity": 2, "MaxCapacity": 6, "ResourceId": "endpoint/speech/variant/AllTraffic"},
    )
    template.has_resource_properties(
        "AWS::ApplicationAutoScaling::ScalingPolicy",
        {"PolicyType": "TargetTrackingScaling", "TargetTrackingScalingPolicyConfiguration": Match.object_like(
            {"TargetValue": 4, "ScaleInCooldown": 600, "ScaleOutCooldown": 60}
        )},
    )  # fmt: skip
    template.has_resource_properties("AWS::ApplicationAutoScaling::ScalingPolicy", {"PolicyType": "StepScaling"})


def test_alarms_alone_follow_the_instance_type_and_mail_when_asked() -> None:
    def alarms(instance_type: str, email: str | None, cpu_by_choice: bool = False) -> Template:
        stack = bare_stack()
        settings = AlarmSettings(
            endpoint_name="speech",
            instance_type=instance_type,
            min_instances=1,
            errors_5xx_per_5_minutes=5,
            model_latency_p95_ms=2000,
            ttfa_p95_ms=800,
            cpu_percent=90,
            gpu_percent=90,
            email=email,
            cpu_by_choice=cpu_by_choice,
        )
        metrics = EndpointMetrics(endpoint_name="speech", variant_name="AllTraffic", instance_type=instance_type)
        EndpointAlarms(stack, "Alarms", settings=settings, endpoint_metrics=metrics)
        return Template.from_stack(stack)

    cpu, gpu = alarms("ml.c7i.xlarge", None), alarms("ml.g5.xlarge", "ops@example.com")
    told = alarms("ml.g5.xlarge", None, cpu_by_choice=True)  # KOKORO_DEVICE=cpu: serving on the CPU is no alarm
    assert len(told.find_resources("AWS::CloudWatch::Alarm")) == len(gpu.find_resources("AWS::CloudWatch::Alarm")) - 1
    # A GPU type adds its utilization and the alarm for a server that serves from the CPU instead.
    assert len(gpu.find_resources("AWS::CloudWatch::Alarm")) == len(cpu.find_resources("AWS::CloudWatch::Alarm")) + 2
    cpu.has_resource_properties("AWS::CloudWatch::Alarm", {"AlarmDescription": Match.string_like_regexp("800 ms")})
    assert cpu.find_resources("AWS::SNS::Subscription") == {}
    gpu.has_resource_properties("AWS::SNS::Subscription", {"Protocol": "email", "Endpoint": "ops@example.com"})


def test_a_given_image_alone_is_pinned_without_a_build() -> None:
    stack = bare_stack()
    uri = "111122223333.dkr.ecr.us-east-1.amazonaws.com/kokoro:v1"
    reference = {"repository": "kokoro", "tag": "v1", "account": "111122223333", "region": "us-east-1"}
    BidiImage(stack, "Image", settings=ImageSettings("ml.c7i.xlarge", logs.RetentionDays.ONE_MONTH, uri, reference))
    template = Template.from_stack(stack)
    template.has_resource_properties(
        "Custom::KokoroBidiImage", {"RepositoryName": "kokoro", "ImageTag": "v1", "RegistryId": "111122223333"}
    )
    assert not [c for c in stack.node.find_all() if isinstance(c, ecr_assets.DockerImageAsset)]  # nothing to build


def test_the_model_cache_alone_has_a_populator_only_when_asked() -> None:
    source = settings_from_context(cdk_json_context()).model_source

    def cache(populate: bool) -> Template:
        stack = bare_stack()
        settings = ModelCacheSettings(
            prefix="kokoro/abc/",
            log_retention=logs.RetentionDays.ONE_WEEK,
            populate=populate,
            model_source=source,
            default_voice="af_heart",
            hub_endpoint="https://huggingface.co",
        )
        ModelCache(stack, "Cache", settings=settings)
        return Template.from_stack(stack)

    filled, external = cache(True), cache(False)
    assert len(external.find_resources("AWS::S3::Bucket")) == 2  # the cache and its access logs
    assert external.find_resources("Custom::KokoroModelCache") == {}
    filled.has_resource_properties(
        "Custom::KokoroModelCache", {"Prefix": "kokoro/abc/", "Repo": source.repo, "DefaultVoice": "af_heart"}
    )


def test_the_endpoint_alone_runs_the_image_on_the_instance_type_it_is_given() -> None:
    stack = bare_stack()
    settings = EndpointSettings(
        endpoint_name="speech",
        instance_type="ml.c7i.xlarge",
        instance_count=2,
        autoscaling=False,
        health_check_timeout_seconds=600,
        model_download_timeout_seconds=600,
        log_retention=logs.RetentionDays.ONE_WEEK,
        container_env={"KOKORO_WORKERS": "2"},
    )
    bucket = s3.Bucket(stack, "Cache")
    repository = ecr.Repository(stack, "Images")
    Endpoint(stack, "Endpoint", settings=settings, image_uri="example/image@sha256:0", repository=repository,
             bucket=bucket, prefix="kokoro/abc/")  # fmt: skip
    template = Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::SageMaker::EndpointConfig",
        {"ProductionVariants": [Match.object_like({"InstanceType": "ml.c7i.xlarge", "InitialInstanceCount": 2})]},
    )
    template.has_resource_properties(
        "AWS::SageMaker::Model",
        {"PrimaryContainer": Match.object_like(
            {"Environment": {"KOKORO_ENDPOINT_NAME": "speech", "KOKORO_WORKERS": "2"}}
        )},
    )  # fmt: skip
    template.has_resource_properties("AWS::SageMaker::Endpoint", {"EndpointName": "speech"})


def test_a_gpu_instance_type_tells_the_server_to_fail_its_start_without_the_gpu() -> None:
    from stacks.constructs.endpoint import server_environment

    assert server_environment("speech", "ml.g5.xlarge", {}) == {
        "KOKORO_ENDPOINT_NAME": "speech",
        "KOKORO_DEVICE": "cuda",
    }
    assert server_environment("speech", "ml.c7i.xlarge", {}) == {"KOKORO_ENDPOINT_NAME": "speech"}
    allowed = server_environment("speech", "ml.g5.xlarge", {"KOKORO_ALLOW_CPU_FALLBACK": "1"})
    assert allowed["KOKORO_ALLOW_CPU_FALLBACK"] == "1" and allowed["KOKORO_DEVICE"] == "cuda"
