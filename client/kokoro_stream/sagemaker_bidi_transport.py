"""The protocol over SageMaker's bidirectional stream (InvokeEndpointWithBidirectionalStream).

Uses ``aws-sdk-sagemaker-runtime-http2``: HTTP/2 to the region's runtime endpoint on port 8443,
SigV4 with credentials from the standard chain (environment, profile, container and instance
roles), which the SDK refreshes before they expire. The SDK's default HTTP client cannot stream
both ways at once, so the stream runs on the AWS CRT client. The session's first message goes out with
the request, before its ``ready`` arrives: one round trip less to open a session.
Every control message goes out as one PayloadPart with DataType UTF8; SageMaker hands it to the
container as one text frame. Coming back, DataType says what a part is (BINARY: audio, UTF8: a
control message) — bytes are never sniffed — and PARTIAL parts are joined until the COMPLETE one.

A read from the stream is never canceled: awscrt hands each chunk to the future of the read waiting for
it, and a canceled one loses its chunk and fails inside awscrt's thread. Each read runs as a task of its
own; a ``receive`` that is canceled (a timeout, a barge-in) leaves it running for the next ``receive`` to
take up, and ``close`` ends the stream first, which completes the read, then collects it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

from aws_sdk_sagemaker_runtime_http2.client import AsyncSageMakerRuntimeHTTP2Client
from aws_sdk_sagemaker_runtime_http2.config import AsyncSageMakerRuntimeHTTP2Config
from aws_sdk_sagemaker_runtime_http2.models import (
    InputValidationError,
    InvokeEndpointWithBidirectionalStreamInput,
    ModelError,
    RequestPayloadPart,
    RequestStreamEventPayloadPart,
    ResponseStreamEventInternalStreamFailure,
    ResponseStreamEventModelStreamError,
    ResponseStreamEventPayloadPart,
)
from awscrt import io as crt_io
from smithy_core.exceptions import CallError
from smithy_http.aio.crt import AWSCRTHTTPClient

from kokoro_core.protocol import ClientMessage, Close
from kokoro_core.server_messages import Ready

from .transport import Audio, Event, SpeechError, TransportClosed, control, ready_message

PORT = 8443
# How long closing waits for a read in flight once the stream and its connection are closed (which completes
# it at once): within the second a stopping app gives a canceled handler, so its loop never cancels the read.
CLOSE_SECONDS = 0.5


def runtime_endpoint(region: str) -> str:
    return f"https://runtime.sagemaker.{region}.amazonaws.com:{PORT}"


def request_event(message: ClientMessage) -> RequestStreamEventPayloadPart:
    """One control message as one complete UTF8 PayloadPart."""
    data = json.dumps(message.wire()).encode()
    part = RequestPayloadPart(bytes_=data, data_type="UTF8", completion_state="COMPLETE")
    return RequestStreamEventPayloadPart(value=part)


class TrustingCRTClient(AWSCRTHTTPClient):
    """The CRT HTTP client, trusting the certificate authority in ``ca_file`` instead of the system's
    (a local stand-in for SageMaker: ``kokoro-stream emulate``). The client offers no TLS setting of
    its own yet, so its TLS context is replaced."""

    def __init__(self, ca_file: Path) -> None:
        super().__init__()
        options = crt_io.TlsContextOptions()
        options.override_default_trust_store_from_path(ca_filepath=str(ca_file))
        self._tls_ctx = crt_io.ClientTlsContext(options)


class SageMakerBidiTransport:
    def __init__(
        self,
        endpoint_name: str,
        region: str,
        target_variant: str | None = None,
        client: Any | None = None,
        endpoint_uri: str | None = None,
        ca_file: Path | None = None,
    ) -> None:
        """``endpoint_uri`` and ``ca_file`` point the transport elsewhere than the region's runtime
        endpoint, such as ``kokoro-stream emulate``; ``client`` replaces the SDK client altogether."""
        self.endpoint_name = endpoint_name
        self.region = region
        self.target_variant = target_variant
        self.endpoint_uri = endpoint_uri or runtime_endpoint(region)
        self.ca_file = ca_file
        self._given_client = client
        self._http: AWSCRTHTTPClient | None = None  # the connection of the current session
        self._stream: Any = None
        self._output: Any = None
        self._read: asyncio.Task[Any] | None = None  # the read in flight, if any (see the module's docstring)
        self._parts: list[bytes] = []  # the PARTIAL parts of a message so far, kept across canceled receives

    async def _sdk_client(self) -> Any:
        """A client on a new connection for each session: after a stream fails, its pooled HTTP/2
        connection may be one the other side has given up on, and a stream opened on it never starts."""
        if self._given_client is not None:
            return self._given_client
        self._http = AWSCRTHTTPClient() if self.ca_file is None else TrustingCRTClient(self.ca_file)
        config = await AsyncSageMakerRuntimeHTTP2Config.resolve(
            region=self.region, endpoint_uri=self.endpoint_uri, transport=self._http
        )
        return AsyncSageMakerRuntimeHTTP2Client(config=config)

    async def connect(self, hello: ClientMessage) -> Ready:
        await self.close()
        request = InvokeEndpointWithBidirectionalStreamInput(
            endpoint_name=self.endpoint_name, target_variant=self.target_variant
        )
        try:
            self._stream = await (await self._sdk_client()).invoke_endpoint_with_bidirectional_stream(request)
            await self._stream.input_stream.send(request_event(hello))
            _, self._output = await self._stream.await_output()
        except (InputValidationError, ModelError) as error:
            raise SpeechError(f"endpoint {self.endpoint_name!r} refused the stream: {error}") from error
        except CallError as error:
            if error.fault == "client" and not error.is_retry_safe:  # credentials, region, name: not a network fault
                raise SpeechError(f"endpoint {self.endpoint_name!r} refused the stream: {error}") from error
            raise TransportClosed(f"cannot open a stream to endpoint {self.endpoint_name!r}: {error}") from error
        except OSError as error:
            raise TransportClosed(f"cannot open a stream to endpoint {self.endpoint_name!r}: {error}") from error
        return ready_message(await self.receive(), f"endpoint {self.endpoint_name!r}")

    async def send(self, message: ClientMessage) -> None:
        if self._stream is None:
            raise TransportClosed("the stream is not open")
        try:
            await self._stream.input_stream.send(request_event(message))
            if isinstance(message, Close):
                # Nothing follows a close: end the request now, before the service ends the stream
                # (ending it after makes the CRT client fail a write it can no longer make).
                await self._stream.input_stream.close()
        except (CallError, OSError, RuntimeError) as error:
            raise TransportClosed(f"sending failed: {error}") from error

    async def receive(self) -> Event:
        if self._output is None:
            raise TransportClosed("the stream is not open")
        parts = self._parts
        while True:
            try:
                event = await self._next_event()
            except (InputValidationError, ModelError) as error:
                raise SpeechError(f"the endpoint failed the stream: {error}") from error
            except (CallError, OSError) as error:
                raise TransportClosed(f"the stream failed: {error}") from error
            match event:
                case None:
                    raise TransportClosed("the endpoint ended the stream")
                case ResponseStreamEventPayloadPart(value=part):
                    parts.append(part.bytes_ or b"")
                    if part.completion_state == "PARTIAL":
                        continue
                    data = b"".join(parts)
                    parts.clear()
                    if part.data_type == "BINARY":
                        return Audio(data)
                    if part.data_type == "UTF8":
                        if (control_event := control(json.loads(data))) is not None:
                            return control_event
                        continue  # a message type this client does not know: skip it
                    raise SpeechError(f"a PayloadPart with DataType {part.data_type!r}; expected UTF8 or BINARY")
                case ResponseStreamEventModelStreamError(value=error):
                    # The container closed the WebSocket; its close code and reason arrive here.
                    raise TransportClosed(f"the model closed the stream ({error.error_code}: {error.message})")
                case ResponseStreamEventInternalStreamFailure(value=failure):
                    raise TransportClosed(f"SageMaker failed the stream: {failure.message}")
                case _:
                    continue  # an event type this client does not know: newer service, skip it

    async def _next_event(self) -> Any:
        """The stream's next event, from the read in flight or a new one. Canceling this leaves the read be,
        done or not: its event is the next call's."""
        if self._read is None:
            self._read = asyncio.ensure_future(self._output.receive())
            # A read whose receive was canceled may fail with nobody awaiting it: its error is the next
            # receive's, or nobody's once closed.
            self._read.add_done_callback(lambda read: read.cancelled() or read.exception())
        read = self._read
        try:
            event = await asyncio.shield(read)
        except asyncio.CancelledError:
            if read.cancelled():  # the read itself ended canceled (closing): nothing is left to take up
                self._taken(read)
            raise
        except BaseException:
            self._taken(read)
            raise
        self._taken(read)
        return event

    def _taken(self, read: asyncio.Task[Any]) -> None:
        """Forget ``read`` once its event is taken, unless a new stream has a read of its own by now."""
        if self._read is read:
            self._read = None

    async def close(self) -> None:
        stream, self._stream, self._output = self._stream, None, None
        read, self._read = self._read, None
        self._parts = []
        if stream is not None:
            try:
                await stream.close()
            except (CallError, OSError, RuntimeError):
                pass  # already gone
        http, self._http = self._http, None
        if http is not None:
            await http.close()
        if read is not None:
            # Ending the stream and its connection completes the read; it is collected, never canceled.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(read), CLOSE_SECONDS)
