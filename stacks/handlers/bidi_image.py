"""Custom resource: turn on SageMaker bidirectional streaming for a pushed image.

SageMaker enables ``/invocations-bidirectional-stream`` only for images whose config carries
the label ``com.amazonaws.sagemaker.capabilities.bidirectional-streaming=true``; no API or
CloudFormation property does it. This handler resolves the pushed image to one linux/amd64
manifest (buildx pushes an OCI index with attestation manifests by default, which SageMaker
cannot use), checks the label in the image config and, where it is missing, writes a new
config with the label. SageMaker's CreateModel also refuses OCI image manifests, which Docker
Desktop and Docker Engine 29 push by default: an OCI image is rewritten as the equivalent Docker
v2 schema 2 manifest (same config and layer blobs, Docker media types). Whatever is written goes
under a derived tag, and the handler returns a digest-pinned URI, so the SageMaker model always
runs exactly the image that was checked.

Standard library and boto3 only.
"""

from __future__ import annotations

import hashlib
import json
import logging
import urllib.request
from dataclasses import dataclass
from typing import Any

import boto3
from botocore.exceptions import ClientError

LOG = logging.getLogger()
LOG.setLevel(logging.INFO)

DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
SINGLE = (DOCKER_MANIFEST, OCI_MANIFEST)
INDEXES = (DOCKER_LIST, OCI_INDEX)
PLATFORM = ("linux", "amd64")
DOCKER_GZIP_LAYER = "application/vnd.docker.image.rootfs.diff.tar.gzip"
DOCKER_FOREIGN_LAYER = "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip"
# Layer media types a Docker v2 schema 2 manifest can carry, by the type an image may have.
DOCKER_LAYER_TYPES = {
    DOCKER_GZIP_LAYER: DOCKER_GZIP_LAYER,
    DOCKER_FOREIGN_LAYER: DOCKER_FOREIGN_LAYER,
    "application/vnd.oci.image.layer.v1.tar+gzip": DOCKER_GZIP_LAYER,
    "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip": DOCKER_FOREIGN_LAYER,
}
REBUILD_HINT = (
    "rebuild with gzip layers and no attestations: docker buildx build --platform linux/amd64 --provenance=false "
    "--output type=image,oci-mediatypes=false,compression=gzip,force-compression=true"
)


class ImageError(RuntimeError):
    """The image cannot be made usable; the message is the deployment's failure reason."""


@dataclass(frozen=True)
class ImageRequest:
    repository: str
    repository_uri: str
    tag: str | None
    digest: str | None
    label: str
    registry_id: str | None = None

    @classmethod
    def from_properties(cls, properties: dict[str, Any]) -> ImageRequest:
        try:
            request = cls(
                repository=properties["RepositoryName"],
                repository_uri=properties["RepositoryUri"],
                tag=properties.get("ImageTag") or None,
                digest=properties.get("ImageDigest") or None,
                label=properties["Label"],
                registry_id=properties.get("RegistryId") or None,
            )
        except KeyError as error:
            raise ImageError(f"custom resource property {error} is missing") from error
        if (request.tag is None) == (request.digest is None):
            raise ImageError("give exactly one of ImageTag and ImageDigest")
        return request

    @property
    def reference(self) -> str:
        return f"{self.repository}:{self.tag}" if self.tag else f"{self.repository}@{self.digest}"

    @property
    def derived_tag(self) -> str:
        base = self.tag if self.tag else "sha256-" + str(self.digest).removeprefix("sha256:")[:32]
        return f"{base[:120]}-bidi"


