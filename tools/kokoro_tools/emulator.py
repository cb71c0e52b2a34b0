"""A local stand-in for the SageMaker AI runtime in front of a speech server (`kokoro-stream emulate`).

It serves (hosted over HTTPS with HTTP/2 by ``emulator_host``) the three runtime operations this
project's clients call, in their wire formats:

- ``InvokeEndpoint``: ``POST /endpoints/{name}/invocations``, the container's answer as the body;
- ``InvokeEndpointWithResponseStream``: ``POST /endpoints/{name}/invocations-response-stream``, the
  container's answer as an event stream of ``PayloadPart`` messages;
- ``InvokeEndpointWithBidirectionalStream``: ``POST /endpoints/{name}/invocations-bidirectional-stream``,
  HTTP/2 only, event streams both ways, relayed to the container's WebSocket as SageMaker relays them:
  a UTF8 part is a text frame, a BINARY part a binary frame, PARTIAL parts one message; frames come
  back as parts with the DataType of their frame, and a close that is not 1000 as a ``ModelStreamError``.

What a client must get right is checked as the service checks it: a SigV4 ``Authorization`` scoped to
the service ``sagemaker`` in the emulator's region (the signature itself is not verified, so no real
credentials are needed), the endpoint's name, and on the bidirectional stream the event-stream content
type, event signing (``STREAMING-AWS4-HMAC-SHA256-EVENTS``, each event signed) and well-formed
framing. A container's refusal is answered as SageMaker answers it (424 ``ModelError`` with the
container's status and body), and ``Limits`` holds the service limits a client meets.

What it does not reproduce: signature verification, IAM, quotas and throttling, scaling, and the
network between a client and AWS.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from .event_stream import CONTENT_TYPE as EVENT_STREAM
from .event_stream import EventReader, FramingError, decode, exception_event, payload_part

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]
BIDIRECTIONAL = "invocations-bidirectional-stream"
_ROUTE = re.compile(
    r"^/endpoints/(?P<name>[^/]+)/(?P<operation>invocations|invocations-response-stream|" + BIDIRECTIONAL + r")$"
)
_CREDENTIAL = re.compile(r"Credential=[^/]+/\d{8}/(?P<region>[^/]+)/(?P<service>[^/]+)/aws4_request")
SIGNED_EVENTS = "STREAMING-AWS4-HMAC-SHA256-EVENTS"
VARIANT = "AllTraffic"
INPUT_GRACE_SECONDS = 1.0
TIMED_OUT = (
    "Your invocation timed out while waiting for a response from container primary. Review the latency "
    "metrics for each container in Amazon CloudWatch, resolve the issue, and try again."
)


@dataclass(frozen=True)
class Limits:
    """The service limits a client meets. The first two are SageMaker's documented ones; a bidirectional
    stream's lifetime and idle time are the service's to set and change, so they are off unless given:
    set them to see how client code copes with a stream that ends under it."""

    max_request_bytes: int = 6_291_456  # an invocation's body: 6 MB (the runtime API's BodyBlob maximum)
    invocation_seconds: float = 60.0  # a container must start answering an invocation within 60 s
    session_seconds: float | None = None  # a bidirectional stream ends this long after it opened
    idle_seconds: float | None = None  # ... or once nothing has crossed it either way for this long


class Refusal(Exception):
    """An answer SageMaker gives before any relaying: status, error type, message."""

    def __init__(self, status: int, error_type: str, message: str) -> None:
        super().__init__(message)
        self.status, self.error_type, self.message = status, error_type, message


@dataclass
class _Stream:
    """One bidirectional stream's state: when something last crossed it, and why it ended early."""

    last_activity: float = field(default_factory=time.monotonic)
    input_error: str | None = None
    input_ended: bool = False
    expired: bool = False

    def touch(self) -> None:
        self.last_activity = time.monotonic()


