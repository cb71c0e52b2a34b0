"""Text streams (contexts) on a real server with the deterministic fake engine: cutting, flush, end, several
contexts, cancel, expiry and every refusal. The same claims on the real model: test_contexts.py."""

from __future__ import annotations

import threading

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kokoro_core.markdown import spoken_from_markdown
from kokoro_core.speakable import language_of
from kokoro_core.speech_text import SpeechText
from kokoro_server.serving import runtime
from tests.fake_server import fake_server
from tests.local_server import RunningServer
from tests.speech import Event, audio_of, connect, receive, run, speak_and_collect, until
from tests.waiting import await_until

REPLY = "It costs $1,250.50 today. Café crème is 3.5€ — the usual! Call me at 7:45 a.m. Then we'll see."


def controls(events: list[Event]) -> list[tuple[str, str | None]]:
    return [(e.type, e.message.get("id") or e.message.get("context")) for e in events if e.message is not None]


async def stream(ws: aiohttp.ClientWebSocketResponse, context: str, deltas: list[str], **options: object) -> None:
    await ws.send_json({"type": "open", "context": context, **options})
    for delta in deltas:
        await ws.send_json({"type": "append", "context": context, "text": delta})
    await ws.send_json({"type": "end", "context": context})


async def until_ended(ws: aiohttp.ClientWebSocketResponse, context: str) -> list[Event]:
    events: list[Event] = []
    while True:
        event = await receive(ws)
        assert event is not None, f"closed before {context} ended: {controls(events)}"
        events.append(event)
        if event.type == "context_ended" and event.message["context"] == context:
            return events


def expected_sentences(text: str, voice: str = "af_heart") -> list[str]:
    """What the client cuts of ``text`` for ``voice`` (whose language says what it can say)."""
    cutter = SpeechText(language=language_of(voice))
    return cutter.push(text) + cutter.flush()


def test_a_reply_streamed_a_character_at_a_time_is_cut_as_the_whole_text_is() -> None:
    async def scenario(server: RunningServer) -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await stream(ws, "reply-1", list(REPLY))  # splits every word, number and multi-byte character
            return await until_ended(ws, "reply-1")

    with fake_server() as (server, engine):
        events = run(scenario(server))
    starts = [e.message for e in events if e.type == "start"]
    assert [start["text"] for start in starts] == expected_sentences(REPLY)
    assert all(start["context"] == "reply-1" for start in starts)
    assert [start["stream_chars"] for start in starts][-1] == len(REPLY)
    dones = [e.message for e in events if e.type == "done"]
    assert [done["id"] for done in dones] == [start["id"] for start in starts]
    assert all(done["context"] == "reply-1" for done in dones)
    assert events[-1].message == {"type": "context_ended", "context": "reply-1", "reason": "ended"}
    assert audio_of(events)


