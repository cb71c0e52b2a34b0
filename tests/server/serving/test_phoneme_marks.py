"""Phoneme and viseme marks on the real model, through the real server: they tile the audio without gaps or
overlaps, share the word marks' boundaries, and their viseme ids come from the documented table."""

from __future__ import annotations

from kokoro_core.visemes import VISEMES, viseme_of
from tests.server.serving.test_marks import FRAME_MS
from tests.server.serving.test_ssml import speak

MS_PER_BYTE = 1000 / (24000 * 2)


def test_phonemes_tile_the_audio_and_share_the_word_marks_boundaries(server) -> None:
    text = "Thanks for calling. Your table for four is ready at seven thirty, by the window."
    events = speak(server, text, marks=True, phonemes=True)
    phonemes = [p for event in events if event.type == "phonemes" for p in event.message["phonemes"]]
    words = [w for event in events if event.type == "marks" for w in event.message["words"]]
    audio_ms = sum(len(event.audio) for event in events if event.audio is not None) * MS_PER_BYTE
    assert phonemes[0]["start_ms"] == 0.0 and abs(phonemes[-1]["end_ms"] - audio_ms) <= FRAME_MS
    assert all(a["end_ms"] == b["start_ms"] for a, b in zip(phonemes, phonemes[1:], strict=False))
    assert all(p["end_ms"] > p["start_ms"] for p in phonemes)
    starts, ends = [p["start_ms"] for p in phonemes], [p["end_ms"] for p in phonemes]
    for word in words:
        assert min(abs(word["start_ms"] - at) for at in starts) <= FRAME_MS, word
        assert min(abs(word["end_ms"] - at) for at in ends) <= FRAME_MS, word
    assert all(
        p["viseme"] in VISEMES and p["viseme"] == (0 if p["phoneme"] == "sil" else viseme_of(p["phoneme"]))
        for p in phonemes
    )
    # Sounds a viewer would check by eye: "Thanks" opens on the tongue between the teeth, "by" on closed lips.
    first_of = {w["text"].strip(".,"): next(p for p in phonemes if p["start_ms"] >= w["start_ms"]) for w in words}
    assert first_of["Thanks"]["viseme"] == 19 and first_of["by"]["viseme"] == 21, first_of
    assert {p["viseme"] for p in phonemes} >= {0, 21, 19, 20}
    speech = sum(p["end_ms"] - p["start_ms"] for p in phonemes if p["phoneme"] != "sil")
    assert speech > 0.5 * audio_ms  # the quiet is between words, not in them
