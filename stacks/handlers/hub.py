"""A small Hugging Face hub client: file metadata at a commit and streamed downloads.

Standard library only (it runs in the cache-populating Lambda function). ``endpoint`` is the
hub's base URL, so a mirror, or a loopback server in tests, can stand in for the public hub.

A busy hub answers 429 or 503 with ``Retry-After``; the client waits as long as it is told (or
backs off exponentially), up to a bounded total wait, so a rate limit delays a deployment
without failing it, and a hub that stays unavailable fails it in bounded time. An optional
token authenticates to gated or rate-limited mirrors; it is never sent on to a redirect's host.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from http.client import HTTPException
from typing import BinaryIO, TypeVar
from urllib.parse import quote

USER_AGENT = "kokoro-sagemaker-streaming/model-cache"
TRANSIENT_STATUS = {408, 429, 500, 502, 503, 504}
READ_BYTES = 1024 * 1024  # how much a download reads at a time; progress is reported at this grain
T = TypeVar("T")


class HubError(RuntimeError):
    """The hub refused a request or answered something unusable."""


@dataclass(frozen=True)
class HubFile:
    path: str
    bytes: int
    sha256: str | None  # the LFS object id; None for files stored in git itself


class HubClient:
    def __init__(
        self,
        endpoint: str,
        token: str | None = None,
        attempts: int = 8,
        timeout_seconds: float = 60.0,
        backoff_seconds: float = 2.0,
        max_wait_seconds: float = 180.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.endpoint = endpoint.rstrip("/")
        self.token = token
        self.attempts = attempts
        self.timeout_seconds = timeout_seconds
        self.backoff_seconds = backoff_seconds
        self.max_wait_seconds = max_wait_seconds  # all retries of one request together wait at most this
        self.sleep = sleep

    def _request(self, url: str, data: bytes | None = None, method: str | None = None) -> urllib.request.Request:
        request = urllib.request.Request(url, data=data, method=method, headers={"User-Agent": USER_AGENT})
        if self.token:
            # Unredirected: the hub redirects downloads to a CDN on another host, which must not see the token.
            request.add_unredirected_header("Authorization", f"Bearer {self.token}")
        return request

    def file_info(self, repo: str, revision: str, paths: list[str]) -> dict[str, HubFile]:
        """Sizes and LFS sha256 of ``paths`` at ``revision``, from the hub's paths-info API."""
        url = f"{self.endpoint}/api/models/{repo}/paths-info/{revision}"
        body = json.dumps({"paths": paths, "expand": True}).encode()

        def ask() -> list[dict]:
            request = self._request(url, data=body, method="POST")
            request.add_header("Content-Type", "application/json")
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
        # A new request each attempt: urllib counts a request's redirects across attempts and calls a loop.
        return self.retrying(
            lambda: urllib.request.urlopen(self._request(url), timeout=self.timeout_seconds),
            f"{path} from {repo}@{revision}",
        )

    def retrying(self, call: Callable[[], T], what: str) -> T:
        """Run ``call``, retrying transient network and server errors as the hub asks, in bounded time."""
        waited = 0.0
        for attempt in range(1, self.attempts + 1):
            try:
                return call()
            except urllib.error.HTTPError as error:
                if error.code in (401, 403) and not self.token:
                    raise HubError(
                        f"hub refused {what}: HTTP {error.code} {error.reason}; a gated or private repository "
                        "needs a token: put one in a Secrets Manager secret and deploy with -c hub_token_secret_arn=ARN"
                    ) from error
                if error.code not in TRANSIENT_STATUS or attempt == self.attempts:
                    raise HubError(f"hub refused {what}: HTTP {error.code} {error.reason}") from error
                wait = retry_after_seconds(error.headers.get("Retry-After")) if error.headers else None
                failure = f"HTTP {error.code} {error.reason}"
            except (urllib.error.URLError, HTTPException, OSError) as error:
                if attempt == self.attempts:
                    raise HubError(f"could not fetch {what} after {attempt} attempts: {error}") from error
                wait, failure = None, str(error)
            if wait is None:
                wait = self.backoff_seconds * 2 ** (attempt - 1)
            if waited + wait > self.max_wait_seconds:
                raise HubError(
                    f"could not fetch {what}: still {failure} after {attempt} attempts and {waited:.0f} s of waiting "
                    f"(the next wait, {wait:.0f} s, would pass the {self.max_wait_seconds:.0f} s bound): retry the "
                    "deployment later, or use a token (-c hub_token_secret_arn) for a higher rate limit"
                )
            self.sleep(wait)
            waited += wait
        raise AssertionError("unreachable")


def retry_after_seconds(value: str | None) -> float | None:
    """``Retry-After`` as seconds to wait: delay-seconds or an HTTP date; None if absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def read_parts(stream: BinaryIO, part_bytes: int, progress: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """Yield ``part_bytes``-sized pieces of a stream (the last may be shorter); ``progress`` gets each read's size."""
    while True:
        part = bytearray()
        while len(part) < part_bytes:
            chunk = stream.read(min(READ_BYTES, part_bytes - len(part)))
            if not chunk:
                break
            part += chunk
            if progress is not None:
                progress(len(chunk))
        if not part:
            return
        yield bytes(part)
        if len(part) < part_bytes:
            return
