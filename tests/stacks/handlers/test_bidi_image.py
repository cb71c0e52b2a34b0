"""The bidi-enabling image handler against real image manifests and configs.

ECR's API is stubbed with botocore's Stubber (every call and its parameters are checked); the
presigned blob download is a real HTTP request to a loopback server.
"""

from __future__ import annotations

import hashlib
import json
import re

import boto3
import pytest
from botocore.stub import ANY, Stubber

from stacks.config import BIDI_LABEL
from stacks.handlers.bidi_image import (
    DOCKER_MANIFEST,
    OCI_INDEX,
    OCI_MANIFEST,
    BidiImage,
    ImageError,
    ImageRequest,
    as_docker_manifest,
    on_event,
)

from .loopback import Reply, serve

REPOSITORY = "cdk-hnb659fds-container-assets-123456789012-us-east-1"
REPOSITORY_URI = f"123456789012.dkr.ecr.us-east-1.amazonaws.com/{REPOSITORY}"
TAG = "5d0b3c9bb7a4b5fe2c1e0a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def image_config(labels: dict[str, str] | None) -> bytes:
    """An image config as BuildKit writes it for the speech server image."""
    return json.dumps(
        {
            "architecture": "amd64",
            "os": "linux",
            "config": {
                "Env": ["PATH=/usr/local/bin:/usr/bin:/bin", "PYTHONUNBUFFERED=1"],
                "Entrypoint": ["python", "-m", "kokoro_server"],
                "Cmd": ["serve"],
                "WorkingDir": "/opt/kokoro",
                "ExposedPorts": {"8080/tcp": {}},
                "Labels": labels,
            },
            "created": "2026-11-29T18:00:00Z",
            "history": [{"created_by": "COPY kokoro_server/ /opt/kokoro/kokoro_server/ # buildkit"}],
            "rootfs": {"type": "layers", "diff_ids": ["sha256:" + "1" * 64, "sha256:" + "2" * 64]},
        },
        indent=2,
    ).encode()


def single_manifest(config: bytes, media_type: str = DOCKER_MANIFEST) -> str:
    config_type = (
        "application/vnd.docker.container.image.v1+json"
        if media_type == DOCKER_MANIFEST
        else ("application/vnd.oci.image.config.v1+json")
    )
    layer_type = (
        "application/vnd.docker.image.rootfs.diff.tar.gzip"
        if media_type == DOCKER_MANIFEST
        else ("application/vnd.oci.image.layer.v1.tar+gzip")
    )
    return json.dumps(
        {
            "schemaVersion": 2,
            "mediaType": media_type,
            "config": {"mediaType": config_type, "digest": digest(config), "size": len(config)},
            "layers": [
                {"mediaType": layer_type, "digest": "sha256:" + "a" * 64, "size": 29_153_467},
                {"mediaType": layer_type, "digest": "sha256:" + "b" * 64, "size": 1_204},
            ],
        },
        indent=3,
    )


def oci_index(entries: list[tuple[str, dict, dict | None]]) -> str:
    """An index like buildx pushes: images plus attestation manifests (platform unknown/unknown)."""
    return json.dumps(
        {
            "schemaVersion": 2,
            "mediaType": OCI_INDEX,
            "manifests": [
                {
                    "mediaType": OCI_MANIFEST,
                    "digest": entry_digest,
                    "size": 1_000,
                    "platform": platform,
                    **({"annotations": annotations} if annotations else {}),
                }
                for entry_digest, platform, annotations in entries
            ],
        }
    )


class Registry:
    """Blob storage behind presigned URLs, served over loopback HTTP."""

    def __init__(self) -> None:
        self.blobs: dict[str, bytes] = {}

    def route(self, method: str, path: str, body: bytes) -> Reply:
        name = path.removeprefix("/blobs/")
        if name in self.blobs:
            return Reply(body=self.blobs[name])
        return Reply(status=403, body=b"<Error><Code>AccessDenied</Code></Error>")


@pytest.fixture
def registry():
    store = Registry()
    with serve(store.route) as server:
        store.url = server.url
        yield store


