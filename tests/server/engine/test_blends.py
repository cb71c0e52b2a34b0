"""Voice blends on the Kokoro engine: a blend's style vectors are its voices' weighted sum, mixed once and
kept, and the real model's audio for a blend sounds between its voices and like neither.

How a voice sounds is compared by its mean log-mel spectrum (the average over the frames with sound, so
the same sentence at another pace compares the same): the distance of two voices is the RMS difference of
their spectra in dB.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from kokoro_core.model_cache import SAMPLE_RATE
from kokoro_core.voices import VoiceError
from kokoro_server.engine.voice_styles import STYLE_DIM, VoiceStyles

SENTENCE = "The quick brown fox jumps over the lazy dog, and then it runs far away into the quiet forest."
A, B = "af_heart", "am_michael"  # a woman's and a man's voice: far apart

N_FFT, HOP, N_MELS = 1024, 256, 40


def _mel_filters() -> np.ndarray:
    """Triangular filters on the mel scale from 60 Hz to 8 kHz, as rows over the FFT's frequencies."""

    def mel(hz: np.ndarray | float) -> np.ndarray:
        return np.asarray(2595 * np.log10(1 + np.asarray(hz) / 700))

    edges = 700 * (10 ** (np.linspace(mel(60), mel(8000), N_MELS + 2) / 2595) - 1)
    freqs = np.fft.rfftfreq(N_FFT, 1 / SAMPLE_RATE)
    low, mid, high = edges[:-2, None], edges[1:-1, None], edges[2:, None]
    return np.maximum(0, np.minimum((freqs - low) / (mid - low), (high - freqs) / (high - mid)))


MEL = _mel_filters()


def voice_profile(audio: np.ndarray) -> np.ndarray:
    """The mean log-mel spectrum (dB) of the frames with sound."""
    frames = np.lib.stride_tricks.sliding_window_view(audio, N_FFT)[::HOP] * np.hanning(N_FFT)
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    energy = power.sum(axis=1)
    heard = energy > energy.max() * 1e-3
    return 10 * np.log10(power[heard] @ MEL.T + 1e-10).mean(axis=0)


def distance(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sqrt(np.mean((a - b) ** 2)))


def test_a_blend_sounds_between_its_voices_and_like_neither(engine) -> None:
    profiles = {
        voice: voice_profile(engine.synthesize(SENTENCE, voice).audio)
        for voice in (A, B, f"{A}+{B}", f"{A}:0.9+{B}:0.1", f"{A}:0.1+{B}:0.9")
    }
    apart = distance(profiles[A], profiles[B])
    assert apart > 2.0, f"{A} and {B} should sound clearly different ({apart:.2f} dB)"
    half = profiles[f"{A}+{B}"]
    # Between them: nearer each voice than the voices are to each other, and well away from both.
    for voice in (A, B):
        assert 0.25 * apart < distance(half, profiles[voice]) < 0.75 * apart, (voice, distance(half, profiles[voice]))
    # Mostly A sounds like A, mostly B like B.
    mostly_a, mostly_b = profiles[f"{A}:0.9+{B}:0.1"], profiles[f"{A}:0.1+{B}:0.9"]
    assert distance(mostly_a, profiles[A]) < 0.3 * distance(mostly_a, profiles[B])
    assert distance(mostly_b, profiles[B]) < 0.3 * distance(mostly_b, profiles[A])
    assert distance(mostly_a, profiles[A]) > 0.02 * apart  # and still not A


def test_a_blend_is_its_voices_weighted_sum_mixed_once_and_reused(engine) -> None:
    styles = engine.styles
    mixed_before = styles.blends_mixed
    blend = styles[f"{A}:0.7+{B}:0.3"]
    assert styles.blends_mixed == mixed_before + 1
    np.testing.assert_allclose(blend, 0.7 * styles[A] + 0.3 * styles[B], rtol=1e-6, atol=1e-7)
    assert blend.shape == styles[A].shape and blend.dtype == np.float32
    assert not blend.flags.writeable  # every call shares it
    # The second use, however written, is the same array: no mixing.
    assert styles[f"{A}:0.7+{B}:0.3"] is blend
    assert styles[f"{A}(7)+{B}(3)"] is blend
    assert styles.blends_mixed == mixed_before + 1
    # A single voice, however written, is the voice's own array.
    assert styles[f"{A}:1"] is styles[A]


def test_the_engine_speaks_a_blend_as_the_server_passes_it(engine) -> None:
    """The server passes the canonical form; the engine speaks it, in the voices' language."""
    speech = engine.synthesize("Hello there.", f"{A}:0.5+{B}:0.5")
    assert np.abs(speech.audio).max() > 0.05 and [word.text for word in speech.words] == ["Hello", "there."]
    with pytest.raises(VoiceError, match="mixes languages"):
        engine.synthesize("Hello there.", f"{A}+bf_emma")


# The blend cache, on made-up style vectors: no model needed.


def made_up_voices(*names: str) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    return {name: rng.standard_normal((510, 1, STYLE_DIM)).astype(np.float32) for name in names}


def test_the_cache_keeps_the_blends_used_last_and_mixes_a_dropped_one_again() -> None:
    styles = VoiceStyles(made_up_voices("af_a", "af_b", "af_c"), capacity=2)
    first = styles["af_a+af_b"]
    second = styles["af_a+af_c"]
    assert styles["af_a+af_b"] is first  # used again: now the most recent
    styles["af_b+af_c"]  # a third: the least recently used (af_a+af_c) is dropped
    assert styles.blends_mixed == 3
    assert styles["af_a+af_b"] is first and styles.blends_mixed == 3
    again = styles["af_a+af_c"]
    assert again is not second and np.array_equal(again, second) and styles.blends_mixed == 4


def test_threads_asking_for_a_new_blend_at_once_get_one_array_mixed_once() -> None:
    styles = VoiceStyles(made_up_voices(*(f"af_{n}" for n in "abcdefgh")))
    blend = "+".join(f"af_{n}:{i + 1}" for i, n in enumerate("abcdefgh"))
    start = threading.Barrier(8)
    got: list[np.ndarray] = []

    def ask() -> None:
        start.wait()
        got.append(styles[blend])

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 8 and all(style is got[0] for style in got)
    assert styles.blends_mixed == 1


def test_a_voice_neither_named_nor_a_blend_is_refused() -> None:
    styles = VoiceStyles(made_up_voices("af_a", "bf_b"))
    with pytest.raises(VoiceError, match="unknown"):
        styles["af_nobody"]
    with pytest.raises(VoiceError, match="mixes languages"):
        styles["af_a+bf_b"]
