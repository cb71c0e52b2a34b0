"""``Speaker(segment="server")`` through a real local server: a reply's raw deltas go to a context and the
server cuts them. On the real model, the sentences, words and audio are those of cutting on the client; on
the fake engine (the protocol, not the sound), a dropped session resumes its stream exactly once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kokoro_bench.corpus import load_replies
from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.settings import ServerSettings
from kokoro_stream import Speaker, WebSocketTransport
from tests.local_server import RunningServer, wait_until_idle
from tests.speech import run
from tests.tcp_proxy import TcpProxy

REPLY = load_replies()["refund-policy"]  # markdown paragraphs, a price, an early first clause


def ws_url(port: int) -> str:
    return f"ws://127.0.0.1:{port}/invocations-bidirectional-stream"


async def tokens(text: str, size: int = 3):
    for start in range(0, len(text), size):
        yield text[start : start + size]


def per_sentence(chunks) -> dict[str, tuple[int, list[str]]]:
    spoken: dict[str, tuple[int, list[str]]] = {}
    for chunk in chunks:
        size, words = spoken.get(chunk.text, (0, []))
        spoken[chunk.text] = (size + len(chunk.audio), words + [w.text for w in chunk.words])
    return spoken


def test_server_cut_replies_speak_the_sentences_words_and_audio_of_client_cutting(server, idle_after) -> None:
    async def spoken(segment: str):
        async with Speaker(WebSocketTransport(ws_url(server.server.port)), segment=segment) as speaker:
            chunks = [chunk async for chunk in speaker.speak(tokens(REPLY))]
            heard = speaker.heard()
        return chunks, heard

    client_chunks, client_heard = run(spoken("client"))
    server_chunks, server_heard = run(spoken("server"))
    assert list(per_sentence(server_chunks)) == list(per_sentence(client_chunks))  # the same sentences, in order
    assert [words for _, words in per_sentence(server_chunks).values()] == [
        words for _, words in per_sentence(client_chunks).values()
    ]
    assert server_heard.text == client_heard.text and server_heard.complete
    assert all(chunk.utterance_id.startswith("r1/") for chunk in server_chunks)
    # A later sentence's first chunk is sized to the audio still to be heard, so its audio may differ by a
    # chunk layout; the first sentence's never does.
    first = next(iter(per_sentence(client_chunks)))
    assert per_sentence(server_chunks)[first][0] == per_sentence(client_chunks)[first][0]


@pytest.fixture
def fake_server() -> Iterator[RunningServer]:
    running = RunningServer(ServerSettings(host="127.0.0.1", port=0), engine=FakeEngine()).start(timeout=30)
    try:
        yield running
        assert wait_until_idle(running)["active_utterances"] == 0
    finally:
        running.stop()


def test_a_session_dropped_twice_resumes_a_server_cut_reply_and_speaks_every_sentence_once(fake_server) -> None:
    server = fake_server

    async def with_a_drop():
        async with TcpProxy(server.server.port) as proxy:
            transport = WebSocketTransport(ws_url(proxy.port))
            async with Speaker(transport, segment="server", reconnect_delay=0.05) as speaker:
                chunks = []
                async for chunk in speaker.speak(tokens(REPLY)):
                    chunks.append(chunk)
                    if (proxy.connections, len(chunks)) in ((1, 2), (2, 4)):
                        proxy.drop()  # mid-reply, twice: sentences started, others still in the server's buffer
                return chunks, speaker.reconnects, speaker.heard()

    chunks, reconnects, heard = run(with_a_drop())
    assert reconnects == 2
    texts = list(dict.fromkeys(chunk.text for chunk in chunks))

    async def reference():
        async with Speaker(WebSocketTransport(ws_url(server.server.port))) as speaker:
            return [chunk async for chunk in speaker.speak(tokens(REPLY))]

    expected = list(dict.fromkeys(chunk.text for chunk in run(reference())))
    assert texts == expected  # none lost, none twice, in order
    assert heard.complete
