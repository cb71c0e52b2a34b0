"""The engine on the real int8 Kokoro-82M: speech of the right length, limits, clean joins."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from kokoro_onnx.config import MAX_PHONEME_LENGTH

from kokoro_server.chunker import chunk_text
from kokoro_server.engine import SAMPLE_RATE, Engine, NothingToSpeak
from kokoro_server.model_cache import verify_directory
from tests.server.speech import plausible_duration


@pytest.fixture(scope="module")
def engine(embedded_model_dir: Path) -> Engine:
    return Engine(embedded_model_dir, verify_directory(embedded_model_dir))


def test_embedded_model_has_the_54_official_voices(engine):
    assert len(engine.voices) == 54
    assert {"af_heart", "am_michael", "bf_emma", "zf_xiaobei"} <= set(engine.voices)
    assert engine.manifest.default_voice == "af_heart"


@pytest.mark.parametrize("voice", ["af_heart", "am_michael", "bf_emma"])
def test_english_voices_speak(engine, voice):
    text = "The weather is lovely today."
    audio = engine.synthesize(text, voice)
    assert audio.dtype == np.float32
    assert plausible_duration(text, len(audio) / SAMPLE_RATE)
    assert 0.05 < np.abs(audio).max() <= 1.0


def test_chunk_edges_are_silent_so_joins_do_not_click(engine):
    for text in ("Hello there.", "Sure, I can help with that."):
        audio = engine.synthesize(text, "af_heart")
        assert abs(audio[0]) < 1e-3 and abs(audio[-1]) < 1e-3


def test_leading_silence_is_trimmed_for_an_early_first_sound(engine):
    audio = engine.synthesize("Okay.", "af_heart")
    first_sound = np.flatnonzero(np.abs(audio) > 0.003)[0] / SAMPLE_RATE
    assert first_sound <= 0.07


def test_planned_chunks_stay_under_the_510_phoneme_limit(engine):
    sentence = ", ".join(["the quick brown fox jumps over the lazy dog"] * 16) + "."
    assert len(engine.phonemize(sentence, "af_heart")) > 510
    chunks = chunk_text(sentence)
    assert len(chunks) > 1
    assert all(len(engine.phonemize(chunk, "af_heart")) <= MAX_PHONEME_LENGTH for chunk in chunks)


def test_emoji_and_foreign_script_are_skipped_for_english(engine):
    assert engine.phonemize("Great 🎉 news 你好", "af_heart") == engine.phonemize("Great news", "af_heart")
    with pytest.raises(NothingToSpeak):
        engine.synthesize("🎉👋", "af_heart")
