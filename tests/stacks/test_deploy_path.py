"""What a first (and second) `cdk deploy` depends on that synth, cfn-lint and cdk-nag cannot see."""

from __future__ import annotations

import json
import re
from pathlib import Path

import aws_cdk as cdk
import pytest
from aws_cdk import aws_logs as logs
from cfnlint.api import lint_file

from stacks import instance_types
from stacks.config import SettingsError, settings_from_context
from stacks.constructs.handler_provider import HandlerProvider

from .conftest import Assembly, cdk_json_context, synthesize

ENDPOINT = "KokoroEndpoint"
SECRET_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:kokoro/hub-token-AbC123"


def endpoint_log_group(assembly: Assembly) -> tuple[str, dict]:
    groups = assembly.resources(ENDPOINT, "AWS::Logs::LogGroup").items()
    (found,) = [
        (k, v) for k, v in groups if v["Properties"].get("LogGroupName") == "/aws/sagemaker/Endpoints/kokoro-tts"
    ]
    return found


def variant(assembly: Assembly) -> dict:
    _, config = assembly.one(ENDPOINT, "AWS::SageMaker::EndpointConfig")
    (production_variant,) = config["Properties"]["ProductionVariants"]
    return production_variant


def statements(assembly: Assembly, stack: str) -> list[tuple[str, dict]]:
    return [
        (logical_id, statement)
        for logical_id, policy in assembly.resources(stack, "AWS::IAM::Policy").items()
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def test_every_handler_leaves_the_provider_framework_time_to_answer(assembly: Assembly) -> None:
    """A handler cut off together with the framework leaves CloudFormation waiting an hour for an answer."""
    checked = 0
    for stack in assembly.templates:
        functions = assembly.resources(stack, "AWS::Lambda::Function").values()
        framework = [f["Properties"]["Timeout"] for f in functions if f["Properties"]["Handler"] == "framework.onEvent"]
        handlers = [f["Properties"]["Timeout"] for f in functions if f["Properties"]["Handler"].startswith("handlers.")]
        for timeout in handlers:
            assert timeout <= min(framework) - 60, (stack, timeout, framework)
            checked += 1
    assert checked == 3  # the populator, the image labeller, the endpoint guard


def test_a_handler_allowed_as_long_as_the_framework_is_refused_at_synth() -> None:
    stack = cdk.Stack(cdk.App())
    with pytest.raises(ValueError, match="may run 900 s, but the provider framework waits at most 900 s"):
        HandlerProvider(
            stack,
            "TooLong",
            handler="handlers.x.on_event",
            description="x",
            timeout=cdk.Duration.minutes(15),
            memory_size=128,
            log_retention=logs.RetentionDays.ONE_DAY,
        )


def test_a_hub_token_secret_reaches_the_populator_and_only_it_may_read_it(assembly: Assembly, tmp_path: Path) -> None:
    assert not any(
        "secretsmanager" in str(statement["Action"])
        for stack in assembly.templates
        for _, statement in statements(assembly, stack)
    )
    with_token = synthesize(tmp_path, hub_token_secret_arn=SECRET_ARN)
    (cache,) = with_token.resources("KokoroModelCache", "Custom::KokoroModelCache").values()
    assert cache["Properties"]["HubTokenSecretArn"] == SECRET_ARN
    reads = [
        (logical_id, statement)
        for stack in with_token.templates
        for logical_id, statement in statements(with_token, stack)
        if "secretsmanager" in str(statement["Action"])
    ]
    assert [(statement["Action"], statement["Resource"]) for _, statement in reads] == [
        ("secretsmanager:GetSecretValue", SECRET_ARN)
    ]
    assert reads[0][0].startswith("ModelCachePopulatorRole")


def test_a_partial_secret_arn_is_refused_naming_the_full_form() -> None:
    with pytest.raises(SettingsError, match="with its 6-character suffix"):
        settings_from_context(
            {**cdk_json_context(), "hub_token_secret_arn": "arn:aws:secretsmanager:us-east-1:123456789012:secret:x"}
        )


@pytest.mark.parametrize(
    ("instance_type", "ami"),
    [
        ("ml.g5.xlarge", "al2-ami-sagemaker-inference-gpu-2"),
        ("ml.g4dn.xlarge", "al2-ami-sagemaker-inference-gpu-2"),
        ("ml.g6.2xlarge", "al2-ami-sagemaker-inference-gpu-2"),
        ("ml.g6e.xlarge", "al2-ami-sagemaker-inference-gpu-3-1"),
        ("ml.p5e.48xlarge", "al2-ami-sagemaker-inference-gpu-3-1"),
        ("ml.c7i.xlarge", None),
        ("ml.m7i.large", None),
    ],
)
def test_gpu_hosts_are_pinned_to_a_driver_that_runs_cuda_12(instance_type: str, ami: str | None) -> None:
    # Without a pin, g4dn, g5 and p4d hosts run NVIDIA driver 470 (CUDA 11.4): the image would fall back to the CPU.
    assert instance_types.inference_ami(instance_type, "auto") == ami


def test_every_host_image_s_driver_runs_the_image_s_cuda_libraries() -> None:
    """The GPU image's CUDA major (its nvidia-*-cu12 wheels, onnxruntime-gpu's build) against each host image's
    driver: CUDA 12.x runtimes run on a driver of 525 or newer (minor-version compatibility)."""
    requirements = (Path(__file__).resolve().parents[2] / "container/requirements-gpu.txt").read_text()
    runtimes = re.findall(r"^nvidia-cuda-runtime-cu(\d+)==(\d+)\.", requirements, re.M)
    assert runtimes and {(major, version) for major, version in runtimes} == {(str(instance_types.CUDA_MAJOR),) * 2}
    cudnn = re.findall(r"^nvidia-cudnn-cu(\d+)==", requirements, re.M)
    assert cudnn == [str(instance_types.CUDA_MAJOR)]
    from kokoro_server.engine import device  # the server says the same when the CUDA provider does not start

    assert (device.CUDA_MAJOR, device.CUDA_MINIMUM_DRIVER) == (instance_types.CUDA_MAJOR, instance_types.MINIMUM_DRIVER)
    for ami in instance_types.INFERENCE_AMIS:
        assert instance_types.driver_of(ami) >= instance_types.MINIMUM_DRIVER, ami
    for family in ("g4dn", "g5", "g6", "g6e", "p4d", "p5"):
        chosen = instance_types.inference_ami(f"ml.{family}.xlarge", "auto")
        assert chosen is not None and instance_types.driver_of(chosen) >= instance_types.MINIMUM_DRIVER


def test_the_default_endpoint_pins_its_gpu_host_image(assembly: Assembly, tmp_path: Path) -> None:
    assert variant(assembly)["InferenceAmiVersion"] == "al2-ami-sagemaker-inference-gpu-2"
    chosen = synthesize(tmp_path, inference_ami_version="al2-ami-sagemaker-inference-gpu-3-1")
    assert variant(chosen)["InferenceAmiVersion"] == "al2-ami-sagemaker-inference-gpu-3-1"


def test_a_cpu_endpoint_leaves_the_host_image_to_sagemaker(tmp_path: Path) -> None:
    assembly = synthesize(tmp_path / "cpu", instance_type="ml.c7i.2xlarge")
    assert "InferenceAmiVersion" not in variant(assembly)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"inference_ami_version": "latest"}, "must be auto or one of: al2-ami-sagemaker-inference-gpu-2"),
        ({"instance_type": "ml.g7e.2xlarge"}, "no SageMaker host image is known here to run CUDA 12 on ml.g7e"),
        (
            {"instance_type": "ml.c7i.xlarge", "inference_ami_version": "al2-ami-sagemaker-inference-gpu-2"},
            "ml.c7i.xlarge has no GPU; inference_ami_version applies to GPU instance types only",
        ),
    ],
)
def test_host_image_choices_that_cannot_work_stop_synth(overrides: dict, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        settings_from_context({**cdk_json_context(), **overrides})


def test_the_endpoint_log_group_goes_with_the_stack_unless_kept(assembly: Assembly, tmp_path: Path) -> None:
    """A group left behind makes the next deployment of the same endpoint name fail: it already exists."""
    logical_id, group = endpoint_log_group(assembly)
    assert group["DeletionPolicy"] == group["UpdateReplacePolicy"] == "Delete"
    _, endpoint = assembly.one(ENDPOINT, "AWS::SageMaker::Endpoint")
    assert logical_id in endpoint["DependsOn"]  # deleted only once the endpoint, which writes to it, is gone
    kept = synthesize(tmp_path, keep_endpoint_logs="true")
    _, group = endpoint_log_group(kept)
    assert group["DeletionPolicy"] == "Retain"


def test_an_update_of_the_endpoint_first_passes_the_guard(assembly: Assembly, tmp_path: Path) -> None:
    guard_id, guard = assembly.one(ENDPOINT, "Custom::KokoroEndpointGuard")
    assert guard["Properties"]["InstanceType"] == "ml.g5.xlarge"
    assert guard["Properties"]["Autoscaling"] == "false"
    _, endpoint = assembly.one(ENDPOINT, "AWS::SageMaker::Endpoint")
    assert guard_id in endpoint["DependsOn"]
    scaled = synthesize(tmp_path, min_instances="1", max_instances="3")
    (guard,) = scaled.resources(ENDPOINT, "Custom::KokoroEndpointGuard").values()
    assert guard["Properties"]["Autoscaling"] == "true"


@pytest.mark.parametrize(("instance_type", "vcpus"), [("ml.t3.medium", 2), ("ml.m5.large", 2), ("ml.c7i.4xlarge", 16)])
def test_vcpus_by_size(instance_type: str, vcpus: int) -> None:
    assert instance_types.vcpus(instance_type) == vcpus


@pytest.mark.parametrize(("policy", "deletion"), [("retain", "Retain"), ("destroy", "Delete")])
def test_kms_keys_follow_the_buckets_removal_policy(tmp_path: Path, policy: str, deletion: str) -> None:
    assembly = synthesize(tmp_path, instance_type="ml.c7i.2xlarge", bucket_removal_policy=policy)
    keys = [key for stack in assembly.templates for key in assembly.resources(stack, "AWS::KMS::Key").values()]
    assert len(keys) == 2  # the endpoint's volumes and the alarm topic
    assert {key["DeletionPolicy"] for key in keys} == {deletion}


def test_the_invoke_policy_carries_its_cfn_lint_reason(assembly: Assembly) -> None:
    """InvokeEndpointWithBidirectionalStream is missing from cfn-lint's action list; the statement says so."""
    _, policy = assembly.one(ENDPOINT, "AWS::IAM::ManagedPolicy")
    assert policy["Metadata"]["cfn-lint"] == {"config": {"ignore_checks": ["W3037"]}}
    warnings = [m.rule.id for m in lint_file(assembly.outdir / f"{ENDPOINT}.template.json")]
    assert "W3037" not in warnings


@pytest.mark.parametrize(("instance_type", "flavor"), [("ml.g5.xlarge", "gpu"), ("ml.c7i.2xlarge", "cpu")])
def test_the_image_flavor_follows_the_instance_type(tmp_path: Path, instance_type: str, flavor: str) -> None:
    synthesize(tmp_path, instance_type=instance_type)
    manifest = json.loads((tmp_path / f"{ENDPOINT}.assets.json").read_text())
    (image,) = manifest["dockerImages"].values()
    assert image["source"]["dockerBuildArgs"] == {"FLAVOR": flavor}
    assert image["source"]["platform"] == "linux/amd64"
