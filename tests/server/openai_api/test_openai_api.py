"""The OpenAI-compatible speech API, driven by the official OpenAI Python SDK (`AsyncOpenAI(base_url=...)`,
streaming responses) against a real server: every response format in both stream formats, errors in
OpenAI's shape, and the same speech as the server's own route. The fast tier runs the fake engine; one
test speaks through the real model."""

from __future__ import annotations

import base64
import io
import json
import wave
from collections.abc import Iterator
from typing import Any

import openai
import pytest
import soundfile
from openai import AsyncOpenAI

from kokoro_server.openai_api.routes import OPENAI_VOICES
from tests.fake_server import fake_server
from tests.local_server import RunningServer
from tests.speech import plausible_duration, run

TEXT = "Your table for four is booked at seven. See you then!"
CONTENT_TYPES = {"pcm": "audio/pcm", "wav": "audio/wav", "mp3": "audio/mpeg", "opus": "audio/ogg"}


@pytest.fixture(scope="module")
def speech_server() -> Iterator[RunningServer]:
    with fake_server() as (server, _):
        yield server


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
    if response_format == "pcm":
        return len(data) / 2 / 24000
    if response_format == "wav":
        # A streamed WAV says "until the end" in its sizes: the samples are what follows the header.
        with wave.open(io.BytesIO(data)) as reader:
            assert (reader.getframerate(), reader.getnchannels(), reader.getsampwidth()) == (24000, 1, 2)
        return (len(data) - 44) / 2 / 24000
    samples, rate = soundfile.read(io.BytesIO(data))
    return len(samples) / rate


@pytest.mark.parametrize("response_format", ["pcm", "wav", "mp3", "opus"])
def test_every_response_format_streams_the_same_speech_as_the_servers_route(speech_server, response_format) -> None:
    reference = run(posted_pcm(speech_server.url, OPENAI_VOICES["coral"]))
    content_type, data = run(spoken(speech_server.url, response_format=response_format))
    assert content_type.startswith(CONTENT_TYPES[response_format])
    if response_format == "pcm":
        assert data == reference  # coral is af_heart, byte for byte
    elif response_format == "wav":
        assert data[44:] == reference
    else:  # lossy: as long as the reference, give or take the codec's padding
        assert abs(seconds_of(response_format, data) - len(reference) / 48000) < 0.15


@pytest.mark.parametrize("response_format", ["pcm", "mp3"])
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
        ({"response_format": "aac"}, "response_format", "mp3, opus, wav, pcm"),
        ({"speed": 3.0}, "speed", "speed"),
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


def test_the_real_model_speaks_mp3_through_the_openai_sdk(server, idle_after) -> None:
    _, data = run(spoken(server.url, response_format="mp3", voice="coral"))
    assert plausible_duration(TEXT, seconds_of("mp3", data))


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