def on_event(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    """Provider-framework entry point."""
    if event["RequestType"] == "Delete":
        # The image stays: a rollback of the SageMaker model may still need it.
        return {"PhysicalResourceId": event["PhysicalResourceId"]}
    request = ImageRequest.from_properties(event["ResourceProperties"])
    result = BidiImage(boto3.client("ecr")).ensure(request)
    return {"PhysicalResourceId": result["ImageUri"], "Data": result}


class BidiImage:
    def __init__(self, ecr: Any, timeout_seconds: float = 60.0):
        self.ecr = ecr
        self.timeout_seconds = timeout_seconds

    def ensure(self, request: ImageRequest) -> dict[str, str]:
        try:
            return self._ensure(request)
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            message = error.response.get("Error", {}).get("Message", str(error))
            raise ImageError(
                f"ECR refused {error.operation_name} for {request.reference}: {code}: {message}"
            ) from error

    def _ensure(self, request: ImageRequest) -> dict[str, str]:
        image_id = {"imageTag": request.tag} if request.tag else {"imageDigest": str(request.digest)}
        manifest_text, media_type, digest = self.get_manifest(request, image_id)
        from_index = media_type in INDEXES
        if from_index:
            digest = self.pick_platform(request, json.loads(manifest_text))
            manifest_text, media_type, digest = self.get_manifest(request, {"imageDigest": digest})
        if media_type not in SINGLE:
            raise ImageError(
                f"{request.reference} has manifest media type {media_type!r}; supported: {', '.join(SINGLE + INDEXES)}"
            )
        manifest = json.loads(manifest_text)
        converted = media_type != DOCKER_MANIFEST
        docker_manifest = as_docker_manifest(manifest, request.reference)
        config_digest = manifest["config"]["digest"]
        config = json.loads(self.download_blob(request, config_digest))
        labels = (config.get("config") or {}).get("Labels") or {}
        if labels.get(request.label) == "true":
            if converted:
                digest = self.put_manifest(request, _compact(docker_manifest))
                LOG.info("%s carries %s=true; rewrote its OCI manifest for SageMaker", request.reference, request.label)
            elif from_index:
                # Give the chosen manifest a tag of its own so it is not an orphan of the index.
                self.put_manifest(request, manifest_text)
            LOG.info("%s carries %s=true", request.reference, request.label)
            return self.result(request, digest, label_added=False, converted=converted)

        config.setdefault("config", {})
        config["config"] = dict(config["config"] or {})
        config["config"]["Labels"] = {**labels, request.label: "true"}
        config_bytes = json.dumps(config, separators=(",", ":")).encode()
        new_config_digest = "sha256:" + hashlib.sha256(config_bytes).hexdigest()
        self.upload_blob(request, new_config_digest, config_bytes)
        docker_manifest["config"] = {
            **docker_manifest["config"],
            "digest": new_config_digest,
            "size": len(config_bytes),
        }
        new_digest = self.put_manifest(request, _compact(docker_manifest))
        LOG.info("labelled %s as %s@%s", request.reference, request.repository, new_digest)
        return self.result(request, new_digest, label_added=True, converted=converted)

    def result(self, request: ImageRequest, digest: str, label_added: bool, converted: bool) -> dict[str, str]:
        return {
            "ImageUri": f"{request.repository_uri}@{digest}",
            "ImageDigest": digest,
            "LabelAdded": "true" if label_added else "false",
            "ManifestConverted": "true" if converted else "false",
        }

    def registry(self, request: ImageRequest) -> dict[str, str]:
        return {"registryId": request.registry_id} if request.registry_id else {}

    def get_manifest(self, request: ImageRequest, image_id: dict[str, str]) -> tuple[str, str, str]:
        response = self.ecr.batch_get_image(
            repositoryName=request.repository,
            imageIds=[image_id],
            acceptedMediaTypes=list(SINGLE + INDEXES),
            **self.registry(request),
        )
        images = response.get("images") or []
        if not images:
            failure = (response.get("failures") or [{}])[0]
            raise ImageError(
                f"image {request.repository} {image_id} not found: "
                f"{failure.get('failureCode', 'unknown')} {failure.get('failureReason', '')}".rstrip()
            )
        image = images[0]
        text = image["imageManifest"]
        media_type = image.get("imageManifestMediaType") or json.loads(text).get("mediaType", "")
        return text, media_type, image["imageId"]["imageDigest"]

    def pick_platform(self, request: ImageRequest, index: dict[str, Any]) -> str:
        """The one linux/amd64 image of an index, skipping attestation manifests."""
        candidates = []
        seen = []
        for entry in index.get("manifests", []):
            platform = entry.get("platform") or {}
            annotations = entry.get("annotations") or {}
            seen.append(f"{platform.get('os', '?')}/{platform.get('architecture', '?')}")
            if annotations.get("vnd.docker.reference.type") == "attestation-manifest":
                continue
            if (platform.get("os"), platform.get("architecture")) == PLATFORM:
                candidates.append(entry["digest"])
        if len(candidates) != 1:
            raise ImageError(
                f"{request.reference} is an index holding {len(candidates)} linux/amd64 images "
                f"(platforms: {', '.join(seen) or 'none'}); SageMaker needs exactly one: build with "
                "--platform linux/amd64"
            )
        return candidates[0]

    def download_blob(self, request: ImageRequest, digest: str) -> bytes:
        url = self.ecr.get_download_url_for_layer(
            repositoryName=request.repository, layerDigest=digest, **self.registry(request)
        )["downloadUrl"]
        try:
            with urllib.request.urlopen(url, timeout=self.timeout_seconds) as response:
                blob = response.read()
        except OSError as error:
            raise ImageError(f"could not download the image config {digest} of {request.reference}: {error}") from error
        actual = "sha256:" + hashlib.sha256(blob).hexdigest()
        if actual != digest:
            raise ImageError(f"image config of {request.reference} is corrupt: expected {digest}, got {actual}")
        return blob

    def upload_blob(self, request: ImageRequest, digest: str, blob: bytes) -> None:
        available = self.ecr.batch_check_layer_availability(
            repositoryName=request.repository, layerDigests=[digest], **self.registry(request)
        )
        if any(layer.get("layerAvailability") == "AVAILABLE" for layer in available.get("layers", [])):
            return
        upload_id = self.ecr.initiate_layer_upload(repositoryName=request.repository, **self.registry(request))[
            "uploadId"
        ]
        self.ecr.upload_layer_part(
            repositoryName=request.repository,
            uploadId=upload_id,
            partFirstByte=0,
            partLastByte=len(blob) - 1,
            layerPartBlob=blob,
            **self.registry(request),
        )
        try:
            self.ecr.complete_layer_upload(
                repositoryName=request.repository, uploadId=upload_id, layerDigests=[digest], **self.registry(request)
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "LayerAlreadyExistsException":
                raise

    def put_manifest(self, request: ImageRequest, manifest_text: str) -> str:
        """Store a Docker manifest under the derived tag; rerunning with the same manifest is a no-op."""
        digest = "sha256:" + hashlib.sha256(manifest_text.encode()).hexdigest()
        try:
            response = self.ecr.put_image(
                repositoryName=request.repository,
                imageManifest=manifest_text,
                imageManifestMediaType=DOCKER_MANIFEST,
                imageTag=request.derived_tag,
                **self.registry(request),
            )
            return response["image"]["imageId"]["imageDigest"]
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ImageAlreadyExistsException":
                return digest
            raise


def as_docker_manifest(manifest: dict[str, Any], reference: str) -> dict[str, Any]:
    """The Docker v2 schema 2 form of a single-image manifest: same blobs, Docker media types.

    OCI-only fields (annotations, subject, artifactType) have no Docker equivalent and are dropped;
    they describe the manifest, not what the container runs.
    """
    layers = []
    for number, layer in enumerate(manifest.get("layers") or [], start=1):
        media_type = layer.get("mediaType", "")
        if media_type not in DOCKER_LAYER_TYPES:
            raise ImageError(
                f"layer {number} of {reference} has media type {media_type!r}; SageMaker runs only gzip-compressed "
                f"layers ({', '.join(sorted(DOCKER_LAYER_TYPES))}): {REBUILD_HINT}"
            )
        layers.append(
            {
                "mediaType": DOCKER_LAYER_TYPES[media_type],
                "size": layer["size"],
                "digest": layer["digest"],
                **({"urls": layer["urls"]} if layer.get("urls") else {}),
            }
        )
    config = manifest["config"]
    return {
        "schemaVersion": 2,
        "mediaType": DOCKER_MANIFEST,
        "config": {"mediaType": DOCKER_CONFIG, "size": config["size"], "digest": config["digest"]},
        "layers": layers,
    }


def _compact(document: dict[str, Any]) -> str:
    return json.dumps(document, separators=(",", ":"))
