"""A local stand-in for the SageMaker AI runtime in front of a speech server (`kokoro-stream emulate`).

It serves, over HTTPS with HTTP/2 (hypercorn) and a certificate from a certificate authority made on
the spot (trustme), the three runtime operations this project's clients call, in their wire formats:

- ``InvokeEndpoint``: ``POST /endpoints/{name}/invocations``, the container's answer as the body;
- ``InvokeEndpointWithResponseStream``: ``POST /endpoints/{name}/invocations-response-stream``, the
  container's answer as an event stream of ``PayloadPart`` messages;
- ``InvokeEndpointWithBidirectionalStream``: ``POST /endpoints/{name}/invocations-bidirectional-stream``,
  event streams both ways, relayed to the container's WebSocket as SageMaker relays them: a UTF8 part
  is a text frame, a BINARY part a binary frame, PARTIAL parts one message; frames come back as parts
  with the DataType of their frame, and a close that is not 1000 as a ``ModelStreamError``.

A container's refusal is answered as SageMaker answers it (424 ``ModelError`` with the container's
status and body). Requests must be SigV4-signed for the service ``sagemaker`` in the emulator's region
and name its endpoint; the signature itself is not verified, so no real credentials are needed. What it
does not reproduce: signature verification, IAM, quotas and limits, timeouts, scaling, and the
network between a client and AWS.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import socket
import ssl
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import trustme
from hypercorn.asyncio import serve
from hypercorn.config import Config
from smithy_aws_event_stream.events import Event, EventMessage

from .ports import free_port

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]
_ROUTE = re.compile(
    r"^/endpoints/(?P<name>[^/]+)/(?P<operation>invocations|invocations-response-stream|invocations-bidirectional-stream)$"
)
_CREDENTIAL = re.compile(r"Credential=[^/]+/\d{8}/(?P<region>[^/]+)/(?P<service>[^/]+)/aws4_request")
EVENT_STREAM = "application/vnd.amazon.eventstream"
VARIANT = "AllTraffic"
INPUT_GRACE_SECONDS = 1.0


class Refusal(Exception):
    """An answer SageMaker gives before any relaying: status, error type, message."""

    def __init__(self, status: int, error_type: str, message: str) -> None:
        super().__init__(message)
        self.status, self.error_type, self.message = status, error_type, message


def payload_part(data: bytes, data_type: str | None = None, completion: str = "COMPLETE") -> bytes:
    headers: dict[str, Any] = {":message-type": "event", ":event-type": "PayloadPart"}
    headers[":content-type"] = "application/octet-stream"
    if data_type is not None:  # the bidirectional stream's parts say what they carry
        headers |= {"DataType": data_type, "CompletionState": completion}
    return EventMessage(headers=headers, payload=data).encode()


def stream_error(error_type: str, message: str, code: str) -> bytes:
    headers = {":message-type": "exception", ":exception-type": error_type, ":content-type": "application/json"}
    return EventMessage(headers=headers, payload=json.dumps({"Message": message, "ErrorCode": code}).encode()).encode()


class EventReader:
    """Whole event-stream messages out of bytes that arrive in pieces."""

    def __init__(self) -> None:
        self._data = b""

    def feed(self, data: bytes) -> list[EventMessage]:
        self._data += data
        messages = []
        while len(self._data) >= 4 and len(self._data) >= (total := int.from_bytes(self._data[:4], "big")):
            event = Event.decode(io.BytesIO(self._data[:total]))
            self._data = self._data[total:]
            if event is not None:
                messages.append(event.message)
        return messages


@dataclass
class Emulator:
    """The ASGI application; ``container`` is the speech server's base URL (http://host:port)."""

    container: str
    endpoint_name: str = "kokoro-tts"
    region: str = "us-east-1"
    # Frames larger than this go out as PARTIAL parts and a COMPLETE one, as SageMaker may split them.
    max_part_bytes: int | None = None

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        headers = {key.decode().lower(): value.decode() for key, value in scope["headers"]}
        try:
            operation = self._check(scope["method"], scope["path"], headers)
        except Refusal as refusal:
            await _json(send, refusal.status, {"message": refusal.message}, {"x-amzn-ErrorType": refusal.error_type})
            return
        if operation == "invocations-bidirectional-stream":
            await self._bidirectional(receive, send)
        else:
            await self._invoke(receive, send, headers, streamed=operation == "invocations-response-stream")

    def _check(self, method: str, path: str, headers: dict[str, str]) -> str:
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
        return route["operation"]

    async def _invoke(self, receive: Receive, send: Send, headers: dict[str, str], streamed: bool) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        content_type = headers.get("content-type", "application/octet-stream")
        async with aiohttp.ClientSession() as http:
            async with http.post(
                f"{self.container}/invocations", data=body, headers={"Content-Type": content_type}
            ) as answer:
                if answer.status != 200:
                    await _model_error(send, answer.status, await answer.text())
                    return
                answer_type = answer.headers.get("Content-Type", "application/octet-stream")
                if not streamed:
                    extra = {"x-Amzn-Invoked-Production-Variant": VARIANT}
                    await _respond(send, 200, await answer.read(), answer_type, extra)
                    return
                extra = {"X-Amzn-SageMaker-Content-Type": answer_type, "x-Amzn-Invoked-Production-Variant": VARIANT}
                await _start(send, 200, EVENT_STREAM, extra)
                async for data in answer.content.iter_any():
                    await send({"type": "http.response.body", "body": payload_part(data), "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _bidirectional(self, receive: Receive, send: Send) -> None:
        url = self.container.replace("http", "ws", 1) + "/invocations-bidirectional-stream"
        async with aiohttp.ClientSession() as http:
            try:
                ws = await http.ws_connect(url, max_msg_size=0)
            except aiohttp.ClientError as error:
                await _model_error(send, 502, f"cannot reach the container: {error}")
                return
            await _start(send, 200, EVENT_STREAM, {"x-Amzn-Invoked-Production-Variant": VARIANT})
            await send({"type": "http.response.body", "body": b"", "more_body": True})  # the headers go now
            upstream = asyncio.create_task(_client_to_container(receive, ws))
            try:
                async for frame in ws:
                    if frame.type == aiohttp.WSMsgType.TEXT:
                        data, data_type = frame.data.encode(), "UTF8"
                    elif frame.type == aiohttp.WSMsgType.BINARY:
                        data, data_type = frame.data, "BINARY"
                    else:
                        break
                    size = self.max_part_bytes or max(1, len(data))
                    for start in range(0, max(1, len(data)), size):
                        completion = "COMPLETE" if start + size >= len(data) else "PARTIAL"
                        part = payload_part(data[start : start + size], data_type, completion)
                        await send({"type": "http.response.body", "body": part, "more_body": True})
                code = ws.close_code or 1006
                if code != 1000:
                    reason = f"the model container closed the stream with {code}"
                    await send(
                        {
                            "type": "http.response.body",
                            "body": stream_error("ModelStreamError", reason, str(code)),
                            "more_body": True,
                        }
                    )
            finally:
                # A client that closed the session ends its input in a moment: let it, so the stream
                # ends from both sides instead of being reset under a write.
                await asyncio.wait([upstream], timeout=INPUT_GRACE_SECONDS)
                upstream.cancel()
                await asyncio.gather(upstream, return_exceptions=True)
                await ws.close()
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _client_to_container(receive: Receive, ws: aiohttp.ClientWebSocketResponse) -> None:
    """Each signed envelope's PayloadPart to the container: UTF8 as a text frame, BINARY as a binary one."""
    reader, pending = EventReader(), b""
    while True:
        message = await receive()
        for envelope in reader.feed(message.get("body", b"")):
            if not envelope.payload:
                continue  # the signed empty message that ends the input
            part = Event.decode(io.BytesIO(envelope.payload))
            if part is None:
                continue
            pending += part.message.payload
            if part.message.headers.get("CompletionState") == "PARTIAL":
                continue
            if part.message.headers.get("DataType") == "BINARY":
                await ws.send_bytes(pending)
            else:
                await ws.send_str(pending.decode())
            pending = b""
        if message["type"] == "http.disconnect" or not message.get("more_body", False):
            await ws.close()
            return


async def _start(send: Send, status: int, content_type: str, extra: dict[str, str]) -> None:
    headers = [(b"content-type", content_type.encode())] + [(k.encode(), v.encode()) for k, v in extra.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})


async def _respond(send: Send, status: int, body: bytes, content_type: str, extra: dict[str, str]) -> None:
    await _start(send, status, content_type, extra)
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def _json(send: Send, status: int, document: dict[str, Any], extra: dict[str, str]) -> None:
    await _respond(send, status, json.dumps(document).encode(), "application/json", extra)


async def _model_error(send: Send, status: int, body: str) -> None:
    """A container's refusal as SageMaker reports it: 424, with the container's status and body."""
    message = f'Received client error ({status}) from primary with message "{body}".'
    document = {
        "ErrorCode": "CLIENT_ERROR_FROM_MODEL",
        "OriginalStatusCode": status,
        "OriginalMessage": body,
        "message": message,
    }
    await _json(send, 424, document, {"x-amzn-ErrorType": "ModelError"})


@dataclass
class RunningEmulator:
    url: str  # https://127.0.0.1:PORT
    ca_file: Path  # the certificate authority a client must trust


@contextmanager
def emulating(
    container: str,
    endpoint_name: str = "kokoro-tts",
    region: str = "us-east-1",
    port: int = 0,
    max_part_bytes: int | None = None,
) -> Iterator[RunningEmulator]:
    """The emulator on a loopback port, in a background thread, until the block ends."""
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="kokoro-emulate-") as folder:
        authority = trustme.CA()
        certificate = authority.issue_cert("127.0.0.1", "localhost")
        key_and_chain, ca_file = Path(folder) / "server.pem", Path(folder) / "ca.pem"
        certificate.private_key_and_cert_chain_pem.write_to_path(str(key_and_chain))
        authority.cert_pem.write_to_path(str(ca_file))
        config = Config()
        config.bind = [f"127.0.0.1:{port}"]
        config.certfile = config.keyfile = str(key_and_chain)
        config.alpn_protocols = ["h2", "http/1.1"]
        config.accesslog = config.errorlog = None
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(_quiet_about_closed_tls)
        stop = asyncio.Event()
        started = threading.Event()

        async def run() -> None:
            started.set()
            try:
                emulator = Emulator(container, endpoint_name, region, max_part_bytes)
                await serve(emulator, config, shutdown_trigger=stop.wait)
            except Exception:
                if not stop.is_set():
                    raise
                # Closing: connections that clients dropped mid-stream fail their TLS shutdown; nobody is left.

        thread = threading.Thread(target=loop.run_until_complete, args=(run(),), name="kokoro-emulate", daemon=True)
        thread.start()
        started.wait(10)
        _wait_listening(port)
        try:
            yield RunningEmulator(f"https://127.0.0.1:{port}", ca_file)
        finally:
            loop.call_soon_threadsafe(stop.set)
            thread.join(timeout=10)


def _quiet_about_closed_tls(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """A client that drops its connection mid-TLS-shutdown is normal here; anything else is reported."""
    if isinstance(context.get("exception"), ssl.SSLError | ConnectionError):
        return
    loop.default_exception_handler(context)


def _wait_listening(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise RuntimeError(f"the emulator did not listen on port {port}")
