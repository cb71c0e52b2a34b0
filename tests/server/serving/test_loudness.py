"""SSML volume: gains in dB, and the peak limiter that keeps louder speech from clipping."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kokoro_core.ssml import VOLUMES
from kokoro_server.serving.loudness import LOOKAHEAD_SECONDS, gain_factor, louder

RATE = 24_000
CEILING = 0.95


def speech_like(seconds: float = 1.0, peak: float = 0.3, seed: int = 0) -> np.ndarray:
    """Harmonics of a 120 Hz voice under a syllabic (about 4 Hz) envelope, scaled to ``peak``."""
    time = np.arange(int(seconds * RATE)) / RATE
    phases = np.random.default_rng(seed).uniform(0, 2 * np.pi, 10)
    voice = sum(np.sin(2 * np.pi * 120 * h * time + phases[h - 1]) / h for h in range(1, 11))
    syllables = np.clip(np.sin(2 * np.pi * 4 * time), 0.0, None) ** 0.5
    signal = voice * syllables
    return (signal / np.abs(signal).max() * peak).astype(np.float32)


def rms(audio: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(audio.astype(np.float64)))))


audio_in_full_scale = arrays(np.float32, st.integers(0, 3000), elements=st.floats(-1.0, 1.0, width=32, allow_nan=False))


@settings(max_examples=200, deadline=None)
@given(audio=audio_in_full_scale, gain_db=st.floats(-40.0, 24.0), ceiling=st.sampled_from([0.5, 0.9, CEILING, 1.0]))
def test_no_sample_ever_exceeds_the_ceiling(audio: np.ndarray, gain_db: float, ceiling: float) -> None:
    out = louder(audio, gain_db, ceiling=ceiling, sample_rate=RATE)
    assert out.dtype == np.float32 and out.shape == audio.shape
    assert np.all(np.isfinite(out))
    assert np.all(np.abs(out) <= ceiling)


@settings(max_examples=50, deadline=None)
@given(gain_db=st.floats(-40.0, 24.0), seed=st.integers(0, 1000), loud_burst=st.booleans())
def test_the_limiter_only_turns_the_gain_down_and_never_flips_a_sample(
    gain_db: float, seed: int, loud_burst: bool
) -> None:
    audio = speech_like(0.5, peak=0.3, seed=seed)
    if loud_burst:
        audio[3000:3200] *= 3  # a peak at 0.9 that any gain over +0.5 dB must limit
    scaled = audio.astype(np.float64) * gain_factor(gain_db)
    out = louder(audio, gain_db, sample_rate=RATE).astype(np.float64)
    assert np.all(np.abs(out) <= np.abs(scaled) * (1 + 1e-6) + 1e-12)
    assert np.all(out * scaled >= 0)


def test_six_db_doubles_the_loudness_of_speech() -> None:
    audio = speech_like()
    assert rms(louder(audio, 6.0)) == pytest.approx(2 * rms(audio), rel=0.1)
    assert rms(louder(audio, -6.0)) == pytest.approx(rms(audio) / 2, rel=0.1)


def test_loudness_grows_with_the_gain_even_where_the_limiter_works() -> None:
    audio = speech_like()
    levels = [rms(louder(audio, gain_db)) for gain_db in np.arange(-40.0, 24.5, 0.5)]
    assert all(later >= earlier for earlier, later in zip(levels, levels[1:], strict=False))
    assert levels[-1] > levels[0]


def test_speech_under_the_ceiling_is_only_scaled() -> None:
    audio = speech_like(peak=0.3)
    assert np.array_equal(louder(audio, 0.0), audio)
    assert np.array_equal(louder(audio, 9.0), (audio.astype(np.float64) * gain_factor(9.0)).astype(np.float32))
    assert not np.any(louder(audio, VOLUMES["silent"]))


def test_limiting_is_smooth_and_reaches_only_a_few_milliseconds() -> None:
    audio = speech_like(peak=0.3)
    audio[13_500] = 1.0  # one spike mid-syllable, to be limited at +6 dB
    out = louder(audio, 6.0).astype(np.float64)
    scaled = audio.astype(np.float64) * gain_factor(6.0)
    speaking = np.abs(scaled) > 1e-3
    applied = np.ones_like(scaled)
    applied[speaking] = out[speaking] / scaled[speaking]
    reach = round(LOOKAHEAD_SECONDS * RATE)
    touched = np.flatnonzero(applied < 1 - 1e-6)
    assert touched.size and touched.min() >= 13_500 - 2 * reach and touched.max() <= 13_500 + 2 * reach
    # The gain moves at most 1/(2W+1) from one sample to the next: no step, so no click.
    neighbours = speaking[1:] & speaking[:-1]
    assert np.max(np.abs(np.diff(applied)[neighbours])) <= 1 / (2 * reach + 1) + 1e-6


def test_the_input_is_not_modified() -> None:
    audio = speech_like(peak=0.9)
    before = audio.copy()
    out = louder(audio, 12.0)
    assert np.array_equal(audio, before) and out is not audio
    assert louder(audio, 0.0) is not audio


def test_named_levels_grow_from_x_soft_to_x_loud() -> None:
    order = ["x-soft", "soft", "medium", "loud", "x-loud"]
    levels = [VOLUMES[name] for name in order]
    assert all(later > earlier for earlier, later in zip(levels, levels[1:], strict=False))
    assert VOLUMES["medium"] == VOLUMES["default"] == 0.0
    assert VOLUMES["silent"] == -math.inf and gain_factor(VOLUMES["silent"]) == 0.0


def test_gain_factor() -> None:
    assert gain_factor(0.0) == 1.0
    assert gain_factor(20.0) == pytest.approx(10.0)
    assert gain_factor(6.0) == pytest.approx(2.0, rel=0.01)
    assert gain_factor(-6.0) == pytest.approx(0.5, rel=0.01)


def test_each_sample_depends_only_on_its_neighbourhood() -> None:
    """What makes chunks independent, and the work linear: a sample's output depends on input within 2W of it."""
    audio = speech_like(2.0, peak=0.6)
    changed = audio.copy()
    changed[37_500] = 1.0  # mid-syllable
    reach = round(LOOKAHEAD_SECONDS * RATE)
    before, after = louder(audio, 6.0), louder(changed, 6.0)
    differs = np.flatnonzero(before != after)
    assert differs.size and differs.min() >= 37_500 - 2 * reach and differs.max() <= 37_500 + 2 * reach


def test_a_minute_of_audio_is_limited_in_one_call() -> None:
    audio = np.tile(speech_like(1.0, peak=0.8), 60)  # a minute at 24 kHz, limited throughout at +6 dB
    out = louder(audio, 6.0)
    assert out.shape == audio.shape and np.all(np.abs(out) <= CEILING)
    # Every second is the same: the result does not drift along a long input.
    seconds = out.reshape(60, RATE)
    assert np.allclose(seconds[0], seconds[-1], atol=1e-6)


def test_rejects_a_ceiling_outside_full_scale() -> None:
    with pytest.raises(ValueError):
        louder(speech_like(), 0.0, ceiling=1.5)
    with pytest.raises(ValueError):
        louder(speech_like(), 0.0, ceiling=0.0)
