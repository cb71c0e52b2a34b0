"""A stand-in for boto3's ``sagemaker-runtime`` client that POSTs to a local server.

It answers ``invoke_endpoint_with_response_stream`` the way boto3 does (a ``Body`` iterating
``{"PayloadPart": {"Bytes": ...}}`` events; a 4xx as ``ClientError`` ModelError carrying the
container's body), so the POST transport and the benchmarks run unchanged against
``kokoro-stream serve``. ``cut`` makes PayloadParts fall at arbitrary byte boundaries, as the
service's do.
"""

from __future__ import annotations

import http.client
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from botocore.exceptions import ClientError


class LocalRuntimeClient:
    def __init__(self, url: str, cut: random.Random | None = None, max_part: int = 777) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 8080
        self._cut = cut
        self._max_part = max_part
        self.calls: list[dict[str, Any]] = []

    def invoke_endpoint_with_response_stream(self, **arguments: Any) -> dict[str, Any]:
        self.calls.append(arguments)
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        headers = {"Content-Type": arguments.get("ContentType", "application/json")}
        connection.request("POST", "/invocations", arguments["Body"], headers)
        response = connection.getresponse()
        if response.status != 200:
            body = response.read().decode(errors="replace")
            error = {"Error": {"Code": "ModelError", "Message": f"status {response.status}"}, "OriginalMessage": body}
            raise ClientError(error, "InvokeEndpointWithResponseStream")
        return {"Body": _Body(response, connection, self._cut, self._max_part)}


class _Body:
    def __init__(
        self, response: http.client.HTTPResponse, connection: http.client.HTTPConnection, cut, max_part
    ) -> None:
        self._response = response
        self._connection = connection
        self._cut = cut
        self._max_part = max_part

    def __iter__(self) -> Iterator[dict[str, Any]]:
        while data := self._response.read1(65536):
            while data:
                size = self._cut.randint(1, min(len(data), self._max_part)) if self._cut else len(data)
                yield {"PayloadPart": {"Bytes": data[:size]}}
                data = data[size:]
        self._connection.close()

    def close(self) -> None:
        self._connection.close()
