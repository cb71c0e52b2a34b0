"""Every response format streams: a client reading with the official SDK decodes audio of a long answer
while the rest of it is still to be synthesized. The fake engine synthesizes the first chunk and holds
every later one until the test lets it go, so the claim never depends on how fast anything runs."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from kokoro_server.openai_api.formats import RESPONSE_FORMATS
from kokoro_server.settings import ServerSettings
from tests.fake_server import FirstChunkOnly
from tests.local_server import RunningServer
from tests.server.openai_api.decoding import decoded, seconds_so_far
from tests.server.openai_api.test_openai_api import client
from tests.speech import run
from tests.waiting import HANG_GUARD_SECONDS

LONG = (
    "Your table for four is booked at seven. The chef has a tasting menu tonight, with six courses. "
    "Parking is free after six, behind the building. If you are running late, call us and we will hold "
    "the table for twenty minutes. We look forward to seeing you."
)
# Enough to be sure it is sound, not a header; at 4.0 the first chunk is about 0.6 s of audio, part of
# which the encoder still holds.
FIRST_AUDIO_SECONDS = 0.3


@pytest.fixture
def held() -> Iterator[tuple[RunningServer, FirstChunkOnly]]:
    engine = FirstChunkOnly()
    server = RunningServer(ServerSettings(host="127.0.0.1", port=0), engine=engine).start(timeout=30)
    try:
        yield server, engine
    finally:
        engine.held.set()
        server.stop()


@pytest.mark.parametrize("speed", [1.0, 4.0])
@pytest.mark.parametrize("response_format", RESPONSE_FORMATS)
def test_the_first_audio_is_playable_before_the_rest_is_synthesized(held, response_format, speed) -> None:
    server, engine = held

    async def listen() -> tuple[float, bytes, int]:
        request = {"model": "tts-1", "voice": "coral", "input": LONG, "response_format": response_format}
        async with client(server.url).audio.speech.with_streaming_response.create(**request, speed=speed) as answer:
            pieces, received = answer.iter_bytes(), b""
            while seconds_so_far(response_format, received) < FIRST_AUDIO_SECONDS:
                try:
                    received += await asyncio.wait_for(anext(pieces), HANG_GUARD_SECONDS)
                except TimeoutError:
                    pytest.fail(f"{len(received)} bytes came, no playable audio, while the rest was being made")
            synthesized = len(engine.calls)  # the second call, if it began, is held: none of its audio is here
            first_heard = seconds_so_far(response_format, received)
            engine.held.set()
            async for piece in pieces:
                received += piece
        return first_heard, received, synthesized

    first_heard, data, calls_when_first_heard = run(listen())
    assert calls_when_first_heard <= 2 < len(engine.calls)  # the answer had more chunks still to come
    samples, rate = decoded(response_format, data)
    assert len(samples) / rate > 4 * first_heard  # and they came after
