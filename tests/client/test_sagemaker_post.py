"""The POST transport: real server output, cut into PayloadParts at random points, re-buffered.

``LocalRuntimeClient`` answers like boto3's ``sagemaker-runtime`` client: it makes the real POST
/invocations to the local server and yields the body as ``{"PayloadPart": {"Bytes"}}`` events
whose boundaries fall anywhere, odd byte counts included. No AWS call is made.
"""

from __future__ import annotations

import json
import random

import pytest

from kokoro_stream import Speaker, WebSocketTransport
from kokoro_stream.sagemaker_post_transport import PayloadRebuffer, SageMakerPostTransport, stream_events
from kokoro_stream.transport import Audio, ServerError, TransportClosed
from kokoro_tools.local_runtime import LocalRuntimeClient
from tests.server.speech import run

TEXT = "Your balance is twelve dollars. The payment clears tomorrow. Anything else?"


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

    client = LocalRuntimeClient(server.url, cut=random.Random(5))
    via_post = run(speak(SageMakerPostTransport("kokoro-tts", client)))
    direct = run(speak(WebSocketTransport(server.ws_url)))
    assert via_post == direct and len(via_post) == 3  # same sentences, same order, same audio
    assert {call["EndpointName"] for call in client.calls} == {"kokoro-tts"}
    assert json.loads(client.calls[0]["Body"])["format"] == "pcm16"


def test_a_server_error_on_post_surfaces_as_a_typed_error(server, idle_after):
    async def speak():
        transport = SageMakerPostTransport("kokoro-tts", LocalRuntimeClient(server.url, cut=random.Random(5)))
        async with Speaker(transport, voice="xx_nobody") as speaker:
            return [chunk async for chunk in speaker.speak("Nobody says this.")]

    with pytest.raises(ServerError) as caught:
        run(speak())
    assert caught.value.code == "unknown_voice" and "af_heart" in caught.value.message


def test_boto3_stream_failures_are_transport_errors():
    with pytest.raises(TransportClosed, match="ModelStreamError: boom"):
        stream_events({"ModelStreamError": {"Message": "boom"}}, PayloadRebuffer(2))
    assert stream_events({"PayloadPart": {"Bytes": b"\x00\x00"}}, PayloadRebuffer(2)) == [Audio(b"\x00\x00")]