@dataclass
class Emulator:
    """The ASGI application; ``container`` is the speech server's base URL (http://host:port)."""

    container: str
    endpoint_name: str = "kokoro-tts"
    region: str = "us-east-1"
    # Parts of at most this many bytes, as SageMaker may cut them: a response stream's parts fall anywhere,
    # even inside a sample; a bidirectional stream's frames go out as PARTIAL parts and a COMPLETE one.
    max_part_bytes: int | None = None
    limits: Limits = field(default_factory=Limits)

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        headers = {key.decode().lower(): value.decode() for key, value in scope["headers"]}
        try:
            operation = self._check(scope, headers)
        except Refusal as refusal:
            await _json(send, refusal.status, {"message": refusal.message}, {"x-amzn-ErrorType": refusal.error_type})
            return
        if operation == BIDIRECTIONAL:
            await self._bidirectional(receive, send)
        else:
            await self._invoke(receive, send, headers, streamed=operation == "invocations-response-stream")

    def _check(self, scope: dict[str, Any], headers: dict[str, str]) -> str:
        method, path = scope["method"], scope["path"]
        route = _ROUTE.match(path)
        if method != "POST" or route is None:
            raise Refusal(404, "UnknownOperationException", f"{method} {path} is not a SageMaker runtime operation")
        credential = _CREDENTIAL.search(headers.get("authorization", ""))
        if credential is None:
            raise Refusal(403, "MissingAuthenticationTokenException", "Missing Authentication Token")
        if credential["service"] != "sagemaker":
            raise Refusal(
                403, "InvalidSignatureException", "Credential should be scoped to correct service: 'sagemaker'"
            )
        if credential["region"] != self.region:
            raise Refusal(
                403,
                "InvalidSignatureException",
                f"Credential should be scoped to a valid region, not '{credential['region']}'; this is {self.region}",
            )
        if route["name"] != self.endpoint_name:
            raise Refusal(400, "ValidationError", f"Endpoint {route['name']} of account 000000000000 not found.")
        if route["operation"] == BIDIRECTIONAL:
            _check_bidirectional(scope, headers)
        return route["operation"]

    async def _invoke(self, receive: Receive, send: Send, headers: dict[str, str], streamed: bool) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if len(body) > self.limits.max_request_bytes:
            message = f"Request body of {len(body)} bytes is over the {self.limits.max_request_bytes} bytes allowed."
            await _json(send, 413, {"message": message}, {"x-amzn-ErrorType": "ValidationError"})
            return
        content_type = headers.get("content-type", "application/octet-stream")
        async with aiohttp.ClientSession() as http:
            try:
                async with asyncio.timeout(self.limits.invocation_seconds):
                    answer = await http.post(
                        f"{self.container}/invocations", data=body, headers={"Content-Type": content_type}
                    )
                    # The whole answer for InvokeEndpoint; its first bytes for a response stream.
                    first = await (answer.content.readany() if streamed else answer.read())
            except TimeoutError:
                await _model_error(send, 0, TIMED_OUT, kind="server")
                return
            async with answer:
                if answer.status != 200:
                    await _model_error(send, answer.status, (first + await answer.read()).decode(errors="replace"))
                    return
                answer_type = answer.headers.get("Content-Type", "application/octet-stream")
                if not streamed:
                    extra = {"x-Amzn-Invoked-Production-Variant": VARIANT}
                    await _respond(send, 200, first, answer_type, extra)
                    return
                extra = {"X-Amzn-SageMaker-Content-Type": answer_type, "x-Amzn-Invoked-Production-Variant": VARIANT}
                await _start(send, 200, EVENT_STREAM, extra)
                data = first
                while data:
                    for part in self._parts(data):
                        await send({"type": "http.response.body", "body": payload_part(part), "more_body": True})
                    data = await answer.content.readany()
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _bidirectional(self, receive: Receive, send: Send) -> None:
        url = self.container.replace("http", "ws", 1) + "/" + BIDIRECTIONAL
        async with aiohttp.ClientSession() as http:
            try:
                ws = await http.ws_connect(url, max_msg_size=0)
            except aiohttp.ClientError as error:
                await _model_error(send, 502, f"cannot reach the container: {error}")
                return
            await _start(send, 200, EVENT_STREAM, {"x-Amzn-Invoked-Production-Variant": VARIANT})
            await send({"type": "http.response.body", "body": b"", "more_body": True})  # the headers go now
            stream = _Stream()
            upstream = asyncio.create_task(_client_to_container(receive, ws, stream))
            watchdog = asyncio.create_task(self._expire(ws, stream))
            try:
                async for frame in ws:
                    stream.touch()
                    if frame.type == aiohttp.WSMsgType.TEXT:
                        data, data_type = frame.data.encode(), "UTF8"
                    elif frame.type == aiohttp.WSMsgType.BINARY:
                        data, data_type = frame.data, "BINARY"
                    else:
                        break
                    parts = self._parts(data)
                    for index, piece in enumerate(parts):
                        completion = "COMPLETE" if index == len(parts) - 1 else "PARTIAL"
                        part = payload_part(piece, data_type, completion)
                        await send({"type": "http.response.body", "body": part, "more_body": True})
                if stream.input_error is not None:
                    # The stream's own error event (the response stream knows no other client fault).
                    await _event(send, exception_event("ModelStreamError", stream.input_error, "InputValidation"))
                elif not (stream.expired or stream.input_ended) and (code := ws.close_code or 1006) != 1000:
                    reason = f"the model container closed the stream with {code}"
                    await _event(send, exception_event("ModelStreamError", reason, str(code)))
            finally:
                watchdog.cancel()
                if not stream.input_ended:
                    # A client that closed the session ends its input in a moment: let it, so the stream
                    # ends from both sides instead of being reset under a write.
                    await asyncio.wait([upstream], timeout=INPUT_GRACE_SECONDS)
                upstream.cancel()
                await asyncio.gather(upstream, watchdog, return_exceptions=True)
                await ws.close()
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _parts(self, data: bytes) -> list[bytes]:
        """``data`` cut into parts of at most ``max_part_bytes`` (one part when no maximum is set; an empty
        frame is one empty part)."""
        size = self.max_part_bytes or max(1, len(data))
        return [data[start : start + size] for start in range(0, max(1, len(data)), size)]

    async def _expire(self, ws: aiohttp.ClientWebSocketResponse, stream: _Stream) -> None:
        """End the stream when it has lived or idled past the limits: the container's socket closes
        (1001, going away) and the client's stream ends, as when the service ends a stream."""
        session, idle = self.limits.session_seconds, self.limits.idle_seconds
        if session is None and idle is None:
            return
        opened = time.monotonic()
        while True:
            now = time.monotonic()
            left = [opened + session - now] if session is not None else []
            left += [stream.last_activity + idle - now] if idle is not None else []
            if min(left) <= 0:
                stream.expired = True
                await ws.close(code=1001)
                return
            await asyncio.sleep(min(left))


