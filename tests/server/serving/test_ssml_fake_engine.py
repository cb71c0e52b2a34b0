"""SSML through the real server on the fake engine: refusals, hostile documents, bookmarks on each route,
plain text never read as markup, and an SSML utterance that streams."""

from __future__ import annotations

import base64
import json
import threading

import aiohttp
import numpy as np
import pytest

from kokoro_core.model_cache import SAMPLE_RATE
from tests.fake_server import fake_server
from tests.local_server import RunningServer
from tests.speech import audio_of, connect, run, until


def speak_events(server: RunningServer, text: str, **options) -> list:
    async def scenario() -> list:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "u1", "text": text, **options})
            events = await until(ws, "done", "u1")
            return events

    return run(scenario())


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("<speak><blink>now</blink></speak>", "<blink> is not an element this server reads"),
        ("<speak><break time='soon'/></speak>", "<break time='soon'> is not allowed"),
        ("<speak>unclosed <s>tag</speak>", "not well-formed XML: mismatched tag"),
        ('<?xml version="1.0"?><!DOCTYPE speak [<!ENTITY a "aaaa">]><speak>&a;</speak>', "DTD or an entity"),
        ("<speak>" + "<s>" * 10_000 + "deep" + "</s>" * 10_000 + "</speak>", "at most 16 are allowed"),
        ("<speak>" + "<break time='1ms'/>" * 5400 + "</speak>", "over 2000 elements"),  # about 100 KB
    ],
)
def test_a_document_refused_gets_an_error_with_its_id_and_the_session_goes_on(document: str, expected: str) -> None:
    async def scenario(server: RunningServer) -> tuple[dict, list]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "bad", "text": document})
            await ws.send_json(
                {"type": "speak", "id": "good", "text": "<speak>Still <break time='10ms'/> here.</speak>"}
            )
            refused = (await until(ws, "error"))[-1].message
            async with http.get(f"{server.url}/ping") as ping:
                assert ping.status == 200
            return refused, await until(ws, "done", "good")

    with fake_server(max_text_chars=200_000) as (server, _):
        refused, events = run(scenario(server))
    assert refused["id"] == "bad" and refused["code"] == "invalid_ssml", refused
    assert expected in refused["message"] and "docs/ssml.md" in refused["message"]
    assert events[0].type == "start" and audio_of(events)


def test_ping_answers_while_a_large_document_is_parsed_and_spoken() -> None:
    document = "<speak>" + "<s>Your order ships <say-as interpret-as='date' format='mdy'>12/05/2026</say-as>.</s>" * 250
    document += "</speak>"
    gate = threading.Event()

    async def scenario(server: RunningServer) -> list[int]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "u1", "text": document})
            statuses = []
            for _ in range(5):
                async with http.get(f"{server.url}/ping", timeout=aiohttp.ClientTimeout(total=5)) as ping:
                    statuses.append(ping.status)
            gate.set()
            await until(ws, "done", "u1")
            return statuses

    with fake_server(gate, max_text_chars=200_000) as (server, _):
        assert run(scenario(server)) == [200] * 5


def test_plain_text_with_angle_brackets_is_never_read_as_markup() -> None:
    with fake_server() as (server, engine):
        events = speak_events(server, "Use <b>bold</b> for emphasis, or write a < b.")
        assert events[-1].type == "done" and audio_of(events)
        refused = speak_events(server, "Use <b>bold</b> for emphasis.", ssml=False)
        assert refused[-1].type == "done"
        assert not any(event.type == "error" for event in events + refused)
        events = speak_events(server, "Hello <break time='200ms'/> world", ssml=True)  # a fragment, asked for
        assert events[-1].type == "done"
        assert engine.calls[-1] == "Hello world"  # a break inside a sentence: one model call


def test_bookmarks_come_on_the_websocket_and_in_post_ndjson_at_the_audio_before_them() -> None:
    document = '<speak><mark name="a"/>One. <break time="250ms"/><mark name="b"/>Two.<mark name="c"/></speak>'
    with fake_server() as (server, _):
        events = speak_events(server, document, marks=True)

        async def post() -> list[dict]:
            async with aiohttp.ClientSession() as http:
                body = {"text": document, "marks": True}
                async with http.post(f"{server.url}/invocations", json=body) as response:
                    assert response.status == 200
                    return [json.loads(line) for line in (await response.text()).splitlines()]

        lines = run(post())
    received, reached = 0, []
    for event in events:
        if event.audio is not None:
            received += len(event.audio)
        elif event.type == "bookmark":
            reached.append((event.message["name"], event.message["at_ms"], round(received / 2 / SAMPLE_RATE * 1000, 1)))
    assert [name for name, _, _ in reached] == ["a", "b", "c"]
    assert all(abs(at - before) <= 0.1 for _, at, before in reached), reached
    assert reached[0][1] == 0.0 and reached[1][1] >= 250  # the fake engine's tone has no quiet edges
    posted, audio_ms = [], 0.0
    for line in lines:
        for mark in line.get("bookmarks", []):
            posted.append((mark["name"], mark["at_ms"], round(audio_ms, 1)))
        audio_ms += len(base64.b64decode(line.get("audio", ""))) / 2 / SAMPLE_RATE * 1000
    assert [(name, at) for name, at, _ in posted] == [(name, at) for name, at, _ in reached]
    assert lines[-1]["type"] == "done"


