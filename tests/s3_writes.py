"""Watch which S3 keys a client starts writing, in order (single PUTs and multipart uploads)."""

from __future__ import annotations

from typing import Any


def keys_written_in_order(s3: Any) -> list[str]:
    order: list[str] = []
    for operation in ("PutObject", "CreateMultipartUpload"):
        event = f"provide-client-params.s3.{operation}"
        s3.meta.events.register(event, lambda params, **_: order.append(params["Key"]))
    return order
