"""The synthesized templates: snapshots, and the properties a deployment depends on."""

from __future__ import annotations

import json
import re

import pytest
from syrupy.extensions.json import JSONSnapshotExtension

from stacks.config import BIDI_LABEL

from .conftest import Assembly, cdk_json_context, synthesize

ASSET_HASH = re.compile(r"[0-9a-f]{64}")
INVOKE_ACTIONS = {
    "sagemaker:InvokeEndpoint",
    "sagemaker:InvokeEndpointWithResponseStream",
    "sagemaker:InvokeEndpointWithBidirectionalStream",
}


def masked(template: dict) -> dict:
    """Asset hashes change with every edit of the bundled code; everything else must not drift."""
    return json.loads(ASSET_HASH.sub("<asset-hash>", json.dumps(template, sort_keys=True)))


@pytest.fixture
def snapshot_json(snapshot):
    return snapshot.use_extension(JSONSnapshotExtension)


@pytest.mark.parametrize("stack", ["KokoroModelCache", "KokoroEndpoint"])
def test_template_matches_snapshot(assembly: Assembly, stack: str, snapshot_json) -> None:
    assert masked(assembly.templates[stack]) == snapshot_json


def test_template_is_identical_when_synthesized_again(assembly: Assembly, tmp_path) -> None:
    again = synthesize(tmp_path)
    assert again.templates == assembly.templates


def test_endpoint_runs_on_the_configured_instance_type(assembly: Assembly) -> None:
    _, config = assembly.one("KokoroEndpoint", "AWS::SageMaker::EndpointConfig")
    (variant,) = config["Properties"]["ProductionVariants"]
    assert variant["InstanceType"] == "ml.g5.xlarge"
    assert variant["InitialInstanceCount"] == 1
    assert variant["RoutingConfig"] == {"RoutingStrategy": "LEAST_OUTSTANDING_REQUESTS"}
    assert variant["ContainerStartupHealthCheckTimeoutInSeconds"] == 600
    assert variant["ModelDataDownloadTimeoutInSeconds"] == 900
    # g5 volumes are local NVMe: SageMaker rejects a KMS key for them.
    assert "KmsKeyId" not in config["Properties"]


def test_model_reads_the_uncompressed_cache_prefix(assembly: Assembly) -> None:
    _, model = assembly.one("KokoroEndpoint", "AWS::SageMaker::Model")
    source = model["Properties"]["PrimaryContainer"]["ModelDataSource"]["S3DataSource"]
    assert source["S3DataType"] == "S3Prefix"
    assert source["CompressionType"] == "None"
    bucket_import, prefix = source["S3Uri"]["Fn::Join"][1][1:]
    assert bucket_import == {"Fn::ImportValue": "KokoroModelCache-BucketName"}
    cache_outputs = assembly.templates["KokoroModelCache"]["Outputs"]
    assert prefix == "/" + cache_outputs["ModelPrefix"]["Value"]
    assert prefix.startswith("/models/onnx-community--Kokoro-82M-v1.0-ONNX/1939ad2a8e416c0acfeecc08a694d14ef25f2231/")
    (cache_resource,) = assembly.resources("KokoroModelCache", "Custom::KokoroModelCache").values()
    assert "/" + cache_resource["Properties"]["Prefix"] == prefix


def test_model_image_is_the_pinned_uri_from_the_custom_resource(assembly: Assembly) -> None:
    _, model = assembly.one("KokoroEndpoint", "AWS::SageMaker::Model")
    image = model["Properties"]["PrimaryContainer"]["Image"]
    pinned_id, pinned = assembly.one("KokoroEndpoint", "Custom::KokoroBidiImage")
    assert image == {"Fn::GetAtt": [pinned_id, "ImageUri"]}
    assert pinned["Properties"]["Label"] == BIDI_LABEL
    assert ASSET_HASH.fullmatch(pinned["Properties"]["ImageTag"])
    assert model["Properties"]["EnableNetworkIsolation"] is True


def test_endpoint_waits_for_the_model_cache_stack(assembly: Assembly) -> None:
    manifest = json.loads((assembly.outdir / "manifest.json").read_text())
    assert "KokoroModelCache" in manifest["artifacts"]["KokoroEndpoint"]["dependencies"]
    # Within the cache stack, the outputs the endpoint uses exist only once the files are in place.
    (cache_resource,) = assembly.resources("KokoroModelCache", "Custom::KokoroModelCache").values()
    assert cache_resource["Properties"]["Bucket"]["Ref"].startswith("ModelCacheBucket")


