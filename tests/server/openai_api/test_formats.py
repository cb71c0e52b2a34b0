"""The encoders and the time-stretch on their own, fed a tone piece by piece as the server feeds them speech:
the bytes come out as the audio goes in, decode to what went in, and a stretch changes the length, never
the pitch."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from kokoro_server.openai_api.formats import RESPONSE_FORMATS, Unavailable, encoder_for
from kokoro_server.openai_api.speed import split_speed
from tests.server.openai_api.decoding import decoded, dominant_hz, loudness, seconds_so_far

RATE = 24000
TONE_HZ = 440.0
PIECE_SECONDS = 0.5
PIECES = 6
# What may still be inside an encoder when a piece has gone in: its delay and frame (LAME's, AAC's
# 1024 samples, FLAC's block), the Ogg pages not yet written (0.1 s to 0.2 s), atempo's frame (43 ms).
HELD_BACK_SECONDS = 0.3


def tone(seconds: float, hz: float = TONE_HZ) -> bytes:
    times = np.arange(round(seconds * RATE)) / RATE
    return (0.3 * np.sin(2 * np.pi * hz * times) * 32767).astype("<i2").tobytes()


def pieces() -> list[bytes]:
    whole = tone(PIECE_SECONDS * PIECES)
    size = len(whole) // PIECES
    return [whole[start : start + size] for start in range(0, len(whole), size)]


def encoded(response_format: str, tempo: float = 1.0) -> list[bytes]:
    """What each piece gave, then what finishing gave."""
    encoder = encoder_for(response_format, tempo)
    return [encoder.encode(piece) for piece in pieces()] + [encoder.finish()]


@pytest.mark.parametrize("response_format", RESPONSE_FORMATS)
def test_each_piece_of_audio_comes_out_encoded_before_the_next_goes_in(response_format: str) -> None:
    outputs = encoded(response_format)
    for count in range(1, PIECES + 1):
        so_far = seconds_so_far(response_format, b"".join(outputs[:count]))
        assert so_far >= count * PIECE_SECONDS - HELD_BACK_SECONDS, (count, so_far)
    samples, rate = decoded(response_format, b"".join(outputs))
    assert abs(len(samples) / rate - PIECES * PIECE_SECONDS) < 0.15
    assert abs(dominant_hz(samples, rate) - TONE_HZ) < 1 and loudness(samples) > 0.18  # the tone's is 0.21


def test_flac_is_lossless() -> None:
    samples, rate = decoded("flac", b"".join(encoded("flac")))
    assert rate == RATE and np.array_equal(samples, np.frombuffer(b"".join(pieces()), dtype="<i2") / 32768)


@pytest.mark.parametrize("tempo", [0.5, 0.8, 1.6, 2.0])
@pytest.mark.parametrize("response_format", ["pcm", "opus"])
def test_a_time_stretch_changes_the_length_and_keeps_the_pitch(response_format: str, tempo: float) -> None:
    outputs = encoded(response_format, tempo)
    samples, rate = decoded(response_format, b"".join(outputs))
    assert len(samples) / rate == pytest.approx(PIECES * PIECE_SECONDS / tempo, abs=0.1)
    assert abs(dominant_hz(samples, rate) - TONE_HZ) < 2  # the same note, not a chipmunk or a drone
    stretched_so_far = seconds_so_far(response_format, b"".join(outputs[:2]))
    assert stretched_so_far >= 2 * PIECE_SECONDS / tempo - HELD_BACK_SECONDS  # stretched as it streams


@pytest.mark.parametrize(
    ("speed", "model_speed", "tempo"),
    [
        (0.25, 0.5, 0.5),
        (0.4, 0.5, 0.8),
        (0.5, 0.5, 1.0),
        (1.0, 1.0, 1.0),
        (2.0, 2.0, 1.0),
        (3.0, 2.0, 1.5),
        (4.0, 2.0, 2.0),
    ],
)
def test_the_model_speaks_what_it_can_and_the_stretch_does_the_rest(speed, model_speed, tempo) -> None:
    assert split_speed(speed) == (model_speed, tempo)


def test_an_unknown_format_is_refused_with_the_six_there_are() -> None:
    with pytest.raises(Unavailable) as refused:
        encoder_for("ogg")
    assert refused.value.param == "response_format" and "mp3, opus, aac, flac, wav, pcm" in str(refused.value)


def test_without_the_openai_extra_pcm_and_wav_still_work_and_the_rest_says_what_to_install(monkeypatch) -> None:
    for module in ("av", "kokoro_server.openai_api.compressed", "kokoro_server.openai_api.time_stretch"):
        monkeypatch.setitem(sys.modules, module, None)  # importing it raises ImportError, as when not installed
    assert encoder_for("wav").encode(tone(0.1))
    with pytest.raises(Unavailable) as refused:
        encoder_for("aac")
    assert refused.value.param == "response_format" and "kokoro-server[openai]" in str(refused.value)
    with pytest.raises(Unavailable) as refused:
        encoder_for("pcm", tempo=2.0)
    assert refused.value.param == "speed" and "kokoro-server[openai]" in str(refused.value)
