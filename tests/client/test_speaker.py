"""The client library against a real local server: order, pipelining, cancel, reconnection, errors."""

from __future__ import annotations

import asyncio
import time

import pytest
from aiohttp import web

from kokoro_stream import ServerError, Speaker, SpeechTimeout, TransportClosed, WebSocketTransport
from tests.speech import plausible_duration, run
from tests.tcp_proxy import TcpProxy

SENTENCES = ["First, the weather.", "Second, the traffic.", "Third, your calendar.", "Fourth, the news.", "Done."]


def ws_url(port: int) -> str:
    return f"ws://127.0.0.1:{port}/invocations-bidirectional-stream"


async def tokens(text: str, size: int = 4, delay: float = 0.0):
    for start in range(0, len(text), size):
        if delay:
            await asyncio.sleep(delay)
        yield text[start : start + size]


def test_sentences_of_a_token_stream_come_back_in_order(server, idle_after):
    text = " ".join(SENTENCES)

    async def scenario():
        async with Speaker(WebSocketTransport(ws_url(server.server.port))) as speaker:
            chunks = [chunk async for chunk in speaker.speak(tokens(text))]
        return chunks

    chunks = run(scenario())
    spoken = list(dict.fromkeys(chunk.text for chunk in chunks))
    assert spoken == SENTENCES  # every sentence, once, in order
    ids = [chunk.utterance_id for chunk in chunks]
    assert ids == sorted(ids, key=lambda i: int(i[1:]))  # audio never interleaves across sentences
    for sentence in SENTENCES:
        audio = b"".join(chunk.audio for chunk in chunks if chunk.text == sentence)
        assert plausible_duration(sentence, len(audio) / 2 / chunks[0].sample_rate)


def test_sentences_are_sent_before_earlier_ones_finish(server, idle_after):
    """Pipelining: every sentence is on the wire before the first one has produced any audio."""

    async def scenario():
        async with Speaker(WebSocketTransport(ws_url(server.server.port))) as speaker:
            reply = speaker.reply()
            for sentence in SENTENCES:
                await reply.feed(sentence + " ")
            await reply.end()
            all_sent_at = time.perf_counter()
            first = await anext(reply)
            first_audio_at = time.perf_counter()
            rest = [chunk async for chunk in reply]
            return all_sent_at, first_audio_at, [first, *rest]

    all_sent_at, first_audio_at, chunks = run(scenario())
    assert all_sent_at < first_audio_at
    assert list(dict.fromkeys(chunk.text for chunk in chunks)) == SENTENCES


def test_cancel_mid_utterance_delivers_nothing_more_and_the_session_goes_on(server, idle_after):
    long_reply = " ".join(f"Item number {i} on a long list of things to read out." for i in range(10))

    async def scenario():
        async with Speaker(WebSocketTransport(ws_url(server.server.port))) as speaker:
            reply = speaker.reply()
            await reply.feed(long_reply)
            await reply.end()
            first = await anext(reply)
            await speaker.cancel()
            after = [chunk async for chunk in reply]
            await asyncio.sleep(1.0)  # let any in-flight frames arrive: none may surface
            again = [chunk async for chunk in speaker.speak("Yes, I am listening.")]
            return first, after, again

    first, after, again = run(scenario())
    assert first.text.startswith("Item number 0") and after == []
    assert {chunk.text for chunk in again} == {"Yes, I am listening."}


def test_a_dropped_session_is_reopened_and_unfinished_sentences_are_spoken_exactly_once(server, idle_after):
    text = " ".join(SENTENCES)

    async def reference() -> dict[str, int]:
        async with Speaker(WebSocketTransport(ws_url(server.server.port))) as speaker:
            chunks = [chunk async for chunk in speaker.speak(text)]
        return {s: sum(len(c.audio) for c in chunks if c.text == s) for s in SENTENCES}

    async def with_a_drop() -> tuple[dict[str, int], int, int]:
        async with TcpProxy(server.server.port) as proxy:
            async with Speaker(WebSocketTransport(ws_url(proxy.port)), reconnect_delay=0.05) as speaker:
                chunks = []
                async for chunk in speaker.speak(text):
                    chunks.append(chunk)
                    if chunk.text == SENTENCES[1] and proxy.connections == 1:
                        proxy.drop()  # mid-sentence: part of its audio is already delivered
                reconnects = speaker.reconnects
            return (
                {s: sum(len(c.audio) for c in chunks if c.text == s) for s in SENTENCES},
                reconnects,
                proxy.connections,
            )

    expected = run(reference())
    got, reconnects, connections = run(with_a_drop())
    assert reconnects == 1 and connections == 2
    assert got == expected  # no sentence lost, none heard twice, not a byte more or less


def test_a_refused_setting_raises_a_typed_error(server, idle_after):
    async def scenario():
        async with Speaker(WebSocketTransport(ws_url(server.server.port)), voice="xx_nobody"):
            pass

    with pytest.raises(ServerError) as caught:
        run(scenario())
    assert caught.value.code == "unknown_voice" and "af_heart" in caught.value.message


def test_a_server_that_goes_silent_raises_a_timeout():
    async def silent(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"type": "ready", "sample_rate": 24000})
        async for message in ws:
            if '"configure"' in message.data:
                await ws.send_json({"type": "configured", "sample_rate": 24000})
        return ws

    async def scenario():
        app = web.Application()
        app.router.add_get("/invocations-bidirectional-stream", silent)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        try:
            async with Speaker(WebSocketTransport(ws_url(port)), timeout=0.5) as speaker:
                return [chunk async for chunk in speaker.speak("Anyone there?")]
        finally:
            await runner.cleanup()

    with pytest.raises(SpeechTimeout):
        run(scenario())


def test_nobody_listening_is_a_typed_error():
    async def scenario():
        async with Speaker(WebSocketTransport(ws_url(1)), max_reconnects=0):
            pass

    with pytest.raises(TransportClosed, match="cannot open a session at ws://127.0.0.1:1/"):
        run(scenario())