@pytest.fixture
def ecr():
    client = boto3.client("ecr", region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()


def request(**changes) -> ImageRequest:
    values = dict(repository=REPOSITORY, repository_uri=REPOSITORY_URI, tag=TAG, digest=None, label=BIDI_LABEL)
    values.update(changes)
    return ImageRequest(**values)


def expect_manifest(stubber: Stubber, image_id: dict, manifest: str, media_type: str) -> None:
    stubber.add_response(
        "batch_get_image",
        {
            "images": [
                {
                    "repositoryName": REPOSITORY,
                    "imageId": {**image_id, "imageDigest": digest(manifest.encode())},
                    "imageManifest": manifest,
                    "imageManifestMediaType": media_type,
                }
            ],
            "failures": [],
        },
        {"repositoryName": REPOSITORY, "imageIds": [image_id], "acceptedMediaTypes": ANY},
    )


def expect_blob(stubber: Stubber, registry: Registry, blob: bytes) -> None:
    registry.blobs[digest(blob)] = blob
    stubber.add_response(
        "get_download_url_for_layer",
        {"downloadUrl": f"{registry.url}/blobs/{digest(blob)}", "layerDigest": digest(blob)},
        {"repositoryName": REPOSITORY, "layerDigest": digest(blob)},
    )


def expect_upload(stubber: Stubber, blob: bytes) -> None:
    blob_digest = digest(blob)
    stubber.add_response(
        "batch_check_layer_availability",
        {"layers": [], "failures": [{"layerDigest": blob_digest, "failureCode": "MissingLayerDigest"}]},
        {"repositoryName": REPOSITORY, "layerDigests": [blob_digest]},
    )
    stubber.add_response(
        "initiate_layer_upload", {"uploadId": "u-1", "partSize": 10_485_760}, {"repositoryName": REPOSITORY}
    )
    stubber.add_response(
        "upload_layer_part",
        {
            "registryId": "123456789012",
            "repositoryName": REPOSITORY,
            "uploadId": "u-1",
            "lastByteReceived": len(blob) - 1,
        },
        {
            "repositoryName": REPOSITORY,
            "uploadId": "u-1",
            "partFirstByte": 0,
            "partLastByte": len(blob) - 1,
            "layerPartBlob": blob,
        },
    )
    stubber.add_response(
        "complete_layer_upload",
        {"registryId": "123456789012", "repositoryName": REPOSITORY, "uploadId": "u-1", "layerDigest": blob_digest},
        {"repositoryName": REPOSITORY, "uploadId": "u-1", "layerDigests": [blob_digest]},
    )


def labelled(config: bytes) -> bytes:
    document = json.loads(config)
    document["config"]["Labels"] = {**(document["config"]["Labels"] or {}), BIDI_LABEL: "true"}
    return json.dumps(document, separators=(",", ":")).encode()


def docker_form(manifest: str, new_config: bytes | None = None) -> str:
    """What the handler writes: the Docker v2 schema 2 form, pointing at ``new_config`` when given."""
    document = as_docker_manifest(json.loads(manifest), f"{REPOSITORY}:{TAG}")
    if new_config is not None:
        document["config"] = {**document["config"], "digest": digest(new_config), "size": len(new_config)}
    return json.dumps(document, separators=(",", ":"))


def expect_put(stubber: Stubber, manifest: str, media_type: str = DOCKER_MANIFEST, tag: str = f"{TAG}-bidi") -> None:
    stubber.add_response(
        "put_image",
        {
            "image": {
                "repositoryName": REPOSITORY,
                "imageId": {"imageDigest": digest(manifest.encode()), "imageTag": tag},
            }
        },
        {
            "repositoryName": REPOSITORY,
            "imageManifest": manifest,
            "imageManifestMediaType": media_type,
            "imageTag": tag,
        },
    )


def test_labelled_single_manifest_is_pinned_without_writing(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config({BIDI_LABEL: "true", "maintainer": "kokoro"})
    manifest = single_manifest(config)
    expect_manifest(stubber, {"imageTag": TAG}, manifest, DOCKER_MANIFEST)
    expect_blob(stubber, registry, config)
    result = BidiImage(client).ensure(request())
    assert result == {
        "ImageUri": f"{REPOSITORY_URI}@{digest(manifest.encode())}",
        "ImageDigest": digest(manifest.encode()),
        "LabelAdded": "false",
        "ManifestConverted": "false",
    }


@pytest.mark.parametrize("labels", [None, {}, {"maintainer": "kokoro"}, {BIDI_LABEL: "false"}])
def test_missing_label_gets_a_new_config_and_manifest_under_a_derived_tag(ecr, registry, labels) -> None:
    client, stubber = ecr
    config = image_config(labels)
    manifest = single_manifest(config)
    new_config = labelled(config)
    new_manifest = docker_form(manifest, new_config)
    expect_manifest(stubber, {"imageTag": TAG}, manifest, DOCKER_MANIFEST)
    expect_blob(stubber, registry, config)
    expect_upload(stubber, new_config)
    expect_put(stubber, new_manifest, DOCKER_MANIFEST)
    result = BidiImage(client).ensure(request())
    assert result["ImageDigest"] == digest(new_manifest.encode())
    assert result["ImageUri"] == f"{REPOSITORY_URI}@{digest(new_manifest.encode())}"
    assert result["LabelAdded"] == "true"
    # Everything but the label is the image as built: same layers, same runtime settings.
    old, new = json.loads(config), json.loads(new_config)
    assert new["config"]["Labels"][BIDI_LABEL] == "true"
    assert {k: v for k, v in new["config"].items() if k != "Labels"} == {
        k: v for k, v in old["config"].items() if k != "Labels"
    }
    assert new["rootfs"] == old["rootfs"]
    assert json.loads(new_manifest)["layers"] == json.loads(manifest)["layers"]
    assert result["ManifestConverted"] == "false"


def test_rerun_after_success_returns_the_same_digest(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config({})
    manifest = single_manifest(config)
    new_config = labelled(config)
    new_manifest = docker_form(manifest, new_config)
    expect_manifest(stubber, {"imageTag": TAG}, manifest, DOCKER_MANIFEST)
    expect_blob(stubber, registry, config)
    stubber.add_response(
        "batch_check_layer_availability",
        {
            "layers": [
                {"layerDigest": digest(new_config), "layerAvailability": "AVAILABLE", "layerSize": len(new_config)}
            ]
        },
        {"repositoryName": REPOSITORY, "layerDigests": [digest(new_config)]},
    )
    stubber.add_client_error(
        "put_image",
        service_error_code="ImageAlreadyExistsException",
        service_message="Image with digest already exists",
    )
    result = BidiImage(client).ensure(request())
    assert result["ImageDigest"] == digest(new_manifest.encode())


def test_oci_index_resolves_to_the_linux_amd64_image_rewritten_as_a_docker_manifest(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config({BIDI_LABEL: "true"})
    child = single_manifest(config, OCI_MANIFEST)
    attestation = "sha256:" + "c" * 64
    index = oci_index(
        [
            (digest(child.encode()), {"architecture": "amd64", "os": "linux"}, None),
            (
                attestation,
                {"architecture": "unknown", "os": "unknown"},
                {
                    "vnd.docker.reference.type": "attestation-manifest",
                    "vnd.docker.reference.digest": digest(child.encode()),
                },
            ),
        ]
    )
    converted = docker_form(child)
    expect_manifest(stubber, {"imageTag": TAG}, index, OCI_INDEX)
    expect_manifest(stubber, {"imageDigest": digest(child.encode())}, child, OCI_MANIFEST)
    expect_blob(stubber, registry, config)
    expect_put(stubber, converted)  # SageMaker refuses OCI manifests: a Docker one goes under the derived tag
    result = BidiImage(client).ensure(request())
    assert result["ImageUri"] == f"{REPOSITORY_URI}@{digest(converted.encode())}"
    assert (result["LabelAdded"], result["ManifestConverted"]) == ("false", "true")


def test_docker_manifest_list_pins_the_chosen_docker_manifest_unchanged(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config({BIDI_LABEL: "true"})
    child = single_manifest(config)
    index = json.loads(oci_index([(digest(child.encode()), {"architecture": "amd64", "os": "linux"}, None)]))
    index["mediaType"] = "application/vnd.docker.distribution.manifest.list.v2+json"
    expect_manifest(stubber, {"imageTag": TAG}, json.dumps(index), index["mediaType"])
    expect_manifest(stubber, {"imageDigest": digest(child.encode())}, child, DOCKER_MANIFEST)
    expect_blob(stubber, registry, config)
    expect_put(stubber, child)  # the chosen image gets a tag of its own, byte for byte
    result = BidiImage(client).ensure(request())
    assert result["ImageUri"] == f"{REPOSITORY_URI}@{digest(child.encode())}"
    assert result["ManifestConverted"] == "false"


def test_oci_manifest_pushed_alone_is_rewritten_as_a_docker_manifest(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config({BIDI_LABEL: "true"})
    manifest = json.loads(single_manifest(config, OCI_MANIFEST))
    manifest["annotations"] = {"org.opencontainers.image.created": "2026-11-29T18:00:00Z"}
    manifest = json.dumps(manifest)
    converted = docker_form(manifest)
    expect_manifest(stubber, {"imageTag": TAG}, manifest, OCI_MANIFEST)
    expect_blob(stubber, registry, config)
    expect_put(stubber, converted)
    result = BidiImage(client).ensure(request())
    assert result["ImageDigest"] == digest(converted.encode()) != digest(manifest.encode())
    written = json.loads(converted)
    assert written["mediaType"] == DOCKER_MANIFEST and "annotations" not in written
    assert written["config"]["mediaType"] == "application/vnd.docker.container.image.v1+json"
    assert written["config"]["digest"] == digest(config)  # same config blob: nothing to upload
    assert [layer["digest"] for layer in written["layers"]] == [
        layer["digest"] for layer in json.loads(manifest)["layers"]
    ]
    assert {layer["mediaType"] for layer in written["layers"]} == {"application/vnd.docker.image.rootfs.diff.tar.gzip"}


def test_oci_index_without_the_label_is_relabelled_as_a_docker_manifest(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config(None)
    child = single_manifest(config, OCI_MANIFEST)
    index = oci_index([(digest(child.encode()), {"architecture": "amd64", "os": "linux"}, None)])
    new_config = labelled(config)
    new_manifest = docker_form(child, new_config)
    expect_manifest(stubber, {"imageTag": TAG}, index, OCI_INDEX)
    expect_manifest(stubber, {"imageDigest": digest(child.encode())}, child, OCI_MANIFEST)
    expect_blob(stubber, registry, config)
    expect_upload(stubber, new_config)
    expect_put(stubber, new_manifest)
    result = BidiImage(client).ensure(request())
    assert result["ImageDigest"] == digest(new_manifest.encode())
    assert (result["LabelAdded"], result["ManifestConverted"]) == ("true", "true")
    assert json.loads(new_manifest)["mediaType"] == DOCKER_MANIFEST


def test_docker_form_maps_every_oci_type_and_keeps_the_blobs() -> None:
    manifest = {
        "schemaVersion": 2,
        "mediaType": OCI_MANIFEST,
        "artifactType": "application/vnd.example",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": "sha256:" + "1" * 64, "size": 9},
        "layers": [
            {"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": "sha256:" + "2" * 64, "size": 5},
            {
                "mediaType": "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip",
                "digest": "sha256:" + "3" * 64,
                "size": 7,
                "urls": ["https://example.com/layer"],
            },
        ],
        "subject": {"mediaType": OCI_MANIFEST, "digest": "sha256:" + "4" * 64, "size": 3},
    }
    assert as_docker_manifest(manifest, "repo:tag") == {
        "schemaVersion": 2,
        "mediaType": DOCKER_MANIFEST,
        "config": {
            "mediaType": "application/vnd.docker.container.image.v1+json",
            "size": 9,
            "digest": "sha256:" + "1" * 64,
        },
        "layers": [
            {
                "mediaType": "application/vnd.docker.image.rootfs.diff.tar.gzip",
                "size": 5,
                "digest": "sha256:" + "2" * 64,
            },
            {
                "mediaType": "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip",
                "size": 7,
                "digest": "sha256:" + "3" * 64,
                "urls": ["https://example.com/layer"],
            },
        ],
    }


@pytest.mark.parametrize(
    "layer_type", ["application/vnd.oci.image.layer.v1.tar+zstd", "application/vnd.oci.image.layer.v1.tar"]
)
def test_layers_sagemaker_cannot_take_are_refused_naming_the_rebuild(ecr, layer_type) -> None:
    client, stubber = ecr
    config = image_config({BIDI_LABEL: "true"})
    manifest = json.loads(single_manifest(config, OCI_MANIFEST))
    manifest["layers"][1]["mediaType"] = layer_type
    expect_manifest(stubber, {"imageTag": TAG}, json.dumps(manifest), OCI_MANIFEST)
    with pytest.raises(ImageError) as refused:
        BidiImage(client).ensure(request())
    message = str(refused.value)
    assert f"layer 2 of {REPOSITORY}:{TAG} has media type '{layer_type}'" in message
    assert "gzip" in message and "--provenance=false" in message and "compression=gzip" in message


def test_index_without_linux_amd64_names_the_platforms_it_has(ecr) -> None:
    client, stubber = ecr
    index = oci_index([("sha256:" + "d" * 64, {"architecture": "arm64", "os": "linux"}, None)])
    expect_manifest(stubber, {"imageTag": TAG}, index, OCI_INDEX)
    with pytest.raises(
        ImageError, match=r"holding 0 linux/amd64 images \(platforms: linux/arm64\).*--platform linux/amd64"
    ):
        BidiImage(client).ensure(request())


def test_unknown_image_fails_with_ecr_reason(ecr) -> None:
    client, stubber = ecr
    stubber.add_response(
        "batch_get_image",
        {
            "images": [],
            "failures": [
                {
                    "imageId": {"imageTag": TAG},
                    "failureCode": "ImageNotFound",
                    "failureReason": "Requested image not found",
                }
            ],
        },
    )
    with pytest.raises(ImageError, match="not found: ImageNotFound Requested image not found"):
        BidiImage(client).ensure(request())


def test_unsupported_manifest_media_type_is_refused(ecr) -> None:
    client, stubber = ecr
    schema1 = "application/vnd.docker.distribution.manifest.v1+prettyjws"
    expect_manifest(stubber, {"imageTag": TAG}, json.dumps({"schemaVersion": 1, "name": REPOSITORY}), schema1)
    with pytest.raises(ImageError, match=re.escape(f"media type '{schema1}'; supported: {DOCKER_MANIFEST}")):
        BidiImage(client).ensure(request())


def test_config_blob_that_does_not_match_its_digest_is_refused(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config({})
    manifest = single_manifest(config)
    expect_manifest(stubber, {"imageTag": TAG}, manifest, DOCKER_MANIFEST)
    registry.blobs[digest(config)] = config + b" "
    stubber.add_response(
        "get_download_url_for_layer",
        {"downloadUrl": f"{registry.url}/blobs/{digest(config)}", "layerDigest": digest(config)},
    )
    with pytest.raises(ImageError, match="image config of .* is corrupt"):
        BidiImage(client).ensure(request())


def test_refused_blob_download_is_reported(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config({})
    expect_manifest(stubber, {"imageTag": TAG}, single_manifest(config), DOCKER_MANIFEST)
    stubber.add_response(
        "get_download_url_for_layer", {"downloadUrl": f"{registry.url}/blobs/expired", "layerDigest": digest(config)}
    )
    with pytest.raises(ImageError, match="could not download the image config .*403"):
        BidiImage(client).ensure(request())


def test_ecr_errors_name_the_operation(ecr) -> None:
    client, stubber = ecr
    stubber.add_client_error("batch_get_image", service_error_code="AccessDeniedException", service_message="denied")
    with pytest.raises(
        ImageError, match=f"ECR refused BatchGetImage for {REPOSITORY}:{TAG}: AccessDeniedException: denied"
    ):
        BidiImage(client).ensure(request())


def test_image_given_by_digest_in_another_registry(ecr, registry) -> None:
    client, stubber = ecr
    config = image_config({BIDI_LABEL: "true"})
    manifest = single_manifest(config)
    stubber.add_response(
        "batch_get_image",
        {
            "images": [
                {
                    "imageId": {"imageDigest": digest(manifest.encode())},
                    "imageManifest": manifest,
                    "imageManifestMediaType": DOCKER_MANIFEST,
                }
            ]
        },
        {
            "registryId": "210987654321",
            "repositoryName": REPOSITORY,
            "imageIds": [{"imageDigest": digest(manifest.encode())}],
            "acceptedMediaTypes": ANY,
        },
    )
    registry.blobs[digest(config)] = config
    stubber.add_response(
        "get_download_url_for_layer",
        {"downloadUrl": f"{registry.url}/blobs/{digest(config)}"},
        {"registryId": "210987654321", "repositoryName": REPOSITORY, "layerDigest": digest(config)},
    )
    pinned = request(tag=None, digest=digest(manifest.encode()), registry_id="210987654321")
    assert BidiImage(client).ensure(pinned)["ImageDigest"] == digest(manifest.encode())


def test_properties_need_exactly_one_of_tag_and_digest() -> None:
    base = {"RepositoryName": REPOSITORY, "RepositoryUri": REPOSITORY_URI, "Label": BIDI_LABEL}
    with pytest.raises(ImageError, match="exactly one of ImageTag and ImageDigest"):
        ImageRequest.from_properties(base)
    with pytest.raises(ImageError, match="exactly one of ImageTag and ImageDigest"):
        ImageRequest.from_properties({**base, "ImageTag": TAG, "ImageDigest": "sha256:" + "e" * 64})
    with pytest.raises(ImageError, match="property 'Label' is missing"):
        ImageRequest.from_properties({"RepositoryName": REPOSITORY, "RepositoryUri": REPOSITORY_URI})


def test_delete_keeps_the_image_for_rollbacks() -> None:
    event = {
        "RequestType": "Delete",
        "PhysicalResourceId": f"{REPOSITORY_URI}@sha256:{'f' * 64}",
        "ResourceProperties": {},
    }
    assert on_event(event) == {"PhysicalResourceId": event["PhysicalResourceId"]}


@pytest.mark.parametrize("request_type", ["Create", "Update"])
def test_create_and_update_events_return_the_pinned_uri_as_physical_id(
    ecr, registry, monkeypatch, request_type
) -> None:
    client, stubber = ecr
    config = image_config({BIDI_LABEL: "true"})
    manifest = single_manifest(config)
    expect_manifest(stubber, {"imageTag": TAG}, manifest, DOCKER_MANIFEST)
    expect_blob(stubber, registry, config)
    monkeypatch.setattr("stacks.handlers.bidi_image.boto3.client", lambda service: client)
    properties = {
        "ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:provider",
        "RepositoryName": REPOSITORY,
        "RepositoryUri": REPOSITORY_URI,
        "ImageTag": TAG,
        "Label": BIDI_LABEL,
    }
    event = {"RequestType": request_type, "ResourceProperties": properties}
    if request_type == "Update":
        event |= {"PhysicalResourceId": f"{REPOSITORY_URI}@sha256:{'0' * 64}", "OldResourceProperties": properties}
    response = on_event(event)
    pinned = f"{REPOSITORY_URI}@{digest(manifest.encode())}"
    assert response == {
        "PhysicalResourceId": pinned,
        "Data": {
            "ImageUri": pinned,
            "ImageDigest": digest(manifest.encode()),
            "LabelAdded": "false",
            "ManifestConverted": "false",
        },
    }
