"""What the listener heard, from the Speaker, over a real socket to a real server on the fake engine.

The fake engine spreads each chunk's words over its audio in proportion to what is said, so a test
can place the playback position exactly on a word's end and know what must count as heard.
"""

from __future__ import annotations

import asyncio
import threading

from kokoro_stream import Speaker, WebSocketTransport
from kokoro_stream.reply import AudioChunk, Heard
from tests.fake_server import fake_server
from tests.speech import run
from tests.waiting import await_until

SENTENCES = ["Sure, your refund of $42.97 is on its way.", "It should reach your card within 3 to 5 days."]
TEXT = " ".join(SENTENCES)
MS_PER_BYTE = 1000 / (24000 * 2)


async def collect(speaker: Speaker, text: str) -> list[AudioChunk]:
    return [chunk async for chunk in speaker.speak(text)]


def test_chunks_carry_their_words_and_marks_can_be_turned_off() -> None:
    async def scenario(url: str) -> tuple[list[AudioChunk], list[AudioChunk]]:
        async with Speaker(WebSocketTransport(url)) as speaker:
            marked = await collect(speaker, TEXT)
        async with Speaker(WebSocketTransport(url), marks=False) as speaker:
            plain = await collect(speaker, TEXT)
        return marked, plain

    with fake_server() as (server, _):
        marked, plain = run(scenario(server.ws_url))
    assert " ".join(word.text for chunk in marked for word in chunk.words) == TEXT
    assert all(not chunk.words for chunk in plain)
    assert b"".join(c.audio for c in marked) == b"".join(c.audio for c in plain)


def test_cancel_returns_the_words_heard_up_to_the_playback_position() -> None:
    async def scenario(url: str) -> tuple[list[AudioChunk], Heard, Heard, Heard]:
        async with Speaker(WebSocketTransport(url)) as speaker:
            chunks = await collect(speaker, TEXT)
            first_ms = sum(len(c.audio) for c in chunks if c.text == SENTENCES[0]) * MS_PER_BYTE
            second = [word for c in chunks if c.text == SENTENCES[1] for word in c.words]
            # Playback is just past the end of the second sentence's fourth word ("your").
            speaker.played(first_ms + second[3].end_ms + 1)
            heard = await speaker.cancel()
            speaker.played(first_ms + second[3].end_ms - 1)  # a word not quite finished is not heard
            almost = speaker.heard()
            everything = speaker.heard(1e9)
        return chunks, heard, almost, everything

    with fake_server() as (server, _):
        chunks, heard, almost, everything = run(scenario(server.ws_url))
    assert heard.from_position and heard.text == "Sure, your refund of $42.97 is on its way. It should reach your"
    assert [u.heard_text for u in heard.utterances] == [SENTENCES[0], "It should reach your"]
    assert heard.utterances[0].heard_ms == heard.utterances[0].audio_ms and not heard.complete
    assert almost.text == "Sure, your refund of $42.97 is on its way. It should reach"
    assert everything.complete and everything.text == TEXT
    assert everything.heard_ms == sum(len(c.audio) for c in chunks) * MS_PER_BYTE


def test_without_a_position_what_was_delivered_counts_and_without_marks_only_whole_sentences() -> None:
    gate = threading.Event()

    async def scenario(url: str, engine) -> tuple[Heard, Heard]:
        results = []
        for marks in (True, False):
            gate.set()
            async with Speaker(WebSocketTransport(url), marks=marks) as speaker:
                reply = speaker.reply()
                await reply.feed(SENTENCES[0] + " It should")  # the next words complete the first sentence
                first = await anext(aiter(reply))  # the first sentence is one chunk at these limits
                await asyncio.sleep(0)
                gate.clear()  # the second sentence's synthesis is held
                await reply.feed(SENTENCES[1].removeprefix("It should"))
                await reply.end()
                await await_until(
                    lambda: engine.calls[-1] == SENTENCES[1], "the second sentence's call to wait at the gate"
                )
                assert first.text == SENTENCES[0]
                speaker.played(len(first.audio) * MS_PER_BYTE / 2)  # half of it played ...
                half = await speaker.cancel()
                results.append(half)
        gate.set()
        return results[0], results[1]

    async def delivered_only(url: str) -> Heard:
        gate.set()
        async with Speaker(WebSocketTransport(url)) as speaker:
            reply = speaker.reply()
            await reply.feed(TEXT)
            await reply.end()
            async for _ in reply:
                pass
            return await speaker.cancel()  # no position known: all delivered audio counts

    with fake_server(gate, first_chunk_chars=200, max_chunk_chars=200) as (server, engine):
        marked, plain = run(scenario(server.ws_url, engine))
        delivered = run(delivered_only(server.ws_url))
    # Half of the first sentence: with marks, its first words; without, nothing (only whole sentences count).
    assert marked.text and SENTENCES[0].startswith(marked.text) and marked.text != SENTENCES[0]
    assert plain.text == "" and plain.utterances[0].heard_ms > 0
    assert [u.text for u in marked.utterances] == SENTENCES  # the second was sent, and none of it heard
    assert marked.utterances[1].heard_text == "" and marked.utterances[1].audio_ms == 0
    assert not delivered.from_position and delivered.text == TEXT and delivered.complete


def test_a_playback_position_callback_is_asked_at_cancel() -> None:
    position = {"ms": 0.0}

    async def scenario(url: str) -> Heard:
        async with Speaker(WebSocketTransport(url), playback_position=lambda: position["ms"]) as speaker:
            chunks = await collect(speaker, TEXT)
            position["ms"] = next(word for c in chunks for word in c.words if word.text == "refund").end_ms
            return await speaker.cancel()

    with fake_server() as (server, _):
        heard = run(scenario(server.ws_url))
    assert heard.from_position and heard.text == "Sure, your refund"
