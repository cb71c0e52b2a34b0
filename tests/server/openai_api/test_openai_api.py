"""The OpenAI-compatible speech API, driven by the official OpenAI Python SDK (`AsyncOpenAI(base_url=...)`,
streaming responses) against a real server: every response format read back by a decoder of its own
(``decoding``), both stream formats, errors in OpenAI's shape, and the same speech as the server's own
route. The fast tier runs the fake engine; the real model speaks every format too. Speed, blends and
streaming: ``test_speed_and_blends``, ``test_streaming``."""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np
import openai
import pytest
from openai import AsyncOpenAI

from kokoro_server.openai_api.routes import OPENAI_VOICES
from tests.server.openai_api.decoding import decoded, dominant_hz, loudness
from tests.speech import plausible_duration, run

TEXT = "Your table for four is booked at seven. See you then!"
# OpenAI's own, format by format.
CONTENT_TYPES = {
    "mp3": "audio/mpeg",
    "opus": "audio/opus",
    "aac": "audio/aac",
    "flac": "audio/flac",
    "wav": "audio/wav",
    "pcm": "audio/pcm",
}
# What a lossy codec may add or trim at the ends (an encoder's delay and its last frame's padding).
CODEC_SLACK_SECONDS = 0.15


def client(url: str, api_key: str = "not-needed") -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{url}/v1", api_key=api_key, max_retries=0)


async def spoken(url: str, api_key: str = "not-needed", **request: Any) -> tuple[str, bytes]:
    """The streamed response's content type and bytes, as an app would read them."""
    arguments = {"model": "tts-1", "voice": "coral", "input": TEXT} | request
    async with client(url, api_key).audio.speech.with_streaming_response.create(**arguments) as response:
        return response.headers["content-type"], b"".join([chunk async for chunk in response.iter_bytes()])


def sse_events(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in data.decode().splitlines() if line.startswith("data:")]


async def posted_pcm(url: str, voice: str) -> bytes:
    """The same text from the server's own route, as 16-bit PCM at 24 kHz."""
    import aiohttp

    body = {"text": TEXT, "voice": voice, "format": "pcm16", "sample_rate": 24000}
    async with aiohttp.ClientSession() as http, http.post(f"{url}/invocations", json=body) as response:
        return await response.read()


def seconds_of(response_format: str, data: bytes) -> float:
    samples, rate = decoded(response_format, data)
    return len(samples) / rate


@pytest.mark.parametrize("response_format", list(CONTENT_TYPES))
def test_every_response_format_streams_the_same_speech_as_the_servers_route(speech_server, response_format) -> None:
    reference = run(posted_pcm(speech_server.url, OPENAI_VOICES["coral"]))
    content_type, data = run(spoken(speech_server.url, response_format=response_format))
    assert content_type == CONTENT_TYPES[response_format]
    samples, rate = decoded(response_format, data)
    expected = np.frombuffer(reference, dtype="<i2") / 32768
    if response_format in ("pcm", "wav", "flac"):  # lossless: coral is af_heart, sample for sample
        assert rate == 24000 and np.array_equal(samples, expected)
    else:  # lossy: as long, as loud, the same tone, give or take the codec's delay and padding
        assert abs(len(samples) / rate - len(expected) / 24000) < CODEC_SLACK_SECONDS
        assert loudness(samples) > 0.8 * loudness(expected)
        assert abs(dominant_hz(samples, rate) - dominant_hz(expected, 24000)) < 2


@pytest.mark.parametrize("response_format", ["pcm", "mp3", "flac"])
def test_server_sent_events_carry_the_audio_then_done(speech_server, response_format) -> None:
    _, data = run(spoken(speech_server.url, response_format=response_format, stream_format="sse"))
    events = sse_events(data)
    assert [event["type"] for event in events[:-1]] == ["speech.audio.delta"] * (len(events) - 1)
    assert events[-1]["type"] == "speech.audio.done" and events[-1]["usage"]["input_tokens"] == len(TEXT.split())
    audio = b"".join(base64.b64decode(event["audio"]) for event in events[:-1])
    _, plain = run(spoken(speech_server.url, response_format=response_format))
    assert audio == plain and len(events) > 2  # the audio came in pieces, as it was made


