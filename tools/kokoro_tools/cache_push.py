"""Upload a local model directory (model-cache layout) to S3, for accounts whose Lambda
functions cannot reach the hub: every file is verified against the manifest first, files
already in place are kept, and the manifest is written last."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from kokoro_core.model_cache import cache_prefix, verify_directory
from kokoro_core.model_cache_s3 import S3ModelCache


@dataclass(frozen=True)
class PushResult:
    url: str
    uploaded: list[str]
    kept: list[str]
    already_complete: bool


def push(directory: Path, s3: Any, bucket: str, prefix: str | None = None, progress: bool = True) -> PushResult:
    manifest = verify_directory(directory)
    cache = S3ModelCache(s3, bucket, prefix or cache_prefix(manifest.source, list(manifest.files)))
    if cache.prepare(manifest):
        return PushResult(cache.url, uploaded=[], kept=sorted(manifest.files), already_complete=True)
    missing = {name: entry for name, entry in sorted(manifest.files.items()) if not cache.holds(name, entry)}
    with tqdm(
        total=sum(entry.bytes for entry in missing.values()),
        unit="B",
        unit_scale=True,
        desc=f"upload to {cache.url}",
        disable=not progress,
    ) as bar:
        for name, entry in missing.items():
            s3.upload_file(
                str(directory / name),
                bucket,
                cache.key(name),
                ExtraArgs={"Metadata": cache.metadata(entry)},
                Callback=bar.update,
            )
    cache.complete(manifest)
    kept = sorted(set(manifest.files) - set(missing))
    return PushResult(cache.url, uploaded=sorted(missing), kept=kept, already_complete=False)