def test_endpoint_uses_the_config_that_uses_the_model(assembly: Assembly) -> None:
    model_id, _ = assembly.one("KokoroEndpoint", "AWS::SageMaker::Model")
    config_id, config = assembly.one("KokoroEndpoint", "AWS::SageMaker::EndpointConfig")
    _, endpoint = assembly.one("KokoroEndpoint", "AWS::SageMaker::Endpoint")
    assert config["Properties"]["ProductionVariants"][0]["ModelName"] == {"Fn::GetAtt": [model_id, "ModelName"]}
    assert endpoint["Properties"]["EndpointConfigName"] == {"Fn::GetAtt": [config_id, "EndpointConfigName"]}
    assert endpoint["Properties"]["EndpointName"] == "kokoro-tts"


def statements(assembly: Assembly, stack: str):
    for type_name in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"):
        for logical_id, policy in assembly.resources(stack, type_name).items():
            for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
                yield logical_id, statement


def as_list(value):
    return value if isinstance(value, list) else [value]


def test_no_statement_grants_every_action_and_star_resources_are_known(assembly: Assembly) -> None:
    for stack in assembly.templates:
        for logical_id, statement in statements(assembly, stack):
            for action in as_list(statement["Action"]):
                assert "*" not in action, f"{stack}/{logical_id} grants wildcard action {action}"
            if "*" in as_list(statement["Resource"]):
                # Only calls without resource-level permissions (acknowledged), metrics by namespace.
                if as_list(statement["Action"]) == ["cloudwatch:PutMetricData"]:
                    assert statement["Condition"] == {
                        "StringEquals": {"cloudwatch:namespace": ["/aws/sagemaker/Endpoints"]}
                    }
                else:
                    assert as_list(statement["Action"]) == ["ecr:GetAuthorizationToken"], (stack, logical_id)


def test_invoke_policy_allows_only_this_endpoint(assembly: Assembly) -> None:
    endpoint_id, _ = assembly.one("KokoroEndpoint", "AWS::SageMaker::Endpoint")
    _, policy = assembly.one("KokoroEndpoint", "AWS::IAM::ManagedPolicy")
    (statement,) = policy["Properties"]["PolicyDocument"]["Statement"]
    assert set(statement["Action"]) == INVOKE_ACTIONS
    assert statement["Resource"] == {"Fn::GetAtt": [endpoint_id, "EndpointArn"]}


def test_execution_role_reads_only_the_model_prefix(assembly: Assembly) -> None:
    prefix = assembly.templates["KokoroModelCache"]["Outputs"]["ModelPrefix"]["Value"]
    role_policies = [
        statement
        for logical_id, statement in statements(assembly, "KokoroEndpoint")
        if logical_id.startswith("EndpointExecutionRole")
    ]
    s3_statements = [s for s in role_policies if any(a.startswith("s3:") for a in as_list(s["Action"]))]
    get_object = next(s for s in s3_statements if s["Action"] == "s3:GetObject")
    assert get_object["Resource"]["Fn::Join"][1][-1] == f"/{prefix}*"
    list_bucket = next(s for s in s3_statements if s["Action"] == "s3:ListBucket")
    assert list_bucket["Condition"] == {"StringLike": {"s3:prefix": [f"{prefix}*"]}}
    ecr_actions = {a for s in role_policies for a in as_list(s["Action"]) if a.startswith("ecr:")}
    assert ecr_actions == {
        "ecr:BatchCheckLayerAvailability",
        "ecr:GetDownloadUrlForLayer",
        "ecr:BatchGetImage",
        "ecr:GetAuthorizationToken",
    }


def test_image_labeller_may_touch_only_the_image_repository(assembly: Assembly) -> None:
    for logical_id, statement in statements(assembly, "KokoroEndpoint"):
        if logical_id.startswith("ImageLabellerRoleDefaultPolicy") and statement["Action"][0].startswith("ecr:"):
            resource = json.dumps(statement["Resource"])
            assert "cdk-hnb659fds-container-assets-123456789012-us-east-1" in resource
            assert "*" not in resource


