"""The engine on the real int8 Kokoro-82M: speech of the right length, limits, clean joins."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from kokoro_onnx.config import MAX_PHONEME_LENGTH

from kokoro_core.chunker import chunk_text
from kokoro_server.engine.kokoro import SAMPLE_RATE
from kokoro_server.engine.speech_engine import Interrupted, Interruption, NothingToSpeak
from kokoro_server.text.reading import VoiceReading
from tests.speech import plausible_duration
from tests.waiting import wait_until

# About a full-size chunk (the chunker allows 320 characters): seconds of inference on a CPU.
LONG_CHUNK = (
    "Your order left our warehouse this morning and is now with the courier, who expects to deliver it on "
    "Thursday between nine and noon; if nobody is home, the parcel goes to the pickup point on Main Street, "
    "where it waits for a week, and you can change the address or the day at any time from your account page."
)


def test_embedded_model_has_the_54_official_voices(engine):
    assert len(engine.voices) == 54
    assert {"af_heart", "am_michael", "bf_emma", "zf_xiaobei"} <= set(engine.voices)
    assert engine.manifest.default_voice == "af_heart"


@pytest.mark.parametrize("voice", ["af_heart", "am_michael", "bf_emma"])
def test_english_voices_speak(engine, voice):
    text = "The weather is lovely today."
    audio = engine.synthesize(text, voice).audio
    assert audio.dtype == np.float32
    assert plausible_duration(text, len(audio) / SAMPLE_RATE)
    assert 0.05 < np.abs(audio).max() <= 1.0


def test_chunk_edges_are_silent_so_joins_do_not_click(engine):
    for text in ("Hello there.", "Sure, I can help with that."):
        audio = engine.synthesize(text, "af_heart").audio
        assert abs(audio[0]) < 1e-3 and abs(audio[-1]) < 1e-3


def test_leading_silence_is_trimmed_for_an_early_first_sound(engine):
    audio = engine.synthesize("Okay.", "af_heart").audio
    first_sound = np.flatnonzero(np.abs(audio) > 0.003)[0] / SAMPLE_RATE
    assert first_sound <= 0.07


def test_planned_chunks_stay_under_the_510_phoneme_limit(engine):
    sentence = ", ".join(["the quick brown fox jumps over the lazy dog"] * 16) + "."
    assert len(engine.phonemize(sentence, "af_heart")) > 510
    chunks = chunk_text(sentence)
    assert len(chunks) > 1
    assert all(len(engine.phonemize(chunk, "af_heart")) <= MAX_PHONEME_LENGTH for chunk in chunks)


def test_emoji_are_skipped_and_a_chinese_name_read_by_its_reader_for_english(engine):
    assert engine.phonemize("Great 🎉 news", "af_heart") == engine.phonemize("Great news", "af_heart")
    read = engine.phonemize("Great news 你好", "af_heart")
    assert read.startswith(engine.phonemize("Great news", "af_heart"))
    assert read.endswith(engine._g2p("你好", "cmn"))
    skipped = engine.phonemize("Great news 你好", "af_heart", VoiceReading.of("af_heart", foreign="skip"))
    assert skipped == engine.phonemize("Great news", "af_heart")
    with pytest.raises(NothingToSpeak):
        engine.synthesize("🎉👋", "af_heart")


def test_a_call_in_flight_is_interrupted_and_later_calls_under_it_refused(engine):
    interruption = Interruption()
    outcome: dict[str, object] = {}

    def synthesize() -> None:
        try:
            outcome["audio"] = engine.synthesize(LONG_CHUNK, "af_heart", interruption=interruption)
        except Exception as error:
            outcome["error"] = error

    worker = threading.Thread(target=synthesize)
    worker.start()
    wait_until(
        lambda: interruption.in_flight or not worker.is_alive(),
        "the inference call to start (or its thread to end)",
        poll_seconds=0.001,
    )
    interrupted_before = engine.interrupted_calls
    assert interruption.interrupt() == 1  # the call was running when interrupted
    worker.join()
    assert isinstance(outcome.get("error"), Interrupted), outcome
    assert engine.interrupted_calls == interrupted_before + 1
    with pytest.raises(Interrupted, match="before the inference call started"):
        engine.synthesize("Too late.", "af_heart", interruption=interruption)
    # Calls under other interruptions (or none) go on.
    assert plausible_duration("Still here.", len(engine.synthesize("Still here.", "af_heart").audio) / SAMPLE_RATE)


def test_amounts_are_said_in_words_unless_normalization_is_off(engine):
    normalized = engine.phonemize("It's $1,284.50.", "af_heart")
    as_written = engine.phonemize("It's $1,284.50.", "af_heart", VoiceReading.of("af_heart", normalized=False))
    assert "dˈɑːlɚz" in normalized and "sˈɛnts" in normalized  # "... dollars and fifty cents"
    assert "sˈɛnts" not in as_written
    # British voices read the date day first: "the twelfth of March".
    assert "mˈɑːtʃ" in engine.phonemize("On 12/03/2026.", "bf_emma")
    assert len(engine.synthesize("It's $1,284.50.", "af_heart").audio) > len(
        engine.synthesize("It's $1,284.50.", "af_heart", reading=VoiceReading.of("af_heart", normalized=False)).audio
    )


def test_speaking_a_prepared_chunk_does_no_text_work(engine, monkeypatch):
    """What the engine worker runs (``speak``) is the model and arithmetic: with every text function broken,
    a chunk prepared beforehand still comes out the same, words and all."""
    text = "Your refund of $42.97 is on its way; it should arrive by Friday."
    expected = engine.synthesize(text, "af_heart")
    prepared = engine.prepare(text, "af_heart")

    def no_text_work(*_: object, **__: object) -> str:
        raise AssertionError("text work on the engine worker")

    monkeypatch.setattr(engine._tokenizer, "phonemize", no_text_work)
    monkeypatch.setattr("kokoro_server.text.reading.normalized_pieces", no_text_work)
    monkeypatch.setattr("kokoro_server.text.reading._said", no_text_work)
    spoken = engine.speak(prepared)
    assert spoken.audio.shape == expected.audio.shape and np.allclose(spoken.audio, expected.audio, atol=1e-5)
    assert spoken.words == expected.words and [word.text for word in spoken.words][:3] == ["Your", "refund", "of"]
