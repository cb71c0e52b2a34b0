"""Voice blends wherever a voice is accepted, on a real server with the deterministic fake engine: a
WebSocket ``configure`` and ``speak``, a POST body, the Speaker and ``kokoro-stream say``.

The fake engine gives a blend its own tone (``fake_engine.tone_hz``), so the bytes tell which voice or
blend spoke. How a blend sounds on the real model is checked in tests/server/engine/test_blends.py.
"""

from __future__ import annotations

import wave
from pathlib import Path

import aiohttp
import numpy as np
import pytest
from typer.testing import CliRunner

from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_stream import ServerError, Speaker, WebSocketTransport
from kokoro_stream.cli import app
from tests.fake_server import fake_server
from tests.speech import connect, receive, run, speak_and_collect, until

TEXT = "Your table is booked."
BLEND = "af_heart(1)+am_michael(3)"
CANONICAL = "af_heart:0.25+am_michael:0.75"


def pcm_of(text: str, voice: str) -> bytes:
    """The fake engine's audio for one chunk, as the server sends it in pcm16."""
    audio = FakeEngine().synthesize(text, voice).audio
    return (np.clip(audio, -1, 1) * 32767).round().astype("<i2").tobytes()


def test_the_fake_engine_gives_a_blend_its_own_tone_the_same_however_it_is_written() -> None:
    blend = pcm_of(TEXT, CANONICAL)
    assert blend == pcm_of(TEXT, BLEND) == pcm_of(TEXT, "af_heart:1+am_michael:3")
    assert blend != pcm_of(TEXT, "af_heart") and blend != pcm_of(TEXT, "am_michael")
    assert pcm_of(TEXT, CANONICAL) != pcm_of(TEXT, "af_heart:0.75+am_michael:0.25")


def test_configure_with_a_blend_holds_it_for_the_session_and_reports_its_canonical_form() -> None:
    async def scenario(url: str) -> tuple[dict, dict, bytes, dict, bytes]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "configure", "voice": BLEND})
            configured = await receive(ws)
            await ws.send_json({"type": "speak", "id": "u1", "text": TEXT})
            first = await until(ws, "done", "u1")
            # A speak's own voice holds for that utterance only.
            single = await speak_and_collect(ws, TEXT, "u2", voice="am_michael")
            await ws.send_json({"type": "speak", "id": "u3", "text": TEXT})
            third = await until(ws, "done", "u3")
            audio = b"".join(event.audio for event in first if event.audio is not None)
            assert configured is not None
            return configured.message, first[0].message, audio, third[0].message, single

    with fake_server() as (server, _):
        configured, start, audio, later_start, single = run(scenario(server.ws_url))
    assert configured["type"] == "configured" and configured["voice"] == CANONICAL
    assert start["voice"] == CANONICAL and later_start["voice"] == CANONICAL
    assert audio == pcm_of(TEXT, CANONICAL)
    assert single == pcm_of(TEXT, "am_michael")


def test_a_speak_with_a_blend_speaks_that_utterance_in_it() -> None:
    async def scenario(url: str) -> tuple[dict, bytes, dict]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "u1", "text": TEXT, "voice": "af_heart+am_michael"})
            events = await until(ws, "done", "u1")
            await ws.send_json({"type": "speak", "id": "u2", "text": TEXT})
            after = await until(ws, "start", "u2")
            await until(ws, "done", "u2")
            audio = b"".join(event.audio for event in events if event.audio is not None)
            return events[0].message, audio, after[-1].message

    with fake_server() as (server, _):
        start, audio, after = run(scenario(server.ws_url))
    assert start["voice"] == "af_heart:0.5+am_michael:0.5"
    assert audio == pcm_of(TEXT, "af_heart:0.5+am_michael:0.5")
    assert after["voice"] == "af_heart"  # the session's default again


REFUSALS = [
    ("af_heart+af_nobody", "voice 'af_nobody' in blend"),
    ("af_heart:0+am_michael", "a weight is a positive number"),
    ("af_heart:x+am_michael", "weight 'x'"),
    ("af_heart+bf_emma", "mixes languages: af_heart (en-us), bf_emma (en-gb)"),
    ("+".join(["af_heart", "am_michael"] * 5), "mixes 10 voices; at most 8 are allowed"),
    ("af_heart+af_heart", "names voice 'af_heart' twice"),
    ("af_heart+", "has an empty component"),
    ("af_heart:" + "1" * 300, "at most 256 are allowed"),
]