def test_instructions_are_accepted_and_kokoro_voices_work_by_name(speech_server) -> None:
    _, with_instructions = run(spoken(speech_server.url, response_format="pcm", instructions="Speak warmly."))
    _, by_name = run(spoken(speech_server.url, response_format="pcm", voice="af_heart"))
    assert with_instructions == by_name


@pytest.mark.parametrize(
    ("request_fields", "param", "says"),
    [
        ({"voice": "robot"}, "voice", "alloy, ash"),
        ({"voice": "alloy"}, "voice", "Kokoro's af_alloy, which this server does not have"),
        ({"response_format": "ogg"}, "response_format", "mp3, opus, aac, flac, wav, pcm"),
        ({"speed": 5.0}, "speed", "from 0.25 to 4.0"),
        ({"speed": 0.2}, "speed", "from 0.25 to 4.0"),
        ({"speed": "fast"}, "speed", "valid number"),
        ({"voice": "coral:0.5+robot:0.5"}, "voice", "robot"),
        ({"input": "   "}, "input", "text is empty"),
        ({"model": "tts-2"}, None, "tts-1"),
    ],
)
def test_bad_requests_are_openai_errors_that_say_what_is_allowed(speech_server, request_fields, param, says) -> None:
    with pytest.raises(openai.BadRequestError) as refused:
        run(spoken(speech_server.url, **request_fields))
    error = refused.value.body
    assert error["type"] == "invalid_request_error" and error["param"] == param
    assert says in error["message"]
    assert run(spoken(speech_server.url, response_format="pcm"))[1]  # and the server goes on


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"model": "tts-1",', "not valid JSON"),
        (b'["tts-1"]', "not list"),
        (b"[" * 5000, "too deeply"),
        (b'{"model": "tts-1", "speed": ' + b"9" * 5000 + b"}", "too many digits"),
        (b'{"input": "caf\xe9"}', "UTF-8"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_invalid_json_and_the_server_goes_on(speech_server, body, says) -> None:
    import aiohttp

    async def posted() -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{speech_server.url}/v1/audio/speech", data=body, headers=headers) as response:
                return response.status, (await response.json())["error"]

    status, error = run(posted())
    assert (status, error["code"]) == (400, "invalid_json") and says in error["message"], error
    assert run(spoken(speech_server.url, response_format="pcm"))[1]


def test_models_and_voices_are_listed(speech_server) -> None:
    async def listed() -> tuple[list[str], list[dict[str, str]]]:
        models = [model.id async for model in client(speech_server.url).models.list()]
        voices = await client(speech_server.url).get("/audio/voices", cast_to=dict)
        return models, voices["voices"]

    models, voices = run(listed())
    assert {"tts-1", "tts-1-hd", "gpt-4o-mini-tts", "kokoro"} <= set(models)
    # OpenAI's names for the voices this server has (the fake engine's four), then Kokoro's own names.
    assert {"id": "coral", "kokoro_voice": "af_heart"} in voices
    assert {"id": "alloy", "kokoro_voice": "af_alloy"} not in voices
    assert {"id": "af_heart", "kokoro_voice": "af_heart"} in voices


def test_the_real_model_speaks_every_format_through_the_openai_sdk(server, idle_after) -> None:
    spoken_as = {name: run(spoken(server.url, response_format=name, voice="coral")) for name in CONTENT_TYPES}
    reference, rate = decoded("pcm", spoken_as["pcm"][1])
    assert plausible_duration(TEXT, len(reference) / rate) and loudness(reference) > 0.02
    for response_format, (content_type, data) in spoken_as.items():
        samples, rate = decoded(response_format, data)
        assert content_type == CONTENT_TYPES[response_format]
        assert abs(len(samples) / rate - len(reference) / 24000) < CODEC_SLACK_SECONDS, response_format
        assert loudness(samples) > 0.8 * loudness(reference), response_format


def test_the_example_writes_streamed_mp3(speech_server, tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "reply.mp3"
    example = Path(__file__).resolve().parents[3] / "examples" / "openai_speech.py"
    arguments = [sys.executable, str(example), "--base-url", f"{speech_server.url}/v1", "--out", str(out)]
    done = subprocess.run(arguments, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert seconds_of("mp3", out.read_bytes()) > 1 and "first audio after" in done.stdout
