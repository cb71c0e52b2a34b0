"""Phoneme and viseme marks through the real server on the fake engine (each letter a phoneme): they tile
the audio on both routes, come before the audio they start in, cover pauses as silence, reach the Python
client on both transports, and a bad value is refused with the session going on."""

from __future__ import annotations

import base64
import json

import aiohttp

from kokoro_core.visemes import VISEMES
from kokoro_stream import Speaker, WebSocketTransport
from kokoro_stream.reply import AudioChunk
from kokoro_stream.sagemaker_post_transport import NdjsonReader
from tests.fake_server import fake_server
from tests.speech import Event, connect, run, until

MS_PER_BYTE = 1000 / (24000 * 2)
DOCUMENT = '<speak>Your code is <break time="300ms"/> four. <break time="500ms"/> Thanks.</speak>'


def speak_events(url: str, text: str, **options) -> list[Event]:
    async def scenario() -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "u1", "text": text, **options})
            return await until(ws, "done", "u1")

    return run(scenario())


def assert_tiles(phonemes: list[dict], audio_ms: float) -> None:
    assert phonemes[0]["start_ms"] == 0.0
    assert all(a["end_ms"] == b["start_ms"] for a, b in zip(phonemes, phonemes[1:], strict=False))
    assert all(p["end_ms"] > p["start_ms"] for p in phonemes)
    assert abs(phonemes[-1]["end_ms"] - audio_ms) <= 25  # the resampler's last frame may follow
    assert all(p["viseme"] in VISEMES and (p["viseme"] == 0) == (p["phoneme"] == "sil") for p in phonemes)


def test_phonemes_tile_the_audio_come_before_it_and_cover_pauses_as_silence() -> None:
    with fake_server() as (server, _):
        events = speak_events(server.ws_url, DOCUMENT, phonemes=True, marks=True)
    phonemes, received_ms = [], 0.0
    for event in events:
        if event.audio is not None:
            received_ms += len(event.audio) * MS_PER_BYTE
        elif event.type == "phonemes":
            assert all(p["start_ms"] >= received_ms - 0.1 for p in event.message["phonemes"])  # before its audio
            phonemes.extend(event.message["phonemes"])
    assert_tiles(phonemes, received_ms)
    sounds = "".join(p["phoneme"] for p in phonemes if p["phoneme"] != "sil")
    assert sounds == "yourcodeisfourthanks"
    quiet = [p["end_ms"] - p["start_ms"] for p in phonemes if p["phoneme"] == "sil"]
    assert any(abs(ms - 300) <= 25 for ms in quiet) and any(ms >= 500 - 25 for ms in quiet), quiet
    words = [w for e in events if e.type == "marks" for w in e.message["words"]]
    starts = {p["start_ms"] for p in phonemes}
    ends = {p["end_ms"] for p in phonemes}
    assert all(w["start_ms"] in starts and w["end_ms"] in ends for w in words)  # the same boundaries


def test_post_answers_ndjson_with_phonemes_alone_and_a_bad_value_is_refused_on_both_routes() -> None:
    async def scenario(server) -> tuple[str, list[dict], int, dict]:
        async with aiohttp.ClientSession() as http:
            body = {"text": "Hello there.", "phonemes": True}
            async with http.post(f"{server.url}/invocations", json=body) as response:
                kind = response.headers["Content-Type"]
                lines = [json.loads(line) for line in (await response.text()).splitlines()]
            async with http.post(f"{server.url}/invocations", json={"text": "Hi.", "phonemes": "yes"}) as refused:
                status, error = refused.status, await refused.json()
            return kind, lines, status, error

    async def session(url: str) -> tuple[list[Event], list[Event]]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "bad", "text": "Hi.", "phonemes": 1})
            refused = await until(ws, "error")
            await ws.send_json({"type": "speak", "id": "u1", "text": "Hi.", "phonemes": False})
            return refused, await until(ws, "done", "u1")

    with fake_server() as (server, _):
        kind, lines, status, error = run(scenario(server))
        events, after = run(session(server.ws_url))
    assert kind.startswith("application/x-ndjson")
    audio_ms = sum(len(base64.b64decode(line.get("audio", ""))) for line in lines) * MS_PER_BYTE
    assert_tiles([p for line in lines for p in line.get("phonemes", [])], audio_ms)
    assert all(line["words"] == [] for line in lines if line["type"] == "chunk")  # word marks stay off
    assert status == 400 and error["error"] == "invalid_phonemes" and "give true" in error["message"]
    assert events[-1].type == "error" and events[-1].message["code"] == "invalid_phonemes"
    assert after[-1].type == "done" and not any(e.type == "phonemes" for e in after)


def test_the_python_client_hands_each_chunk_its_phonemes_over_websocket_and_post_ndjson() -> None:
    async def scenario(url: str) -> list[AudioChunk]:
        async with Speaker(WebSocketTransport(url), phonemes=True) as speaker:
            return [chunk async for chunk in speaker.speak("Thanks for waiting. Your table is ready.")]

    with fake_server() as (server, _):
        chunks = run(scenario(server.ws_url))
    phonemes = [p.model_dump() for chunk in chunks for p in chunk.phonemes]
    assert phonemes and all(p["start_ms"] == 0.0 for p in phonemes[:1])
    assert "".join(p["phoneme"] for p in phonemes if p["phoneme"] != "sil") == "thanksforwaitingyourtableisready"
    line = json.dumps({"type": "chunk", "audio": "", "words": [], "phonemes": phonemes[:3]}).encode() + b"\n"
    reader = NdjsonReader("u1")
    events = reader.feed(line[:7]) + reader.feed(line[7:])
    assert [p.phoneme for event in events for p in event.message.phonemes] == [p["phoneme"] for p in phonemes[:3]]
