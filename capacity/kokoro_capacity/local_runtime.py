"""The POST route to a local server, answered in the shape of boto3's ``sagemaker-runtime``
client: ``invoke_endpoint_with_response_stream`` returns a ``Body`` of ``{"PayloadPart": {"Bytes": ...}}``
events, and a 4xx raises ``ClientError`` ModelError carrying the container's body.

It lets the POST route of ``capacity measure`` and of the bench run unchanged against ``kokoro-stream serve``
over a plain HTTP POST, as their bidirectional route reaches the server over a plain WebSocket: neither pays a
hop the other does not. To measure the SageMaker clients themselves, give ``--endpoint`` through
``kokoro-stream emulate``.
"""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from botocore.exceptions import ClientError

LOCAL_ENDPOINT = "local"  # the endpoint name a local server's POST route is addressed by


class LocalRuntimeClient:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 8080

    def invoke_endpoint_with_response_stream(self, **arguments: Any) -> dict[str, Any]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        headers = {"Content-Type": arguments.get("ContentType", "application/json")}
        connection.request("POST", "/invocations", arguments["Body"], headers)
        response = connection.getresponse()
        if response.status != 200:
            body = response.read().decode(errors="replace")
            error = {"Error": {"Code": "ModelError", "Message": f"status {response.status}"}, "OriginalMessage": body}
            raise ClientError(error, "InvokeEndpointWithResponseStream")
        return {"Body": _Body(response, connection)}


class _Body:
    def __init__(self, response: http.client.HTTPResponse, connection: http.client.HTTPConnection) -> None:
        self._response = response
        self._connection = connection

    def __iter__(self) -> Iterator[dict[str, Any]]:
        while data := self._response.read1(65536):
            yield {"PayloadPart": {"Bytes": data}}
        self._connection.close()

    def close(self) -> None:
        self._connection.close()
