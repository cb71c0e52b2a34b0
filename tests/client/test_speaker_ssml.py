"""The Speaker with SSML: a document among a turn's sentences, its marks on the chunks, and word times,
heard text and captions as written around breaks and substitutions; on the real model and the fake engine."""

from __future__ import annotations

import threading

import pytest

from kokoro_core.errors import ProtocolError
from kokoro_stream import Speaker, WebSocketTransport
from kokoro_stream.captions import reply_words
from kokoro_stream.reply import AudioChunk
from tests.fake_server import fake_server
from tests.speech import run
from tests.waiting import await_until

DOCUMENT = (
    '<speak>Our partner <sub alias="World Wide Web Consortium">W3C</sub> agreed. <break time="600ms"/>'
    '<mark name="code"/>Your code is <say-as interpret-as="characters">AB12</say-as>.<mark name="end"/></speak>'
)
WRITTEN = "Our partner W3C agreed. Your code is AB12."


async def collect(speaker: Speaker) -> list[AudioChunk]:
    reply = speaker.reply()
    await reply.feed("Hello there. ")
    await reply.say_ssml(DOCUMENT)
    await reply.feed("Anything else?")
    await reply.end()
    return [chunk async for chunk in reply]


def test_a_document_in_a_turn_is_spoken_in_place_with_its_marks_words_and_heard_text(server, idle_after) -> None:
    async def scenario() -> tuple[list[AudioChunk], str]:
        async with Speaker(WebSocketTransport(server.ws_url)) as speaker:
            chunks = await collect(speaker)
            return chunks, speaker.heard().text

    chunks, heard = run(scenario())
    texts = list(dict.fromkeys(chunk.text for chunk in chunks))
    assert texts[0] == "Hello there." and texts[2] == "Anything else?" and texts[1].startswith("<speak>")
    words = [word.text for word in reply_words(chunks)]
    assert words == [
        "Hello",
        "there.",
        "Our",
        "partner",
        "W3C",
        "agreed.",
        "Your",
        "code",
        "is",
        "AB12.",
        "Anything",
        "else?",
    ]
    assert heard == f"Hello there. {WRITTEN} Anything else?"
    reached = [(mark.name, mark.at_ms) for chunk in chunks for mark in chunk.bookmarks]
    assert [name for name, _ in reached] == ["code", "end"]
    timed = {word.text: word for word in reply_words(chunks)}
    document_start = next(c.utterance_start_ms for c in chunks if c.text.startswith("<speak>"))
    assert timed["agreed."].end_ms + 600 - 25 <= document_start + reached[0][1] <= timed["Your"].start_ms + 25
    assert document_start + reached[1][1] >= timed["AB12."].end_ms


def test_a_document_the_server_would_refuse_is_refused_before_it_is_sent() -> None:
    with fake_server() as (server, engine):

        async def scenario() -> None:
            async with Speaker(WebSocketTransport(server.ws_url)) as speaker:
                reply = speaker.reply()
                with pytest.raises(ProtocolError, match="<blink> is not an element"):
                    await reply.say_ssml("<speak><blink/></speak>")
                await reply.say_ssml("<speak>Fine.</speak>")
                await reply.end()
                assert [chunk.text async for chunk in reply]

        run(scenario())
        assert engine.calls == ["Fine."]


def test_marks_after_the_last_audio_come_on_a_chunk_of_their_own_and_cancel_hears_written_words() -> None:
    gate = threading.Event()
    with fake_server(gate) as (server, engine):

        async def scenario() -> tuple[list[AudioChunk], str]:
            async with Speaker(WebSocketTransport(server.ws_url)) as speaker:
                gate.set()
                chunks = [chunk async for chunk in speaker.speak_ssml('<speak>Done.<mark name="last"/></speak>')]
                gate.clear()
                reply = speaker.reply()
                document = (
                    '<speak>Call <sub alias="Amazon Web Services">AWS</sub> now. <break time="2s"/> Later.</speak>'
                )
                await reply.say_ssml(document)
                await await_until(lambda: len(engine.calls) >= 1, "the first run to start")
                gate.set()
                first = await anext(aiter(reply))
                assert first.audio
                heard = await speaker.cancel()
                return chunks, heard.text

        chunks, heard = run(scenario())
    assert chunks[-1].audio == b"" and [mark.name for mark in chunks[-1].bookmarks] == ["last"]
    assert heard in ("Call AWS now.", "Call AWS now. Later.", "")  # written words, never the alias
    assert "Amazon" not in heard


def test_a_sentence_refused_while_the_server_drains_the_session_is_spoken_after_the_reconnect() -> None:
    """A scaled-in instance drains: its sessions finish what they hold, refuse new sentences (``closing``) and
    close with 1001; the speaker sends the refused one again on its next connection, so the turn loses nothing."""
    gate = threading.Event()
    with fake_server(gate) as (server, engine):

        def drain() -> None:
            for session in list(server.server.runtime.sessions):
                session.close(1001)

        async def scenario() -> list[str]:
            async with Speaker(WebSocketTransport(server.ws_url), reconnect_delay=0.05) as speaker:
                reply = speaker.reply()
                await reply.say("First sentence here.")
                await await_until(lambda: len(engine.calls) == 1, "the first sentence to be held by the engine")
                server.call(drain)
                await reply.say("Second one too.")
                await reply.end()
                await await_until(lambda: speaker.reconnects == 0 and engine.calls == ["First sentence here."], "")
                gate.set()
                return [chunk.text async for chunk in reply]

        texts = run(scenario())
    assert list(dict.fromkeys(texts)) == ["First sentence here.", "Second one too."]
    assert engine.calls == ["First sentence here.", "Second one too."]


def test_speak_ssml_yields_the_audio_of_one_document() -> None:
    with fake_server() as (server, engine):

        async def scenario() -> list[AudioChunk]:
            async with Speaker(WebSocketTransport(server.ws_url)) as speaker:
                return [chunk async for chunk in speaker.speak_ssml("Hello <break time='300ms'/> world")]

        chunks = run(scenario())
    assert sum(len(chunk.audio) for chunk in chunks) > 0.3 * 24000 * 2
    assert engine.calls == ["Hello world"]  # the break is made inside the sentence's one call
