"""Word marks through the real server on the deterministic fake engine: where marks go on the wire,
what `canceled.sent_text` holds, and the POST route's NDJSON response. The fake engine spreads words
over its audio in proportion to what is said, so every expected time is exact; the real model's marks
are checked in test_marks.py."""

from __future__ import annotations

import base64
import json
import threading
from typing import Any

import aiohttp
import pytest

from kokoro_core.server_messages import Marks
from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.settings import ServerSettings
from tests.fake_server import FirstChunkOnly, fake_server
from tests.local_server import RunningServer
from tests.speech import Event, audio_of, connect, run, until
from tests.waiting import await_until

# Sentences that the chunk planner, at these limits, makes several chunks of.
TEXT = "Sure, your refund of $42.97 is on its way. It left at 7:45 a.m. today. Expect it within 3 to 5 days."
CHUNK_LIMITS = {"first_chunk_chars": 40, "max_chunk_chars": 60}
MS_PER_BYTE = 1000 / (24000 * 2)


def marks_and_frames(events: list[Event]) -> list[tuple[list[dict[str, Any]], bytes]]:
    """Each binary frame with the marks message just before it (or none)."""
    pairs, pending = [], None
    for event in events:
        if event.type == "marks":
            assert pending is None, "two marks messages without audio between them"
            pending = event.message["words"]
        elif event.type == "audio":
            pairs.append((pending or [], event.audio))
            pending = None
    return pairs


def test_with_marks_on_each_frame_is_preceded_by_the_marks_of_its_words() -> None:
    async def scenario(url: str) -> tuple[dict, list[Event]]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "configure", "marks": True})
            configured = (await until(ws, "configured"))[-1].message
            await ws.send_json({"type": "speak", "id": "u1", "text": TEXT})
            return configured, await until(ws, "done", "u1")

    with fake_server(**CHUNK_LIMITS) as (server, engine):
        configured, events = run(scenario(server.ws_url))
        chunks = engine.calls
    assert configured["marks"] is True and len(chunks) >= 3
    pairs = marks_and_frames(events)
    assert len(pairs) == len(chunks) and all(words for words, _ in pairs)
    words = [Marks(id="u1", words=w).words for w, _ in pairs]  # each message reads as the typed model
    flat = [word for chunk in words for word in chunk]
    assert " ".join(word.text for word in flat) == TEXT
    assert next(word for word in flat if word.text == "$42.97").end_ms > 0
    # In order, never overlapping, and each chunk's words within that chunk's audio, across joins.
    assert all(a.end_ms <= b.start_ms for a, b in zip(flat, flat[1:], strict=False))
    played = 0.0
    for chunk, chunk_words, (_, audio) in zip(chunks, words, pairs, strict=True):
        assert " ".join(word.text for word in chunk_words) == chunk
        chunk_ms = len(audio) * MS_PER_BYTE
        assert chunk_words[0].start_ms == pytest.approx(played, abs=0.1)  # the fake has no leading silence
        assert chunk_words[-1].end_ms == pytest.approx(played + chunk_ms, abs=0.1)
        played += chunk_ms
    assert events[-1].message["audio_ms"] == pytest.approx(played, abs=0.1)


def test_marks_are_off_by_default_and_a_speak_may_ask_for_them() -> None:
    async def scenario(url: str) -> tuple[list[Event], list[Event], dict]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "plain", "text": "No marks here."})
            plain = await until(ws, "done", "plain")
            await ws.send_json({"type": "speak", "id": "marked", "text": "Marks here.", "marks": True})
            marked = await until(ws, "done", "marked")
            await ws.send_json({"type": "configure", "marks": "yes"})
            refused = (await until(ws, "error"))[-1].message
            return plain, marked, refused

    with fake_server() as (server, _):
        plain, marked, refused = run(scenario(server.ws_url))
    assert "marks" not in [event.type for event in plain]
    assert [event.type for event in marked] == ["start", "marks", "audio", "done"]
    assert marked[0].message["marks"] is True
    assert [word["text"] for word in marked[1].message["words"]] == ["Marks", "here."]
    assert refused["code"] == "invalid_marks" and "give true" in refused["message"]


def test_canceled_says_which_words_had_all_their_audio_sent() -> None:
    engine = FirstChunkOnly()

    async def scenario(url: str) -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "u1", "text": TEXT, "marks": True})
            events = await until(ws, "audio")  # the first chunk is out; the second is held
            await ws.send_json({"type": "cancel"})
            return events + await until(ws, "canceled")

    running = RunningServer(ServerSettings(host="127.0.0.1", port=0, **CHUNK_LIMITS), engine=engine).start(timeout=30)
    try:
        events = run(scenario(running.ws_url))
    finally:
        engine.held.set()
        running.stop()
    first_words = next(event for event in events if event.type == "marks").message["words"]
    canceled = events[-1].message
    assert canceled["sent_ms"] == pytest.approx(len(audio_of(events)) * MS_PER_BYTE, abs=0.1)
    assert canceled["sent_text"] == " ".join(word["text"] for word in first_words) == engine.calls[0]


def test_canceled_before_any_audio_has_no_sent_text() -> None:
    gate = threading.Event()

    async def scenario(url: str, engine: FakeEngine) -> dict:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "u1", "text": TEXT})
            await await_until(lambda: engine.calls, "the first chunk to reach the engine, held at the gate")
            await ws.send_json({"type": "cancel", "id": "u1"})
            return (await until(ws, "canceled"))[-1].message

    with fake_server(gate) as (server, engine):
        canceled = run(scenario(server.ws_url, engine))
    assert (canceled["sent_ms"], canceled["sent_text"]) == (0, "")


@pytest.mark.parametrize("audio_format", ["pcm16", "wav"])
def test_post_with_marks_streams_ndjson_whose_audio_is_the_plain_response(audio_format: str) -> None:
    async def scenario(url: str) -> tuple[bytes, str, list[dict[str, Any]]]:
        body = {"text": TEXT, "format": audio_format}
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{url}/invocations", json=body) as response:
                plain = await response.read()
            async with http.post(f"{url}/invocations", json=body | {"marks": True}) as response:
                content_type = response.headers["Content-Type"]
                lines = [json.loads(line) async for line in response.content if line.strip()]
        return plain, content_type, lines

    with fake_server(**CHUNK_LIMITS) as (server, engine):
        plain, content_type, lines = run(scenario(server.url))
        calls = len(engine.calls) // 2
    assert content_type == "application/x-ndjson"
    chunks, done = lines[:-1], lines[-1]
    assert [line["type"] for line in chunks] == ["chunk"] * calls and done["type"] == "done"
    assert b"".join(base64.b64decode(line["audio"]) for line in chunks) == plain
    words = [word for line in chunks for word in line["words"]]
    assert " ".join(word["text"] for word in words) == TEXT
    assert all(a["end_ms"] <= b["start_ms"] for a, b in zip(words, words[1:], strict=False))
    assert words[-1]["end_ms"] == pytest.approx(done["audio_ms"], abs=0.1)
