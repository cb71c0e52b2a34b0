"""The POST transport's re-buffering on its own, where a test must inject what the emulator does not
send: parts cut at random sizes (the emulator cuts at one size, inside samples too), a response that ends
inside a sample, and a stream failure event. Speech over real boto3 through the emulator is in
test_emulator.py."""

from __future__ import annotations

import random

import pytest

from kokoro_core.protocol import Open
from kokoro_stream import Speaker, WebSocketTransport
from kokoro_stream.sagemaker_post_transport import NdjsonReader, PayloadRebuffer, SageMakerPostTransport, stream_events
from kokoro_stream.transport import Audio, Control, SpeechError, TransportClosed
from tests.speech import run


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


def test_boto3_stream_failures_are_transport_errors():
    with pytest.raises(TransportClosed, match="ModelStreamError: boom"):
        stream_events({"ModelStreamError": {"Message": "boom"}}, PayloadRebuffer(2))
    assert stream_events({"PayloadPart": {"Bytes": b"\x00\x00"}}, PayloadRebuffer(2)) == [Audio(b"\x00\x00")]


def test_ndjson_lines_cut_anywhere_give_an_ssml_documents_bookmarks_before_the_audio_after_them():
    lines = (
        b'{"type": "chunk", "audio": "AAA=", "words": [], "bookmarks": [{"name": "start", "at_ms": 0.0}]}\n'
        b'{"type": "chunk", "audio": "", "words": [], "bookmarks": [{"name": "end", "at_ms": 0.1}]}\n'
        b'{"type": "done", "audio_ms": 0.1, "ttfa_ms": 5.0}\n'
    )
    reader = NdjsonReader("u1")
    events = [event for index in range(0, len(lines), 7) for event in reader.feed(lines[index : index + 7])]
    reader.finish()
    kinds = [type(event.message).__name__ if isinstance(event, Control) else "audio" for event in events]
    assert kinds == ["Bookmark", "audio", "Bookmark"]  # a line with marks and no audio adds no empty frame
    assert [event.message.name for event in events if isinstance(event, Control)] == ["start", "end"]
    assert events[1].data == b"\x00\x00"


def test_a_server_cut_reply_over_post_is_refused_with_what_to_use_instead():
    transport = SageMakerPostTransport("kokoro-tts", client=object())  # never called: refused before any request
    with pytest.raises(SpeechError, match='segment="client"'):
        run(transport.send(Open(context="r1")))