def _check_bidirectional(scope: dict[str, Any], headers: dict[str, str]) -> None:
    if scope.get("http_version") != "2":
        raise Refusal(
            400, "InputValidationError", f"{BIDIRECTIONAL} takes HTTP/2, not HTTP/{scope.get('http_version')}"
        )
    if headers.get("content-type") != EVENT_STREAM:
        raise Refusal(
            400,
            "InputValidationError",
            f"Content-Type must be {EVENT_STREAM}, not {headers.get('content-type')!r}",
        )
    if headers.get("x-amz-content-sha256") != SIGNED_EVENTS:
        raise Refusal(
            403,
            "InvalidSignatureException",
            f"the input stream must be signed event by event (x-amz-content-sha256: {SIGNED_EVENTS})",
        )


async def _client_to_container(receive: Receive, ws: aiohttp.ClientWebSocketResponse, stream: _Stream) -> None:
    """Each signed envelope's PayloadPart to the container: UTF8 as a text frame, BINARY as a binary one.
    Input that breaks the format ends the stream with the reason, as ``stream.input_error``."""
    reader, pending = EventReader(), b""
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                await ws.close()  # the client is gone
                return
            for envelope in reader.feed(message.get("body", b"")):
                stream.touch()
                pending = await _relay_envelope(envelope, pending, ws)
            if not message.get("more_body", False):
                break
    except FramingError as error:
        stream.input_error = str(error)
        await ws.close()
        return
    # The client has said all it will and still listens: the container may answer what it was sent.
    stream.input_ended = True
    await asyncio.sleep(INPUT_GRACE_SECONDS)
    await ws.close()


async def _relay_envelope(envelope: Any, pending: bytes, ws: aiohttp.ClientWebSocketResponse) -> bytes:
    """Relay one signed envelope's part, or hold it until its message is COMPLETE; returns what is held."""
    if not {":date", ":chunk-signature"} <= set(envelope.headers):
        raise FramingError("an input event without its signature (:date and :chunk-signature headers)")
    if not envelope.payload:
        return pending  # the signed empty message that ends the input
    part = decode(envelope.payload)
    if part.headers.get(":event-type") != "PayloadPart":
        raise FramingError(f"an input event of type {part.headers.get(':event-type')!r}; expected PayloadPart")
    data_type = part.headers.get("DataType", "UTF8")
    if data_type not in ("UTF8", "BINARY"):
        raise FramingError(f"a PayloadPart with DataType {data_type!r}; expected UTF8 or BINARY")
    pending += part.payload
    if part.headers.get("CompletionState") == "PARTIAL":
        return pending
    if data_type == "BINARY":
        await ws.send_bytes(pending)
    else:
        await ws.send_str(pending.decode())
    return b""


async def _event(send: Send, data: bytes) -> None:
    await send({"type": "http.response.body", "body": data, "more_body": True})


async def _start(send: Send, status: int, content_type: str, extra: dict[str, str]) -> None:
    headers = [(b"content-type", content_type.encode())] + [(k.encode(), v.encode()) for k, v in extra.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})


async def _respond(send: Send, status: int, body: bytes, content_type: str, extra: dict[str, str]) -> None:
    await _start(send, status, content_type, extra)
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def _json(send: Send, status: int, document: dict[str, Any], extra: dict[str, str]) -> None:
    await _respond(send, status, json.dumps(document).encode(), "application/json", extra)


async def _model_error(send: Send, status: int, body: str, kind: str = "client") -> None:
    """A container's refusal, or its silence, as SageMaker reports it: 424, with the container's status
    and body (status 0 when the container never answered)."""
    message = f'Received {kind} error ({status}) from primary with message "{body}".'
    document = {
        "ErrorCode": f"{kind.upper()}_ERROR_FROM_MODEL",
        "OriginalStatusCode": status,
        "OriginalMessage": body,
        "message": message,
    }
    await _json(send, 424, document, {"x-amzn-ErrorType": "ModelError"})