def test_a_refused_document_on_post_is_a_400_and_its_slot_is_released() -> None:
    with fake_server(max_active_utterances=1) as (server, _):

        async def scenario() -> list[tuple[int, str]]:
            answers = []
            async with aiohttp.ClientSession() as http:
                for text in ("<speak><blink/></speak>", "<speak><blink/></speak>", "<speak>Fine.</speak>"):
                    async with http.post(f"{server.url}/invocations", json={"text": text}) as response:
                        answers.append((response.status, (await response.read())[:200].decode(errors="replace")))
            return answers

        answers = run(scenario())
        assert [status for status, _ in answers] == [400, 400, 200]
        assert "invalid_ssml" in answers[0][1] and "<blink>" in answers[0][1]
        assert server.stats()["active_utterances"] == 0


def test_the_first_audio_of_a_long_document_comes_before_its_second_chunk_is_spoken(engine_and_url) -> None:
    """The engine speaks the first call and holds every later one: audio arrives with one chunk spoken."""
    engine, ws_url = engine_and_url
    document = "<speak>" + "".join(f"<s>Sentence number {n} of the reply is here.</s>" for n in range(30)) + "</speak>"

    async def scenario() -> tuple[int, int]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, ws_url)
            await ws.send_json({"type": "speak", "id": "u1", "text": document})
            await until(ws, "audio")
            spoken_by_first_audio = len(engine.calls)
            engine.held.set()
            await until(ws, "done", "u1")
            return spoken_by_first_audio, len(engine.calls)

    first, total = run(scenario())
    assert first <= 2 and total == 30  # the second call may have started, held: none after it


def test_an_openai_request_whose_input_is_ssml_is_spoken_as_ssml() -> None:
    with fake_server() as (server, engine):

        async def scenario() -> tuple[int, bytes]:
            async with aiohttp.ClientSession() as http:
                body = {
                    "model": "kokoro",
                    "voice": "af_heart",
                    "response_format": "pcm",
                    "input": "<speak>Code <say-as interpret-as='characters'>AB</say-as>.</speak>",
                }
                async with http.post(f"{server.url}/v1/audio/speech", json=body) as response:
                    return response.status, await response.read()

        status, audio = run(scenario())
        assert status == 200 and audio
        assert engine.calls == ["Code Ssmlzxazq."]


def test_a_mark_between_two_breaks_is_reached_where_the_first_one_ends() -> None:
    half_second = '<break time="500ms"/>'
    document = f'<speak><mark name="m0"/>{half_second}<mark name="m1"/>{half_second}<mark name="m2"/>Hello.</speak>'
    with fake_server() as (server, _):
        events = speak_events(server, document)
    reached = {event.message["name"]: event.message["at_ms"] for event in events if event.type == "bookmark"}
    assert reached["m0"] == 0.0
    assert abs(reached["m1"] - 500) <= 25 and abs(reached["m2"] - 1000) <= 25, reached


def test_a_refused_document_over_http_of_any_kind_leaves_no_slot_held() -> None:
    with fake_server(max_active_utterances=1) as (server, _):

        async def scenario() -> list[int]:
            statuses = []
            async with aiohttp.ClientSession() as http:
                for text in (
                    '<speak><say-as interpret-as="date">2026-02-31</say-as></speak>',
                    '<speak><phoneme ph="ǂ">click</phoneme></speak>',
                    "<speak>Fine.</speak>",
                ):
                    async with http.post(f"{server.url}/invocations", json={"text": text}) as response:
                        statuses.append(response.status)
                        await response.read()
            return statuses

        assert run(scenario()) == [400, 400, 200]
        assert server.stats()["active_utterances"] == 0


def test_prosody_volume_applies_on_every_route() -> None:
    """The fake tone's amplitude is 0.3: +6 dB makes it 0.6 on the WebSocket, POST and the OpenAI route."""
    louder = '<speak><prosody volume="+6dB">Hello there.</prosody></speak>'

    def peak(audio: bytes) -> float:
        return float(np.abs(np.frombuffer(audio, dtype="<i2")).max()) / 32768

    async def scenario(server) -> tuple[bytes, bytes, bytes]:
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{server.url}/invocations", json={"text": louder}) as response:
                posted = await response.read()
            body = {"model": "kokoro", "voice": "af_heart", "response_format": "pcm", "input": louder}
            async with http.post(f"{server.url}/v1/audio/speech", json=body) as response:
                openai = await response.read()
            async with http.post(f"{server.url}/invocations", json={"text": "Hello there."}) as response:
                plain = await response.read()
            return posted, openai, plain

    with fake_server() as (server, _):
        posted, openai, plain = run(scenario(server))
        session = audio_of(speak_events(server, louder))
    assert abs(peak(plain) - 0.3) < 0.01
    assert all(abs(peak(audio) / peak(plain) - 2.0) < 0.05 for audio in (posted, openai, session))
