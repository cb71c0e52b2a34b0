"""The POST transport: real server output, cut into PayloadParts at random points, re-buffered.

A stand-in for boto3's ``sagemaker-runtime`` client makes the real POST /invocations to the
local server and yields its body as boto3 yields an event stream: ``{"PayloadPart": {"Bytes"}}``
dicts whose boundaries fall anywhere, odd byte counts included. No AWS call is made.
"""

from __future__ import annotations

import http.client
import json
import random
from typing import Any

import pytest
from botocore.exceptions import ClientError

from kokoro_stream import Speaker, WebSocketTransport
from kokoro_stream.sagemaker_post_transport import PayloadRebuffer, SageMakerPostTransport, stream_events
from kokoro_stream.transport import Audio, ServerError, TransportClosed
from tests.server.speech import run

TEXT = "Your balance is twelve dollars. The payment clears tomorrow. Anything else?"


class StandInRuntimeClient:
    def __init__(self, port: int, seed: int = 5) -> None:
        self.port = port
        self.rng = random.Random(seed)
        self.calls: list[dict[str, Any]] = []

    def invoke_endpoint_with_response_stream(self, **arguments: Any) -> dict[str, Any]:
        self.calls.append(arguments)
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request("POST", "/invocations", arguments["Body"], {"Content-Type": arguments["ContentType"]})
        response = connection.getresponse()
        if response.status != 200:
            body = response.read().decode()
            error = {"Error": {"Code": "ModelError", "Message": "model error"}, "OriginalMessage": body}
            raise ClientError(error, "InvokeEndpointWithResponseStream")
        return {"Body": self._parts(response)}

    def _parts(self, response: http.client.HTTPResponse):
        while data := response.read1(65536):
            while data:
                cut = self.rng.randint(1, max(1, min(len(data), 777)))
                yield {"PayloadPart": {"Bytes": data[:cut]}}
                data = data[cut:]


def test_rebuffer_returns_whole_samples_whatever_the_cuts(server, idle_after):
    async def reference() -> bytes:
        async with Speaker(WebSocketTransport(server.ws_url)) as speaker:
            return b"".join([chunk.audio async for chunk in speaker.speak("Just one sentence here.")])

    audio = run(reference())
    rng = random.Random(9)
    rebuffer = PayloadRebuffer(2)
    out, position = [], 0
    while position < len(audio):
        cut = rng.randint(1, 301)
        out += [
            event.data
            for event in stream_events({"PayloadPart": {"Bytes": audio[position : position + cut]}}, rebuffer)
        ]
        position += cut
    rebuffer.finish()
    assert all(len(piece) % 2 == 0 for piece in out) and b"".join(out) == audio


def test_a_response_cut_inside_a_sample_is_a_transport_error():
    rebuffer = PayloadRebuffer(2)
    assert rebuffer.feed(b"\x01\x02\x03") == b"\x01\x02"
    with pytest.raises(TransportClosed, match="inside a sample"):
        rebuffer.finish()


def test_speech_over_post_matches_the_websocket_session(server, idle_after):
    async def speak(transport) -> list[tuple[str, int]]:
        async with Speaker(transport) as speaker:
            chunks = [chunk async for chunk in speaker.speak(TEXT)]
        totals: dict[str, int] = {}
        for chunk in chunks:
            assert len(chunk.audio) % 2 == 0
            totals[chunk.text] = totals.get(chunk.text, 0) + len(chunk.audio)
        return list(totals.items())

    client = StandInRuntimeClient(server.server.port)
    via_post = run(speak(SageMakerPostTransport("kokoro-tts", client)))
    direct = run(speak(WebSocketTransport(server.ws_url)))
    assert via_post == direct and len(via_post) == 3  # same sentences, same order, same audio
    assert {call["EndpointName"] for call in client.calls} == {"kokoro-tts"}
    assert json.loads(client.calls[0]["Body"])["format"] == "pcm16"


def test_a_server_error_on_post_surfaces_as_a_typed_error(server, idle_after):
    async def speak():
        transport = SageMakerPostTransport("kokoro-tts", StandInRuntimeClient(server.server.port))
        async with Speaker(transport, speed=5.0) as speaker:
            return [chunk async for chunk in speaker.speak("Too fast to say.")]

    with pytest.raises(ServerError) as caught:
        run(speak())
    assert caught.value.code == "invalid_speed" and "0.5" in caught.value.message


def test_boto3_stream_failures_are_transport_errors():
    with pytest.raises(TransportClosed, match="ModelStreamError: boom"):
        stream_events({"ModelStreamError": {"Message": "boom"}}, PayloadRebuffer(2))
    assert stream_events({"PayloadPart": {"Bytes": b"\x00\x00"}}, PayloadRebuffer(2)) == [Audio(b"\x00\x00")]
