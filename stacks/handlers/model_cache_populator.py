"""Custom resource: fill an S3 prefix with the pinned Kokoro-82M files in the model-cache layout.

Each file is streamed from the hub at the pinned revision, hashed while it streams, and
uploaded (multipart for large files); a file whose bytes or size do not match what was pinned
fails the deployment and is never completed in S3. ``manifest.json`` is written last, so a
prefix with a manifest is complete and a failed run leaves none behind. A complete, matching
prefix is left alone, so redeploying costs nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
from dataclasses import dataclass
from http.client import HTTPException
from typing import Any

import boto3
from botocore.exceptions import ClientError

from kokoro_server.model_cache import MANIFEST_NAME, FileEntry, Manifest, ModelCacheError
from kokoro_server.model_cache_s3 import S3ModelCache

from .hub import HubClient, HubError, read_parts

LOG = logging.getLogger()
LOG.setLevel(logging.INFO)
PART_BYTES = 64 * 1024 * 1024


class PopulateError(RuntimeError):
    """The cache could not be filled; the message is the deployment's failure reason."""


@dataclass(frozen=True)
class CacheRequest:
    bucket: str
    prefix: str
    repo: str
    revision: str
    files: dict[str, dict[str, Any]]  # name -> {"bytes"?: int, "sha256"?: str}
    onnx: str
    voices: str
    default_voice: str
    hub_endpoint: str

    @classmethod
    def from_properties(cls, properties: dict[str, Any]) -> CacheRequest:
        try:
            return cls(
                bucket=properties["Bucket"],
                prefix=properties["Prefix"],
                repo=properties["Repo"],
                revision=properties["Revision"],
                files=properties["Files"],
                onnx=properties["Onnx"],
                voices=properties["Voices"],
                default_voice=properties["DefaultVoice"],
                hub_endpoint=properties["HubEndpoint"],
            )
        except KeyError as error:
            raise PopulateError(f"custom resource property {error} is missing") from error

    @property
    def source(self) -> str:
        return f"{self.repo}@{self.revision}"


def on_event(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    """Provider-framework entry point."""
    request_type = event["RequestType"]
    if request_type == "Delete":
        # The files stay: an endpoint being rolled back may still read them, and the
        # bucket's removal policy decides what happens to them with the stack.
        return {"PhysicalResourceId": event["PhysicalResourceId"]}
    request = CacheRequest.from_properties(event["ResourceProperties"])
    populator = Populator(boto3.client("s3"), HubClient(request.hub_endpoint))
    manifest = populator.populate(request)
    return {
        "PhysicalResourceId": f"s3://{request.bucket}/{request.prefix}",
        "Data": {
            "Prefix": request.prefix,
            "ManifestKey": request.prefix + MANIFEST_NAME,
            "Source": manifest.source,
            "Files": str(len(manifest.files)),
        },
    }


class Populator:
    def __init__(self, s3: Any, hub: HubClient, part_bytes: int = PART_BYTES):
        self.s3 = s3
        self.hub = hub
        self.part_bytes = part_bytes

    def populate(self, request: CacheRequest) -> Manifest:
        cache = S3ModelCache(self.s3, request.bucket, request.prefix)
        try:
            manifest = self.desired_manifest(request)
            if cache.prepare(manifest):
                LOG.info("%s is complete and matches; nothing to do", cache.url)
                return manifest
            for name, entry in sorted(manifest.files.items()):
                if cache.holds(name, entry):
                    LOG.info("%s already in place", name)
                    continue
                LOG.info("transferring %s (%s bytes)", name, entry.bytes)
                with self.hub.open(request.repo, request.revision, name) as stream:
                    self.upload_verified(stream, cache, name, entry)
            cache.complete(manifest)
            LOG.info("wrote %s files and the manifest to %s", len(manifest.files), cache.url)
            return manifest
        except (HubError, ModelCacheError) as error:
            raise PopulateError(f"model cache {cache.url}: {error}") from error
        except (OSError, HTTPException) as error:
            # A download that broke off mid-stream; the partial upload was aborted.
            raise PopulateError(f"model cache {cache.url}: download interrupted: {error!r}") from error
        except ClientError as error:
            raise PopulateError(
                f"model cache {cache.url}: S3 refused "
                f"{error.operation_name}: {error.response.get('Error', {}).get('Message', error)}"
            ) from error

    def desired_manifest(self, request: CacheRequest) -> Manifest:
        """The manifest the prefix must end up with; sha256s not pinned come from the hub."""
        unpinned = sorted(name for name, spec in request.files.items() if not spec.get("sha256"))
        reported = self.hub.file_info(request.repo, request.revision, unpinned) if unpinned else {}
        entries = {}
        for name, spec in request.files.items():
            sha256 = spec.get("sha256")
            size = spec.get("bytes")
            if not sha256:
                hub_file = reported[name]
                if hub_file.sha256 is None:
                    raise PopulateError(
                        f"{name} is not an LFS file at {request.source}, so the hub reports no sha256 "
                        "for it: pin its sha256 in model_source"
                    )
                sha256 = hub_file.sha256
                if size is not None and int(size) != hub_file.bytes:
                    raise PopulateError(
                        f"{name} is {hub_file.bytes} bytes at {request.source}, but model_source pins {size}"
                    )
                size = hub_file.bytes
            if size is None:
                raise PopulateError(f"{name} has a pinned sha256 but no size: pin its bytes in model_source")
            entries[name] = FileEntry(sha256=sha256, bytes=int(size))
        return Manifest(
            source=request.source,
            files=entries,
            onnx=request.onnx,
            voices=request.voices,
            default_voice=request.default_voice,
        )

    def upload_verified(self, stream: Any, cache: S3ModelCache, name: str, entry: FileEntry) -> None:
        """Upload while hashing; complete the object only if every byte matches the pin."""
        bucket, key, metadata = cache.bucket, cache.key(name), cache.metadata(entry)
        digest = hashlib.sha256()
        size = 0

        def check() -> None:
            if size != entry.bytes or digest.hexdigest() != entry.sha256:
                raise PopulateError(
                    f"{name} from the hub does not match its pin: got {size} bytes with sha256 "
                    f"{digest.hexdigest()}, expected {entry.bytes} bytes with sha256 {entry.sha256}"
                )

        parts = read_parts(stream, self.part_bytes)
        if entry.bytes <= self.part_bytes:
            # A second part can only mean the file is longer than pinned; read no further.
            body = b"".join(itertools.islice(parts, 2))
            digest.update(body)
            size = len(body)
            check()
            self.s3.put_object(Bucket=bucket, Key=key, Body=body, Metadata=metadata)
            return
        upload_id = self.s3.create_multipart_upload(Bucket=bucket, Key=key, Metadata=metadata)["UploadId"]
        try:
            completed = []
            for number, part in enumerate(parts, start=1):
                digest.update(part)
                size += len(part)
                if size > entry.bytes:
                    break
                etag = self.s3.upload_part(Bucket=bucket, Key=key, UploadId=upload_id, PartNumber=number, Body=part)[
                    "ETag"
                ]
                completed.append({"PartNumber": number, "ETag": etag})
            check()
            self.s3.complete_multipart_upload(
                Bucket=bucket, Key=key, UploadId=upload_id, MultipartUpload={"Parts": completed}
            )
        except BaseException:
            self.s3.abort_multipart_upload(Bucket=bucket, Key=key, UploadId=upload_id)
            raise