def test_model_cache_bucket_is_private_encrypted_versioned_and_logged(assembly: Assembly) -> None:
    buckets = assembly.resources("KokoroModelCache", "AWS::S3::Bucket")
    cache = next(b for k, b in buckets.items() if k.startswith("ModelCacheBucket"))["Properties"]
    assert cache["VersioningConfiguration"] == {"Status": "Enabled"}
    assert cache["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    assert cache["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["ServerSideEncryptionByDefault"] == {
        "SSEAlgorithm": "AES256"
    }
    assert cache["LoggingConfiguration"]["LogFilePrefix"] == "model-cache/"
    rule = cache["LifecycleConfiguration"]["Rules"][0]
    assert rule["NoncurrentVersionExpiration"] == {"NoncurrentDays": 30}
    policies = assembly.resources("KokoroModelCache", "AWS::S3::BucketPolicy").values()
    denies_plain_http = [
        s
        for p in policies
        for s in p["Properties"]["PolicyDocument"]["Statement"]
        if s["Effect"] == "Deny" and s.get("Condition") == {"Bool": {"aws:SecureTransport": "false"}}
    ]
    assert len(denies_plain_http) == 2  # the cache and its access-log bucket


def test_populator_receives_the_pinned_source(assembly: Assembly) -> None:
    (resource,) = assembly.resources("KokoroModelCache", "Custom::KokoroModelCache").values()
    properties = resource["Properties"]
    source = cdk_json_context()["model_source"]
    assert properties["Repo"] == source["repo"]
    assert properties["Revision"] == source["revision"]
    assert properties["Files"] == source["files"]
    assert len([name for name in properties["Files"] if name.startswith("voices/")]) == 54
    assert properties["DefaultVoice"] == "af_heart"


def test_lambda_functions_run_the_bundled_handlers(assembly: Assembly) -> None:
    handlers = set()
    for stack in assembly.templates:
        for function in assembly.resources(stack, "AWS::Lambda::Function").values():
            handler = function["Properties"]["Handler"]
            if handler.startswith("handlers."):
                handlers.add(handler)
                asset = assembly.outdir / f"asset.{function['Properties']['Code']['S3Key'].removesuffix('.zip')}"
                module = handler.rsplit(".", 1)[0].replace(".", "/") + ".py"
                assert (asset / module).is_file()
                assert (asset / "kokoro_core" / "model_cache.py").is_file() and not (asset / "kokoro_server").exists()
    assert handlers == {
        "handlers.model_cache_populator.on_event",
        "handlers.bidi_image.on_event",
        "handlers.endpoint_guard.on_event",
    }


def test_stack_outputs_name_what_a_caller_needs(assembly: Assembly) -> None:
    assert set(assembly.templates["KokoroEndpoint"]["Outputs"]) >= {
        "EndpointName",
        "EndpointArn",
        "ImageUri",
        "InvokePolicyArn",
    }
    assert set(assembly.templates["KokoroModelCache"]["Outputs"]) >= {"BucketName", "ModelPrefix"}


def test_prebuilt_image_uri_skips_the_asset_and_scopes_the_labeller(tmp_path) -> None:
    uri = "210987654321.dkr.ecr.us-west-2.amazonaws.com/team/kokoro:v1.2"
    assembly = synthesize(tmp_path, image_uri=uri)
    manifest = json.loads((tmp_path / "KokoroEndpoint.assets.json").read_text())
    assert manifest.get("dockerImages", {}) == {}
    (pinned,) = assembly.resources("KokoroEndpoint", "Custom::KokoroBidiImage").values()
    assert pinned["Properties"]["ImageTag"] == "v1.2"
    assert pinned["Properties"]["RegistryId"] == "210987654321"
    arns = [
        statement["Resource"]
        for logical_id, statement in statements(assembly, "KokoroEndpoint")
        if logical_id.startswith("ImageLabellerRoleDefaultPolicy")
    ]
    assert "arn:aws:ecr:us-west-2:210987654321:repository/team/kokoro" in arns


def test_external_cache_has_no_populator_and_uses_the_given_prefix(tmp_path) -> None:
    assembly = synthesize(tmp_path, populate_model_cache="false", model_prefix="kokoro/pushed/")
    assert assembly.resources("KokoroModelCache", "Custom::KokoroModelCache") == {}
    _, model = assembly.one("KokoroEndpoint", "AWS::SageMaker::Model")
    uri = model["Properties"]["PrimaryContainer"]["ModelDataSource"]["S3DataSource"]["S3Uri"]
    assert uri["Fn::Join"][1][-1] == "/kokoro/pushed/"


def test_instance_without_local_storage_gets_a_rotated_volume_key(tmp_path) -> None:
    assembly = synthesize(tmp_path, instance_type="ml.c7i.2xlarge", min_instances="2", max_instances="2")
    keys = assembly.resources("KokoroEndpoint", "AWS::KMS::Key")
    ((key_id, key),) = [(k, v) for k, v in keys.items() if k.startswith("EndpointVolumeKey")]
    assert key["Properties"]["EnableKeyRotation"] is True
    _, config = assembly.one("KokoroEndpoint", "AWS::SageMaker::EndpointConfig")
    assert config["Properties"]["KmsKeyId"] == {"Fn::GetAtt": [key_id, "Arn"]}
    assert config["Properties"]["ProductionVariants"][0]["InitialInstanceCount"] == 2
