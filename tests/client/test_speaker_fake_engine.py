"""The Speaker over a real socket to a real server on the deterministic fake engine: the fast tier.

The fake engine's audio is a function of the text, so these tests compare bytes exactly: nothing
lost, nothing twice, nothing of a canceled sentence. The same behaviours are checked on the real
model in test_speaker.py.
"""

from __future__ import annotations

import asyncio
import threading

from kokoro_core.server_messages import Error
from kokoro_stream import Speaker, WebSocketTransport
from kokoro_stream.transport import Control, Event
from tests.fake_server import fake_server
from tests.speech import run
from tests.tcp_proxy import TcpProxy
from tests.waiting import await_until

# Long enough that each sentence is several chunks, so a drop can fall inside one.
SENTENCES = [
    "Your order of three items, two shirts and a scarf, shipped this morning from our Ohio warehouse.",
    "It should arrive by Thursday, and the tracking number is in the email we just sent you.",
    "If anything is missing, reply to that email or call us, and we will make it right the same day.",
]
TEXT = " ".join(SENTENCES)


class RecordingTransport(WebSocketTransport):
    """The real WebSocket transport, keeping every server message it hands the speaker."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.messages: list = []

    async def receive(self) -> Event:
        event = await super().receive()
        if isinstance(event, Control):
            self.messages.append(event.message)
        return event


# Every chunk at most 40 said characters, the first one included, so the layout of each sentence's
# audio is the same in every run, however the time left to hear falls.
CHUNKS = {"first_chunk_chars": 40, "max_chunk_chars": 40}


def reference_audio() -> dict[str, bytes]:
    """Each sentence's audio from an unhindered run: no drop, no busy, nothing held."""

    async def scenario(url: str) -> dict[str, bytes]:
        async with Speaker(WebSocketTransport(url)) as speaker:
            return await spoken(speaker, TEXT)

    with fake_server(**CHUNKS) as (server, _):
        return run(scenario(server.ws_url))


async def spoken(speaker: Speaker, text: str) -> dict[str, bytes]:
    audio: dict[str, bytes] = {}
    async for chunk in speaker.speak(text):
        audio[chunk.text] = audio.get(chunk.text, b"") + chunk.audio
    return audio


def test_a_drop_mid_sentence_reconnects_and_every_byte_arrives_exactly_once() -> None:
    async def with_a_drop(port: int) -> tuple[dict[str, bytes], int, int]:
        async with TcpProxy(port) as proxy:
            url = f"ws://127.0.0.1:{proxy.port}/invocations-bidirectional-stream"
            async with Speaker(WebSocketTransport(url), reconnect_delay=0.05) as speaker:
                audio: dict[str, bytes] = {}
                async for chunk in speaker.speak(TEXT):
                    audio[chunk.text] = audio.get(chunk.text, b"") + chunk.audio
                    if chunk.text == SENTENCES[1] and proxy.connections == 1:
                        proxy.drop()  # part of this sentence is delivered, part is in flight
                return audio, speaker.reconnects, proxy.connections

    with fake_server(**CHUNKS) as (server, _):
        got, reconnects, connections = run(with_a_drop(server.server.port))
    assert (reconnects, connections) == (1, 2)
    assert list(got) == SENTENCES and got == reference_audio()


def test_busy_sentences_are_retried_until_admitted_and_come_back_in_order() -> None:
    gate = threading.Event()

    async def scenario(url: str) -> tuple[dict[str, bytes], list]:
        transport = RecordingTransport(url)
        async with Speaker(transport) as speaker:
            reply = speaker.reply()
            await reply.feed(TEXT)
            await reply.end()
            await await_until(
                lambda: any(isinstance(m, Error) and m.code == "busy" for m in transport.messages),
                "the second sentence to be refused as busy while the first is held",
            )
            gate.set()
            audio: dict[str, bytes] = {}
            async for chunk in reply:
                audio[chunk.text] = audio.get(chunk.text, b"") + chunk.audio
            return audio, transport.messages

    with fake_server(gate, max_active_utterances=1, **CHUNKS) as (server, engine):
        audio, messages = run(scenario(server.ws_url))
        calls = list(engine.calls)
    # Heard in the order fed, though a retried sentence may be synthesized after a later one.
    assert list(audio) == SENTENCES
    assert sorted(" ".join(calls).split()) == sorted(TEXT.split())  # each synthesized once
    assert audio == reference_audio()
    assert sum(isinstance(m, Error) and m.code == "busy" for m in messages) >= 1


def test_sentences_past_the_sessions_share_wait_on_the_client_and_are_never_refused() -> None:
    gate = threading.Event()
    sentences = [f"Sentence number {index} of a reply longer than one session may queue." for index in range(6)]

    async def scenario(url: str, server) -> tuple[dict[str, bytes], list, int]:
        transport = RecordingTransport(url)
        async with Speaker(transport) as speaker:
            reply = speaker.reply()
            await reply.feed(" ".join(sentences))
            await reply.end()
            await await_until(
                lambda: server.stats()["active_utterances"] >= 2, "the session's share to be admitted, held at the gate"
            )
            await asyncio.sleep(0.2)  # time for a third sentence to be sent, were the speaker to send it
            held_at = server.stats()["active_utterances"]
            gate.set()
            audio: dict[str, bytes] = {}
            async for chunk in reply:
                audio[chunk.text] = audio.get(chunk.text, b"") + chunk.audio
            return audio, transport.messages, held_at

    with fake_server(gate, max_session_utterances=2, **CHUNKS) as (server, _):
        audio, messages, held_at = run(scenario(server.ws_url, server))
    assert held_at == 2  # the rest waited on the client
    assert list(audio) == sentences and all(audio.values())
    assert not any(isinstance(m, Error) for m in messages)  # never refused as busy


def test_a_cancel_while_the_engine_holds_the_first_sentence_delivers_nothing_of_the_reply() -> None:
    gate = threading.Event()

    async def scenario(url: str, engine) -> tuple[list, dict[str, bytes]]:
        async with Speaker(WebSocketTransport(url)) as speaker:
            reply = speaker.reply()
            await reply.feed(TEXT)
            await await_until(lambda: engine.calls, "the first chunk to reach the engine, held at the gate")
            await speaker.cancel()
            await await_until(lambda: engine.interrupted_calls, "the server to take the cancel and stop the held call")
            gate.set()
            after = [chunk async for chunk in reply]
            again = await spoken(speaker, "Yes, I am listening.")
            return after, again

    with fake_server(gate) as (server, engine):
        after, again = run(scenario(server.ws_url, engine))
        assert engine.interrupted_calls == 1 and engine.calls[-1] == "Yes, I am listening."
    assert after == [] and list(again) == ["Yes, I am listening."]


def test_with_foreign_script_skip_a_sentence_of_only_another_script_is_not_sent_and_the_reply_goes_on() -> None:
    async def scenario(url: str, engine) -> tuple[list[str], list]:
        transport = RecordingTransport(url)
        async with Speaker(transport, foreign_script="skip") as speaker:
            reply = speaker.reply()
            for delta in ["Thank you. ", "王小明。", " See you soon."]:
                await reply.feed(delta)
            await reply.end()
            audio = [chunk async for chunk in reply]
        return engine.said, [message for message in transport.messages if isinstance(message, Error)], audio

    with fake_server() as (server, engine):
        said, errors, audio = run(scenario(server.ws_url, engine))
    assert said == ["Thank you.", "See you soon."] and errors == [] and audio
