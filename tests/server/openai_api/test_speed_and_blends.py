"""OpenAI's whole speed range and voice blends, through the official SDK against a real server: the fake
engine for exact claims (its audio lasts exactly as long as the speed says, and its tone tells which voice
or blend spoke), the real model for the same claims with a speaker's tolerance."""

from __future__ import annotations

import aiohttp
import numpy as np
import pytest

from kokoro_server.openai_api.routes import OPENAI_VOICES, resolve_voice
from tests.server.openai_api.decoding import decoded, dominant_hz
from tests.server.openai_api.test_openai_api import CODEC_SLACK_SECONDS, TEXT, spoken
from tests.speech import run

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)


def seconds_at(url: str, speed: float, response_format: str = "pcm", **request: object) -> tuple[float, float]:
    """How long the answer lasts at ``speed``, and its loudest frequency."""
    _, data = run(spoken(url, response_format=response_format, speed=speed, **request))
    samples, rate = decoded(response_format, data)
    return len(samples) / rate, dominant_hz(samples, rate)


@pytest.mark.parametrize("response_format", ["pcm", "aac"])
def test_the_whole_speed_range_plays_at_the_pace_asked_and_the_same_pitch(speech_server, response_format) -> None:
    heard = {speed: seconds_at(speech_server.url, speed, response_format) for speed in SPEEDS}
    length = {speed: seconds for speed, (seconds, _) in heard.items()}
    # A codec's delay and padding add the same few hundredths at every speed: checked in seconds.
    assert length[0.25] == pytest.approx(4 * length[1.0], abs=4 * CODEC_SLACK_SECONDS)
    assert length[4.0] == pytest.approx(length[1.0] / 4, abs=CODEC_SLACK_SECONDS)
    # Beyond 0.5 to 2.0 the model speaks at the nearer end and the stretch does the rest: twice as long
    # (or short) as that end, in the same tone (the fake's tone is what was said, at any speed).
    assert length[0.25] == pytest.approx(2 * length[0.5], abs=CODEC_SLACK_SECONDS)
    assert length[4.0] == pytest.approx(length[2.0] / 2, abs=CODEC_SLACK_SECONDS)
    tones = {speed: hz for speed, (_, hz) in heard.items()}
    assert len(set(tones.values())) == 1 or max(tones.values()) - min(tones.values()) < 2, tones


def test_the_real_model_speaks_the_whole_speed_range(server, idle_after) -> None:
    length = {speed: seconds_at(server.url, speed, voice="coral")[0] for speed in (0.25, 1.0, 4.0)}
    assert 3 < length[0.25] / length[1.0] < 5.5, length
    assert 0.17 < length[4.0] / length[1.0] < 0.33, length


@pytest.mark.parametrize(
    ("given", "passed_on"),
    [
        ("nova:0.5+shimmer:0.5", "af_nova:0.5+af_bella:0.5"),
        ("af_heart:0.7+af_bella:0.3", "af_heart:0.7+af_bella:0.3"),
        ("af_heart+af_bella", "af_heart+af_bella"),
        ("af_bella(2)+af_sky(1)", "af_bella(2)+af_sky(1)"),
        ("coral(2) + sage (1)", "af_heart(2)+af_sarah(1)"),  # spaces around a name or weight: dropped
        ("nova:2", "af_nova:2"),
        ("robot:0.5+nova:0.5", "robot:0.5+af_nova:0.5"),  # the source says what is wrong with it
    ],
)
def test_a_blend_has_its_names_mapped_its_weights_kept_and_is_left_to_the_source(given, passed_on) -> None:
    assert resolve_voice(given, ("af_heart",)) == passed_on


def test_a_single_voice_is_still_checked_against_the_voices_a_source_has() -> None:
    assert resolve_voice("coral", ("af_heart",)) == "af_heart"
    with pytest.raises(Exception, match="not one of OpenAI's"):
        resolve_voice("af_bella", ("af_heart",))


async def posted_pcm(url: str, voice: str) -> bytes:
    body = {"text": TEXT, "voice": voice, "format": "pcm16", "sample_rate": 24000}
    async with aiohttp.ClientSession() as http, http.post(f"{url}/invocations", json=body) as response:
        assert response.status == 200, await response.text()
        return await response.read()


@pytest.mark.parametrize("blend", ["coral:0.25+ash:0.75", "af_heart(1)+ash(3)"])
def test_a_blend_of_openai_and_kokoro_names_speaks_as_the_servers_own_route_does(speech_server, blend) -> None:
    _, data = run(spoken(speech_server.url, response_format="pcm", voice=blend))
    assert data == run(posted_pcm(speech_server.url, "af_heart:0.25+am_michael:0.75"))
    assert data != run(spoken(speech_server.url, response_format="pcm", voice="coral"))[1]  # a blend's own tone


@pytest.mark.parametrize(
    ("blend", "says"),
    [
        ("coral:0.5+robot:0.5", "robot"),
        ("coral+ballad", "mixes languages"),  # af_heart and bm_george: American and British English
        ("coral:-1+ash:2", "positive number"),
    ],
)
def test_a_blend_the_source_refuses_is_an_openai_error_about_the_voice(speech_server, blend, says) -> None:
    import openai

    with pytest.raises(openai.BadRequestError) as refused:
        run(spoken(speech_server.url, voice=blend))
    error = refused.value.body
    assert (error["param"], error["code"]) == ("voice", "unknown_voice") and says in error["message"], error
    assert run(spoken(speech_server.url, response_format="pcm"))[1]  # and the server goes on


def test_the_real_model_speaks_a_blend_of_openai_names(server, idle_after) -> None:
    _, data = run(spoken(server.url, response_format="pcm", voice="nova:0.5+shimmer:0.5"))
    blend = np.frombuffer(data, dtype="<i2")
    assert data == run(posted_pcm(server.url, f"{OPENAI_VOICES['nova']}:0.5+{OPENAI_VOICES['shimmer']}:0.5"))
    assert len(blend) > 24000 and data != run(spoken(server.url, response_format="pcm", voice="nova"))[1]
