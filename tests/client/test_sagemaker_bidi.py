"""The SageMaker bidirectional transport, mapped with the SDK's own model classes.

A stand-in for the SDK's duplex stream does what SageMaker does between the client and the
container: each request PayloadPart becomes one WebSocket frame to a real local server (UTF8 →
text frame, BINARY → binary frame), and each server frame comes back as PayloadParts (split at
random into PARTIAL…COMPLETE) with the DataType of its frame. No AWS call is made.
"""

from __future__ import annotations

import random
from typing import Any

import aiohttp
import pytest
from aws_sdk_sagemaker_runtime_http2.models import (
    InvokeEndpointWithBidirectionalStreamOutput,
    ModelStreamError,
    ResponsePayloadPart,
    ResponseStreamEventModelStreamError,
    ResponseStreamEventPayloadPart,
)

from kokoro_stream import Speaker, SpeechError, WebSocketTransport
from kokoro_stream.sagemaker_bidi_transport import SageMakerBidiTransport, runtime_endpoint
from tests.server.speech import run

TEXT = "Thanks for waiting. I found two options for your flight. Which one would you like?"


class StandInOutput:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse, rng: random.Random, fail_after_audio: int | None) -> None:
        self._ws = ws
        self._rng = rng
        self._parts: list[Any] = []
        self._fail_after_audio = fail_after_audio
        self._audio_seen = 0

    async def receive(self) -> Any:
        if self._parts:
            return self._parts.pop(0)
        message = await self._ws.receive()
        if message.type == aiohttp.WSMsgType.BINARY:
            self._audio_seen += 1
            if self._fail_after_audio is not None and self._audio_seen > self._fail_after_audio:
                return ResponseStreamEventModelStreamError(value=ModelStreamError(message="gone", error_code="1006"))
            data, data_type = message.data, "BINARY"
        elif message.type == aiohttp.WSMsgType.TEXT:
            data, data_type = message.data.encode(), "UTF8"
        else:
            return None  # the stream ends
        cuts = sorted(self._rng.sample(range(1, len(data)), k=min(2, len(data) - 1))) if len(data) > 2 else []
        pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        self._parts = [
            ResponseStreamEventPayloadPart(
                value=ResponsePayloadPart(
                    bytes_=piece, data_type=data_type, completion_state="COMPLETE" if last else "PARTIAL"
                )
            )
            for piece, last in zip(pieces, [False] * (len(pieces) - 1) + [True], strict=True)
        ]
        return self._parts.pop(0)

    async def close(self) -> None:
        await self._ws.close()


class StandInDuplex:
    def __init__(self, http: aiohttp.ClientSession, output: StandInOutput, sent: list[Any]) -> None:
        self.input_stream = self
        self._http = http
        self._output = output
        self._sent = sent

    async def send(self, event: Any) -> None:
        self._sent.append(event)
        part = event.value
        if part.data_type == "UTF8":
            await self._output._ws.send_str(part.bytes_.decode())
        else:
            await self._output._ws.send_bytes(part.bytes_)

    async def await_output(self) -> tuple[Any, StandInOutput]:
        return InvokeEndpointWithBidirectionalStreamOutput(), self._output

    async def close(self) -> None:
        await self._output.close()
        await self._http.close()


class StandInClient:
    """Has the SDK client's one method; each call opens a session on the local server."""

    def __init__(self, url: str, fail_first_after_audio: int | None = None) -> None:
        self.url = url
        self.sent: list[Any] = []
        self.inputs: list[Any] = []
        self._fail = fail_first_after_audio
        self._rng = random.Random(3)

    async def invoke_endpoint_with_bidirectional_stream(self, input: Any) -> StandInDuplex:
        self.inputs.append(input)
        http = aiohttp.ClientSession()
        ws = await http.ws_connect(self.url)
        fail, self._fail = self._fail, None  # only the first stream fails
        return StandInDuplex(http, StandInOutput(ws, self._rng, fail), self.sent)


def audio_by_sentence(chunks) -> dict[str, int]:
    totals: dict[str, int] = {}
    for chunk in chunks:
        totals[chunk.text] = totals.get(chunk.text, 0) + len(chunk.audio)
    return totals


async def speak_all(transport) -> tuple[dict[str, int], int]:
    async with Speaker(transport, reconnect_delay=0.05) as speaker:
        chunks = [chunk async for chunk in speaker.speak(TEXT)]
        return audio_by_sentence(chunks), speaker.reconnects


def test_speech_over_the_sdk_transport_matches_the_local_websocket(server, idle_after):
    client = StandInClient(server.ws_url)
    transport = SageMakerBidiTransport("kokoro-tts", "us-east-1", client=client)
    via_sdk, _ = run(speak_all(transport))
    direct, _ = run(speak_all(WebSocketTransport(server.ws_url)))
    assert via_sdk == direct and len(via_sdk) == 3
    assert client.inputs[0].endpoint_name == "kokoro-tts"
    parts = [event.value for event in client.sent]
    assert {(part.data_type, part.completion_state) for part in parts} == {("UTF8", "COMPLETE")}
    assert [part.bytes_.decode().split('"type": "')[1].split('"')[0] for part in parts][:2] == ["configure", "speak"]


def test_a_model_stream_error_mid_audio_reconnects_without_loss_or_repeats(server, idle_after):
    direct, _ = run(speak_all(WebSocketTransport(server.ws_url)))
    client = StandInClient(server.ws_url, fail_first_after_audio=2)
    via_sdk, reconnects = run(speak_all(SageMakerBidiTransport("kokoro-tts", "us-east-1", client=client)))
    assert reconnects == 1 and len(client.inputs) == 2
    assert via_sdk == direct


def test_an_unknown_data_type_is_an_error_not_a_guess():
    class OddOutput:
        async def receive(self):
            part = ResponsePayloadPart(bytes_=b"{}", data_type="XML", completion_state="COMPLETE")
            return ResponseStreamEventPayloadPart(value=part)

    transport = SageMakerBidiTransport("kokoro-tts", "us-east-1", client=object())
    transport._output = OddOutput()
    with pytest.raises(SpeechError, match="DataType 'XML'"):
        run(transport.receive())


def test_the_runtime_endpoint_is_the_regional_http2_port():
    assert runtime_endpoint("eu-west-1") == "https://runtime.sagemaker.eu-west-1.amazonaws.com:8443"
