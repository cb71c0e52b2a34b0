"""POST /invocations and /ping against a real server: every format, streaming, clear errors."""

from __future__ import annotations

import io
import time
import wave

import aiohttp
import numpy as np
import pytest

from tests.speech import plausible_duration, run

TEXT = "Your table is booked for seven."


async def post(url: str, body, content_type: str = "application/json"):
    """Send one request; return (status, headers, body, arrival times of the body's chunks)."""
    async with aiohttp.ClientSession() as session:
        kwargs = (
            {"json": body}
            if content_type == "application/json" and not isinstance(body, bytes | str)
            else {
                "data": body,
                "headers": {"Content-Type": content_type},
            }
        )
        async with session.post(f"{url}/invocations", **kwargs) as response:
            chunks, arrivals = [], []
            async for chunk, _ in response.content.iter_chunks():
                chunks.append(chunk)
                arrivals.append(time.perf_counter())
            return response.status, response.headers, b"".join(chunks), arrivals


def test_ping_answers_200_once_ready(server):
    async def ping():
        async with aiohttp.ClientSession() as session:
            got = []
            for method in ("GET", "POST"):
                async with session.request(method, f"{server.url}/ping") as response:
                    got.append((response.status, await response.json()))
            return got

    assert run(ping()) == [(200, {"status": "ready", "device": "cpu"})] * 2


def test_pcm16_is_raw_24khz_audio_of_plausible_length(server):
    status, headers, body, _ = run(post(server.url, {"text": TEXT}))
    assert status == 200
    assert headers["Content-Type"] == "audio/L16;rate=24000;channels=1"
    assert (headers["X-Audio-Format"], headers["X-Sample-Rate"], headers["X-Channels"]) == ("pcm16", "24000", "1")
    samples = np.frombuffer(body, dtype="<i2")
    assert plausible_duration(TEXT, len(samples) / 24000)
    assert np.abs(samples).max() > 3000  # speech, not silence


@pytest.mark.parametrize("rate", [8000, 16000, 22050, 24000])
def test_wav_is_a_valid_stream_at_each_rate(server, idle_after, rate):
    status, headers, body, _ = run(post(server.url, {"text": TEXT, "format": "wav", "sample_rate": rate}))
    assert status == 200 and headers["Content-Type"] == "audio/wav"
    reader = wave.open(io.BytesIO(body))
    assert (reader.getnchannels(), reader.getsampwidth(), reader.getframerate()) == (1, 2, rate)
    frames = reader.readframes(reader.getnframes())
    assert plausible_duration(TEXT, len(frames) / 2 / rate)


def test_mulaw_is_8khz_g711_that_decodes_to_speech(server):
    audioop = pytest.importorskip("audioop")  # the reference G.711 decoder, still in Python 3.12
    status, headers, body, _ = run(post(server.url, {"text": TEXT, "format": "mulaw"}))
    assert status == 200 and headers["Content-Type"] == "audio/PCMU;rate=8000;channels=1"
    assert plausible_duration(TEXT, len(body) / 8000)
    decoded = np.frombuffer(audioop.ulaw2lin(body, 2), dtype="<i2")
    assert np.abs(decoded).max() > 3000


def test_text_plain_body_is_spoken_with_defaults(server, idle_after):
    status, headers, body, _ = run(post(server.url, TEXT.encode(), "text/plain"))
    assert status == 200 and headers["X-Voice"] == "af_heart"
    assert plausible_duration(TEXT, len(body) / 2 / 24000)


def test_audio_streams_chunk_by_chunk_before_the_response_completes(server, idle_after):
    text = "First, a short opening clause. Then a second sentence follows it. And a third one ends the reply."
    status, _, body, arrivals = run(post(server.url, {"text": text}))
    assert status == 200 and len(arrivals) >= 3
    # Each chunk left the server when it was synthesized: the first arrives well before the last.
    assert arrivals[-1] - arrivals[0] > 0.5
    assert plausible_duration(text, len(body) / 2 / 24000)


def test_speed_changes_duration(server, idle_after):
    slow = run(post(server.url, {"text": TEXT, "speed": 0.7}))[2]
    fast = run(post(server.url, {"text": TEXT, "speed": 1.5}))[2]
    assert len(slow) > 1.5 * len(fast)


def test_unknown_route_is_a_json_404(server):
    async def get():
        async with aiohttp.ClientSession() as session, session.get(f"{server.url}/nope") as response:
            return response.status, await response.json()

    status, body = run(get())
    assert status == 404 and body["error"] == "not_found" and "/invocations" in body["message"]
