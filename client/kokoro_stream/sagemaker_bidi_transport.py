"""The protocol over SageMaker's bidirectional stream (InvokeEndpointWithBidirectionalStream).

Uses ``aws-sdk-sagemaker-runtime-http2``: HTTP/2 to the region's runtime endpoint on port 8443,
SigV4 with credentials from the standard chain (environment, profile, container and instance
roles), which the SDK refreshes before they expire. Every control message goes out as one
PayloadPart with DataType UTF8; SageMaker hands it to the container as one text frame. Coming
back, DataType says what a part is (BINARY: audio, UTF8: a control message) — bytes are never
sniffed — and PARTIAL parts are joined until the COMPLETE one.
"""

from __future__ import annotations

import json
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
    ServiceError,
)

from kokoro_core.protocol import ClientMessage, Ready

from .transport import Audio, Event, SpeechError, TransportClosed, control, ready_message

PORT = 8443


def runtime_endpoint(region: str) -> str:
    return f"https://runtime.sagemaker.{region}.amazonaws.com:{PORT}"


def request_event(message: ClientMessage) -> RequestStreamEventPayloadPart:
    """One control message as one complete UTF8 PayloadPart."""
    data = json.dumps(message.wire()).encode()
    part = RequestPayloadPart(bytes_=data, data_type="UTF8", completion_state="COMPLETE")
    return RequestStreamEventPayloadPart(value=part)


class SageMakerBidiTransport:
    def __init__(
        self, endpoint_name: str, region: str, target_variant: str | None = None, client: Any | None = None
    ) -> None:
        self.endpoint_name = endpoint_name
        self.region = region
        self.target_variant = target_variant
        self._client = client
        self._stream: Any = None
        self._output: Any = None

    def _make_client(self) -> Any:
        if self._client is None:
            config = AsyncSageMakerRuntimeHTTP2Config(region=self.region, endpoint_uri=runtime_endpoint(self.region))
            self._client = AsyncSageMakerRuntimeHTTP2Client(config=config)
        return self._client

    async def connect(self) -> Ready:
        await self.close()
        request = InvokeEndpointWithBidirectionalStreamInput(
            endpoint_name=self.endpoint_name, target_variant=self.target_variant
        )
        try:
            self._stream = await self._make_client().invoke_endpoint_with_bidirectional_stream(request)
            _, self._output = await self._stream.await_output()
        except (InputValidationError, ModelError) as error:
            raise SpeechError(f"endpoint {self.endpoint_name!r} refused the stream: {error}") from error
        except (ServiceError, OSError) as error:
            raise TransportClosed(f"cannot open a stream to endpoint {self.endpoint_name!r}: {error}") from error
        return ready_message(await self.receive(), f"endpoint {self.endpoint_name!r}")

    async def send(self, message: ClientMessage) -> None:
        if self._stream is None:
            raise TransportClosed("the stream is not open")
        try:
            await self._stream.input_stream.send(request_event(message))
        except (ServiceError, OSError, RuntimeError) as error:
            raise TransportClosed(f"sending failed: {error}") from error

    async def receive(self) -> Event:
        if self._output is None:
            raise TransportClosed("the stream is not open")
        parts: list[bytes] = []
        while True:
            try:
                event = await self._output.receive()
            except (InputValidationError, ModelError) as error:
                raise SpeechError(f"the endpoint failed the stream: {error}") from error
            except (ServiceError, OSError) as error:
                raise TransportClosed(f"the stream failed: {error}") from error
            match event:
                case None:
                    raise TransportClosed("the endpoint ended the stream")
                case ResponseStreamEventPayloadPart(value=part):
                    parts.append(part.bytes_ or b"")
                    if part.completion_state == "PARTIAL":
                        continue
                    data = b"".join(parts)
                    if part.data_type == "BINARY":
                        return Audio(data)
                    if part.data_type == "UTF8":
                        if (control_event := control(json.loads(data))) is not None:
                            return control_event
                        parts = []  # a message type this client does not know: skip it
                        continue
                    raise SpeechError(f"a PayloadPart with DataType {part.data_type!r}; expected UTF8 or BINARY")
                case ResponseStreamEventModelStreamError(value=error):
                    # The container closed the WebSocket; its close code and reason arrive here.
                    raise TransportClosed(f"the model closed the stream ({error.error_code}: {error.message})")
                case ResponseStreamEventInternalStreamFailure(value=failure):
                    raise TransportClosed(f"SageMaker failed the stream: {failure.message}")
                case _:
                    continue  # an event type this client does not know: newer service, skip it

    async def close(self) -> None:
        stream, self._stream, self._output = self._stream, None, None
        if stream is not None:
            try:
                await stream.close()
            except (ServiceError, OSError, RuntimeError):
                pass  # already gone