@pytest.mark.parametrize(("voice", "words"), REFUSALS)
def test_a_bad_blend_in_configure_or_speak_is_refused_and_the_session_goes_on(voice: str, words: str) -> None:
    async def scenario(url: str) -> tuple[dict, dict, dict, bytes]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "configure", "voice": "am_michael"})
            await receive(ws)
            await ws.send_json({"type": "configure", "voice": voice, "speed": 1.5})
            refused_configure = await receive(ws)
            await ws.send_json({"type": "speak", "id": "bad", "text": TEXT, "voice": voice})
            refused_speak = await receive(ws)
            await ws.send_json({"type": "speak", "id": "u1", "text": TEXT})
            events = await until(ws, "done", "u1")
            assert refused_configure is not None and refused_speak is not None
            audio = b"".join(event.audio for event in events if event.audio is not None)
            return refused_configure.message, refused_speak.message, events[0].message, audio

    with fake_server() as (server, engine):
        refused_configure, refused_speak, start, audio = run(scenario(server.ws_url))
        assert engine.calls == [TEXT]  # nothing of the refused speak reached the engine
    for refused in (refused_configure, refused_speak):
        assert refused["type"] == "error" and refused["code"] == "unknown_voice"
        assert words in refused["message"], refused["message"]
    assert refused_speak["id"] == "bad"
    assert (start["voice"], start["speed"]) == ("am_michael", 1.0)  # the refused configure changed nothing
    assert audio == pcm_of(TEXT, "am_michael")


def test_post_speaks_a_blend_and_refuses_a_bad_one() -> None:
    async def scenario(url: str) -> tuple[str, bytes, tuple[int, dict]]:
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{url}/invocations", json={"text": TEXT, "voice": BLEND}) as response:
                assert response.status == 200
                voice, audio = response.headers["X-Voice"], await response.read()
            bad = {"text": TEXT, "voice": "af_heart+bf_emma"}
            async with http.post(f"{url}/invocations", json=bad) as response:
                return voice, audio, (response.status, await response.json())

    with fake_server() as (server, _):
        voice, audio, (status, refusal) = run(scenario(server.url))
    assert voice == CANONICAL and audio == pcm_of(TEXT, CANONICAL)
    assert status == 400 and refusal["error"] == "unknown_voice" and "mixes languages" in refusal["message"]


def test_the_speaker_passes_a_blend_through_and_hears_it() -> None:
    async def scenario(url: str) -> bytes:
        async with Speaker(WebSocketTransport(url), voice=BLEND) as speaker:
            return b"".join([chunk.audio async for chunk in speaker.speak(TEXT)])

    async def refused(url: str) -> str:
        with pytest.raises(ServerError) as error:
            async with Speaker(WebSocketTransport(url), voice="af_heart+bf_emma"):
                pass
        return f"{error.value}"

    with fake_server() as (server, _):
        audio = run(scenario(server.ws_url))
        message = run(refused(server.ws_url))
    assert audio == pcm_of(TEXT, CANONICAL)
    assert "unknown_voice" in message and "mixes languages" in message


def test_say_speaks_a_blend_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "blend.wav"
    with fake_server() as (server, _):
        args = ["say", TEXT, "--url", server.ws_url, "--out", str(out), "--voice", BLEND]
        result = CliRunner().invoke(app, args)
        refused = CliRunner().invoke(app, ["say", TEXT, "--url", server.ws_url, "--voice", "af_heart:-1+am_michael"])
    assert result.exit_code == 0, result.output
    with wave.open(str(out)) as reader:
        assert reader.readframes(reader.getnframes()) == pcm_of(TEXT, CANONICAL)
    assert refused.exit_code == 1 and "unknown_voice" in refused.output and "positive number" in refused.output


def test_on_the_real_model_a_session_speaks_a_blend_unlike_either_of_its_voices(server, idle_after) -> None:
    async def scenario(url: str) -> tuple[dict, dict[str, bytes]]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "configure", "voice": BLEND})
            configured = await receive(ws)
            assert configured is not None
            heard = {
                voice: await speak_and_collect(ws, TEXT, voice, voice=voice) for voice in ("af_heart", "am_michael")
            }
            heard[CANONICAL] = await speak_and_collect(ws, TEXT, "blend")
            return configured.message, heard

    configured, heard = run(scenario(server.ws_url))
    assert configured["voice"] == CANONICAL
    assert len(set(heard.values())) == 3 and all(len(audio) > 24000 for audio in heard.values())