def test_a_sentence_a_context_cuts_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The context's cutter reads each sentence's markdown; the server's admission does not read it again, while a
    ``speak`` is read there (the check that the spy sees what admission reads)."""
    read: list[str] = []

    def reading(text: str) -> str:
        read.append(text)
        return spoken_from_markdown(text)

    monkeypatch.setattr(runtime, "spoken_from_markdown", reading)
    text = "First, the **refund**. Then the rest."

    async def scenario(server: RunningServer) -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "said", "text": "A *speak* is read."})
            await stream(ws, "reply-1", [text])
            return await until_ended(ws, "reply-1")

    with fake_server() as (server, _engine):
        events = run(scenario(server))
    cut = [e.message["text"] for e in events if e.type == "start" and e.message.get("context") == "reply-1"]
    assert cut == expected_sentences(text)
    assert read == ["A *speak* is read."]


@settings(max_examples=15, deadline=None)
@given(cuts=st.lists(st.integers(min_value=1, max_value=len(REPLY) - 1), max_size=12, unique=True))
def test_any_way_of_cutting_the_deltas_speaks_the_same_sentences(cuts: list[int]) -> None:
    bounds = [0, *sorted(cuts), len(REPLY)]
    deltas = [REPLY[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]

    async def scenario(server: RunningServer) -> list[str]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await stream(ws, "c", deltas)
            return [e.message["text"] for e in await until_ended(ws, "c") if e.type == "start"]

    with fake_server() as (server, _engine):
        assert run(scenario(server)) == expected_sentences(REPLY)


def test_flush_speaks_what_is_held_and_is_answered_after_its_audio() -> None:
    async def scenario(server: RunningServer) -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "open", "context": "c", "max_buffer_delay_ms": 10_000})
            await ws.send_json({"type": "append", "context": "c", "text": "No sentence end here"})
            await ws.send_json({"type": "flush", "context": "c", "id": "f1"})
            return await until(ws, "flushed")

    with fake_server() as (server, engine):
        events = run(scenario(server))
        assert engine.calls == ["No sentence end here"]
    assert controls(events) == [
        ("start", events[0].message["id"]),
        ("done", events[0].message["id"]),
        ("flushed", "f1"),
    ]
    assert events[-1].message == {"type": "flushed", "context": "c", "id": "f1"}
    assert audio_of(events)


def test_text_that_waits_past_the_buffer_delay_is_spoken_without_a_flush() -> None:
    async def scenario(server: RunningServer) -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "open", "context": "c", "max_buffer_delay_ms": 50})
            await ws.send_json({"type": "append", "context": "c", "text": "The model stalled mid"})
            return await until(ws, "done")

    with fake_server() as (server, engine):
        events = run(scenario(server))
        assert engine.calls == ["The model stalled mid"]
    assert events[0].message["text"] == "The model stalled mid"


def test_two_contexts_interleave_and_canceling_one_leaves_the_other_whole() -> None:
    gate = threading.Event()

    async def scenario(server: RunningServer) -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "open", "context": "a", "voice": "am_michael"})
            await ws.send_json({"type": "open", "context": "b"})
            for a, b in [("First from Anna. ", "First from Ben. "), ("Second from Anna. ", "Second from Ben. ")]:
                await ws.send_json({"type": "append", "context": "a", "text": a})
                await ws.send_json({"type": "append", "context": "b", "text": b})
            await ws.send_json({"type": "end", "context": "a"})
            await ws.send_json({"type": "end", "context": "b"})
            await await_until(lambda: server.stats()["active_utterances"] == 4, "four sentences queued")
            await ws.send_json({"type": "cancel", "context": "a"})
            gate.set()
            return await until_ended(ws, "b")

    with fake_server(gate) as (server, _engine):
        events = run(scenario(server))
    ended = [e.message for e in events if e.type == "context_ended"]
    assert ended == [
        {"type": "context_ended", "context": "a", "reason": "canceled"},
        {"type": "context_ended", "context": "b", "reason": "ended"},
    ]
    canceled = [e.message for e in events if e.type == "canceled"]
    assert {c["context"] for c in canceled} == {"a"} and len(canceled) == 2
    done = [e.message["id"] for e in events if e.type == "done"]
    starts = {e.message["id"]: e.message for e in events if e.type == "start"}
    assert [starts[i]["text"] for i in done] == ["First from Ben.", "Second from Ben."]
    assert all(starts[i]["context"] == "b" and starts[i]["voice"] == "af_heart" for i in done)


def test_every_bad_input_is_refused_with_its_code_and_the_session_goes_on() -> None:
    async def scenario(server: RunningServer) -> tuple[list[dict], bytes]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            refusals = []

            async def refused(message: dict) -> None:
                await ws.send_json(message)
                event = await receive(ws)
                assert event is not None and event.type == "error", (message, event)
                refusals.append(event.message)

            await refused({"type": "append", "context": "nope", "text": "hi"})
            await refused({"type": "open", "context": "d", "voice": "zz_nobody"})
            await ws.send_json({"type": "open", "context": "a"})
            await refused({"type": "open", "context": "a"})
            await ws.send_json({"type": "open", "context": "b"})
            await refused({"type": "open", "context": "c"})  # max_session_contexts=2
            await refused({"type": "append", "context": "a", "text": "x" * 41})  # max_text_chars=40
            await refused({"type": "append", "context": "a", "text": 5})
            await refused({"type": "open", "context": ""})
            await refused({"type": "open", "context": "d", "max_buffer_delay_ms": -1})
            await ws.send_json({"type": "end", "context": "b"})
            await refused({"type": "append", "context": "b", "text": "late"})
            await until(ws, "context_ended")
            await refused({"type": "flush", "context": "b"})
            audio = await speak_and_collect(ws, "Still here.", "after")
            return refusals, audio

    with fake_server(max_session_contexts=2, max_text_chars=40) as (server, _engine):
        refusals, audio = run(scenario(server))
    codes = [(r["code"], r.get("context")) for r in refusals]
    assert codes == [
        ("unknown_context", "nope"),
        ("unknown_voice", "d"),
        ("duplicate_context", "a"),
        ("too_many_contexts", "c"),
        ("text_too_long", "a"),
        ("invalid_text", None),
        ("invalid_context", None),
        ("invalid_buffer_delay", None),
        ("unknown_context", "b"),
        ("unknown_context", "b"),
    ]
    assert "has ended" in refusals[-1]["message"] and "at most 40" in refusals[4]["message"]
    assert audio


def test_an_idle_context_expires_and_close_speaks_what_open_ones_hold() -> None:
    async def scenario(server: RunningServer) -> tuple[list[Event], list[Event]]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "open", "context": "idle"})
            expired = await until(ws, "context_ended")
            await ws.send_json({"type": "open", "context": "open", "max_buffer_delay_ms": 10_000})
            await ws.send_json({"type": "append", "context": "open", "text": "Said before the close"})
            await ws.send_json({"type": "close"})
            closing = []
            while (event := await receive(ws)) is not None:
                closing.append(event)
            return expired, closing

    with fake_server(context_idle_seconds=0.2) as (server, engine):
        expired, closing = run(scenario(server))
        assert engine.calls == ["Said before the close"]
    assert expired[-1].message == {"type": "context_ended", "context": "idle", "reason": "expired"}
    assert [e.type for e in closing if e.message] == ["start", "done", "context_ended"]


def test_an_ssml_context_never_cuts_an_element_and_reads_its_markup() -> None:
    document = (
        'Your code is <say-as interpret-as="characters">AB</say-as>. <prosody rate="slow">One. Two.</prosody> Done.'
    )

    async def scenario(server: RunningServer) -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await stream(ws, "s", [document[i : i + 3] for i in range(0, len(document), 3)], ssml=True)
            return await until_ended(ws, "s")

    with fake_server() as (server, _engine):
        events = run(scenario(server))
    texts = [e.message["text"] for e in events if e.type == "start"]
    # An element is never cut: the prosody's sentences, and the one its close runs into, are one utterance.
    assert texts == ["Your code is AB.", "One. Two. Done."]
    assert not [e for e in events if e.type == "error"]


def test_barge_in_cancels_every_context_and_speak_and_the_session_goes_on() -> None:
    gate = threading.Event()

    async def scenario(server: RunningServer) -> tuple[list[Event], bytes]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "u1", "text": "A speak first."})
            await ws.send_json({"type": "open", "context": "a"})
            await ws.send_json({"type": "append", "context": "a", "text": "One from Anna. Two from Anna. Three"})
            await await_until(lambda: server.stats()["active_utterances"] == 3, "a speak and two sentences queued")
            await ws.send_json({"type": "cancel"})
            events = []
            while not any(e.type == "context_ended" for e in events):
                event = await receive(ws)
                assert event is not None
                events.append(event)
            gate.set()
            return events, await speak_and_collect(ws, "Still here.", "after")

    with fake_server(gate) as (server, _engine):
        events, audio = run(scenario(server))
    replies = [(e.type, e.message.get("id") or e.message.get("context")) for e in events if e.message]
    assert replies[-4:] == [("canceled", "u1"), ("canceled", "a/1"), ("canceled", "a/2"), ("context_ended", "a")]
    assert audio
