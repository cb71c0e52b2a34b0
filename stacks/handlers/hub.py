"""A small Hugging Face hub client: file metadata at a commit and streamed downloads.

Standard library only (it runs in the cache-populating Lambda function). ``endpoint`` is the
hub's base URL, so a mirror, or a loopback server in tests, can stand in for the public hub.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.client import HTTPException
from typing import BinaryIO, TypeVar
from urllib.parse import quote

USER_AGENT = "kokoro-sagemaker-streaming/model-cache"
TRANSIENT_STATUS = {408, 429, 500, 502, 503, 504}
T = TypeVar("T")


class HubError(RuntimeError):
    """The hub refused a request or answered something unusable."""


@dataclass(frozen=True)
class HubFile:
    path: str
    bytes: int
    sha256: str | None  # the LFS object id; None for files stored in git itself


class HubClient:
    def __init__(self, endpoint: str, attempts: int = 3, timeout_seconds: float = 60.0, backoff_seconds: float = 2.0):
        self.endpoint = endpoint.rstrip("/")
        self.attempts = attempts
        self.timeout_seconds = timeout_seconds
        self.backoff_seconds = backoff_seconds

    def file_info(self, repo: str, revision: str, paths: list[str]) -> dict[str, HubFile]:
        """Sizes and LFS sha256 of ``paths`` at ``revision``, from the hub's paths-info API."""
        url = f"{self.endpoint}/api/models/{repo}/paths-info/{revision}"
        body = json.dumps({"paths": paths, "expand": True}).encode()

        def ask() -> list[dict]:
            request = urllib.request.Request(
                url, data=body, method="POST", headers={"Content-Type": "application/json", "User-Agent": USER_AGENT}
            )
            with urllib.request.urlopen(request, timeout=self.timeout_seconds) as response:
                return json.loads(response.read())

        try:
            entries = self.retrying(ask, f"file information for {repo}@{revision}")
        except json.JSONDecodeError as error:
            raise HubError(f"hub answered paths-info for {repo}@{revision} with invalid JSON: {error}") from error
        found = {}
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict) or entry.get("type") != "file":
                continue
            lfs = entry.get("lfs") or {}
            sha256 = str(lfs["oid"]).removeprefix("sha256:") if lfs.get("oid") else None
            found[entry["path"]] = HubFile(path=entry["path"], bytes=int(entry["size"]), sha256=sha256)
        missing = sorted(set(paths) - set(found))
        if missing:
            raise HubError(f"{repo}@{revision} has no file(s) {', '.join(missing)}")
        return found

    def download_url(self, repo: str, revision: str, path: str) -> str:
        return f"{self.endpoint}/{repo}/resolve/{revision}/{quote(path)}"

    def open(self, repo: str, revision: str, path: str) -> BinaryIO:
        """Open a file's bytes at ``revision`` for streaming (redirects are followed)."""
        url = self.download_url(repo, revision, path)
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
        return self.retrying(
            lambda: urllib.request.urlopen(request, timeout=self.timeout_seconds), f"{path} from {repo}@{revision}"
        )

    def retrying(self, call: Callable[[], T], what: str) -> T:
        """Run ``call``, retrying transient network and server errors with backoff."""
        for attempt in range(1, self.attempts + 1):
            try:
                return call()
            except urllib.error.HTTPError as error:
                if error.code not in TRANSIENT_STATUS or attempt == self.attempts:
                    raise HubError(f"hub refused {what}: HTTP {error.code} {error.reason}") from error
            except (urllib.error.URLError, HTTPException, OSError) as error:
                if attempt == self.attempts:
                    raise HubError(f"could not fetch {what} after {attempt} attempts: {error}") from error
            time.sleep(self.backoff_seconds * attempt)
        raise AssertionError("unreachable")


def read_parts(stream: BinaryIO, part_bytes: int) -> Iterator[bytes]:
    """Yield ``part_bytes``-sized pieces of a stream (the last may be shorter)."""
    while True:
        part = bytearray()
        while len(part) < part_bytes:
            chunk = stream.read(part_bytes - len(part))
            if not chunk:
                break
            part += chunk
        if not part:
            return
        yield bytes(part)
        if len(part) < part_bytes:
            return
