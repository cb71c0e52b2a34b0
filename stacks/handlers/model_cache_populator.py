"""Custom resource: fill an S3 prefix with the pinned Kokoro-82M files in the model-cache layout.

Each file is streamed from the hub at the pinned revision, hashed while it streams, and
uploaded (multipart for large files); a file whose bytes or size do not match what was pinned
fails the deployment and is never completed in S3. ``manifest.json`` is written last, so a
prefix with a manifest is complete and a failed run leaves none behind. A complete, matching
prefix is left alone, so redeploying costs nothing.

A Lambda function has at most 15 minutes. When the transfer rate so far says the files cannot
arrive in the time this invocation has left, it fails at once with a message that says so and
how to fill the cache another way, rather than being cut off without an answer.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.client import HTTPException
from typing import Any

import boto3
from botocore.exceptions import ClientError

from kokoro_core.model_cache import MANIFEST_NAME, FileEntry, Manifest, ModelCacheError
from kokoro_core.model_cache_s3 import S3ModelCache

from .hub import HubClient, HubError, read_parts

LOG = logging.getLogger()
LOG.setLevel(logging.INFO)
PART_BYTES = 64 * 1024 * 1024
ANSWER_SECONDS = 30  # kept back from the function's time limit: enough to fail cleanly and answer CloudFormation
PACE_SAMPLE_SECONDS = 5  # the transfer rate is judged only after this long, so one slow start does not decide


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
    hub_token_secret_arn: str | None = None

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
                hub_token_secret_arn=properties.get("HubTokenSecretArn") or None,
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
    hub = HubClient(request.hub_endpoint, token=hub_token(request.hub_token_secret_arn))
    remaining = (lambda: context.get_remaining_time_in_millis() / 1000) if context is not None else None
    manifest = Populator(boto3.client("s3"), hub, remaining_seconds=remaining).populate(request)
    return {
        "PhysicalResourceId": f"s3://{request.bucket}/{request.prefix}",
        "Data": {
            "Prefix": request.prefix,
            "ManifestKey": request.prefix + MANIFEST_NAME,
            "Source": manifest.source,
            "Files": str(len(manifest.files)),
        },
    }


def hub_token(secret_arn: str | None) -> str | None:
    """The hub token stored in Secrets Manager: the secret string, or its "token" field if it is JSON."""
    if secret_arn is None:
        return None
    try:
        secret = boto3.client("secretsmanager").get_secret_value(SecretId=secret_arn)["SecretString"]
    except ClientError as error:
        raise PopulateError(
            f"could not read the hub token secret {secret_arn}: {error.response.get('Error', {}).get('Message', error)}"
        ) from error
    try:
        document = json.loads(secret)
    except json.JSONDecodeError:
        return secret.strip()
    if isinstance(document, dict) and isinstance(document.get("token"), str):
        return document["token"].strip()
    raise PopulateError(
        f'secret {secret_arn} is JSON without a "token" string; store the token itself or {{"token": ...}}'
    )


class Pace:
    """Watches a transfer against the time left, and stops it early when it cannot finish in time."""

    def __init__(self, remaining_seconds: Callable[[], float], total_bytes: int, cache_url: str, prefix: str):
        self.remaining_seconds = remaining_seconds
        self.total_bytes = total_bytes
        self.cache_url = cache_url
        self.prefix = prefix
        self.started = time.monotonic()
        self.done_bytes = 0

    def advance(self, transferred: int) -> None:
        self.done_bytes += transferred
        left = self.remaining_seconds() - ANSWER_SECONDS
        elapsed = time.monotonic() - self.started
        rate = self.done_bytes / elapsed if elapsed > 0 else 0.0
        if left <= 0 or (elapsed >= PACE_SAMPLE_SECONDS and (self.total_bytes - self.done_bytes) > rate * left):
            needed = (self.total_bytes - self.done_bytes) / rate if rate else float("inf")
            bucket = self.cache_url.removeprefix("s3://").split("/", 1)[0]
            raise PopulateError(
                f"model cache {self.cache_url}: at {rate / 1e6:.1f} MB/s the remaining "
                f"{(self.total_bytes - self.done_bytes) / 1e6:.0f} MB need about {needed:.0f} s, but this deployment "
                f"step has {max(left, 0):.0f} s left (a Lambda function runs at most 15 minutes). Fill the cache "
                f"from a machine with a faster link instead: kokoro-stream cache push MODEL_DIR --bucket {bucket} "
                f"--prefix {self.prefix}, then deploy with -c populate_model_cache=false -c model_prefix={self.prefix}"
            )


class Populator:
    def __init__(
        self,
        s3: Any,
        hub: HubClient,
        part_bytes: int = PART_BYTES,
        remaining_seconds: Callable[[], float] | None = None,
    ):
        self.s3 = s3
        self.hub = hub
        self.part_bytes = part_bytes
        self.remaining_seconds = remaining_seconds  # this invocation's time left; None: no limit

    def populate(self, request: CacheRequest) -> Manifest:
        cache = S3ModelCache(self.s3, request.bucket, request.prefix)
        try:
            manifest = self.desired_manifest(request)
            if cache.prepare(manifest):
                LOG.info("%s is complete and matches; nothing to do", cache.url)
                return manifest
            missing = {}
            for name, entry in sorted(manifest.files.items()):
                if cache.holds(name, entry):
                    LOG.info("%s already in place", name)
                else:
                    missing[name] = entry
            pace = None
            if self.remaining_seconds is not None:
                total = sum(entry.bytes for entry in missing.values())
                pace = Pace(self.remaining_seconds, total, cache.url, request.prefix)
            for name, entry in missing.items():
                LOG.info("transferring %s (%s bytes)", name, entry.bytes)
                with self.hub.open(request.repo, request.revision, name) as stream:
                    self.upload_verified(stream, cache, name, entry, pace.advance if pace else None)
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

    def upload_verified(
        self,
        stream: Any,
        cache: S3ModelCache,
        name: str,
        entry: FileEntry,
        progress: Callable[[int], None] | None = None,
    ) -> None:
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

        parts = read_parts(stream, self.part_bytes, progress)
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
