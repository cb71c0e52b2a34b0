"""A model cache under an S3 prefix: what is there, and writing it so it is never half complete.

Whoever fills a prefix (the populating Lambda function, ``kokoro-stream cache push``) follows
the same rules: a prefix whose manifest differs loses its manifest before anything changes;
a file already stored with the right size and sha256 is kept; the manifest goes in last.

Standard library only: the caller passes a boto3 S3 client (its error classes come with it).
"""

from __future__ import annotations

from typing import Any

from .model_cache import MANIFEST_NAME, FileEntry, Manifest

SHA256_METADATA = "sha256"
_MISSING = {"404", "NoSuchKey", "NotFound"}


class S3ModelCache:
    def __init__(self, s3: Any, bucket: str, prefix: str):
        if prefix and not prefix.endswith("/"):
            prefix += "/"
        self.s3 = s3
        self.bucket = bucket
        self.prefix = prefix

    @property
    def url(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}"

    def key(self, name: str) -> str:
        return self.prefix + name

    def prepare(self, manifest: Manifest) -> bool:
        """True when the prefix already holds exactly ``manifest``; otherwise mark it incomplete."""
        existing = self._read(self.key(MANIFEST_NAME))
        if existing is None:
            return False
        if existing.decode() == manifest.to_json():
            return True
        # The prefix is about to change: it must not look complete while it does.
        self.s3.delete_object(Bucket=self.bucket, Key=self.key(MANIFEST_NAME))
        return False

    def holds(self, name: str, entry: FileEntry) -> bool:
        """Whether ``name`` is stored with the pinned size and sha256 (recorded when it was verified)."""
        head = self._unless_missing(self.s3.head_object, Bucket=self.bucket, Key=self.key(name))
        return (
            head is not None
            and head["ContentLength"] == entry.bytes
            and head.get("Metadata", {}).get(SHA256_METADATA) == entry.sha256
        )

    def metadata(self, entry: FileEntry) -> dict[str, str]:
        return {SHA256_METADATA: entry.sha256}

    def complete(self, manifest: Manifest) -> None:
        """Write the manifest: only after every file is in place."""
        self.s3.put_object(
            Bucket=self.bucket,
            Key=self.key(MANIFEST_NAME),
            Body=manifest.to_json().encode(),
            ContentType="application/json",
        )

    def _read(self, key: str) -> bytes | None:
        response = self._unless_missing(self.s3.get_object, Bucket=self.bucket, Key=key)
        return None if response is None else response["Body"].read()

    def _unless_missing(self, call: Any, **params: Any) -> dict[str, Any] | None:
        """The response of an object request, or None when the object does not exist."""
        try:
            response: dict[str, Any] = call(**params)
            return response
        except self.s3.exceptions.ClientError as error:
            if error.response.get("Error", {}).get("Code") in _MISSING:
                return None
            raise
