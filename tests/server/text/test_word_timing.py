"""From the model's token durations to written words: grouping, alignment and timing, without a model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kokoro_core.lexicon import parse_lexicon
from kokoro_server.engine.fake_engine import PHONEME_SYMBOLS
from kokoro_server.text.reading import ENGLISH, VoiceReading
from kokoro_server.text.word_sources import WrittenWord, written_words
from kokoro_server.text.word_timing import LEAD_FRAMES, align, phoneme_word_spans, spread, time_words, until_silent


def texts(words: list[WrittenWord]) -> list[str]:
    return [word.text for word in words]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("You should see $42.97 back.", ["You", "should", "see", "$42.97", "back."]),
        ("Sure, I can help.", ["Sure,", "I", "can", "help."]),
        ("It leaves at 7:45 a.m. and lands later.", ["It", "leaves", "at", "7:45 a.m.", "and", "lands", "later."]),
        ("Your order 58-1193 ships on 3/14.", ["Your", "order", "58-1193", "ships", "on", "3/14."]),
        ("Call 555-0142 today.", ["Call", "555-0142", "today."]),
        ("Great — thanks 🎉 bye.", ["Great —", "thanks 🎉", "bye."]),
        ("It is 72°F and sunny.", ["It", "is", "72°F", "and", "sunny."]),
    ],
)
def test_written_words_keep_the_text_as_sent_and_group_what_is_said_together(text: str, expected: list[str]) -> None:
    words = written_words(text, ENGLISH)
    assert texts(words) == expected
    # Every said word belongs to exactly one written word, in order.
    assert [said for word in words for said in word.said] == ENGLISH.said(text).split()


def test_an_amount_is_one_written_word_with_all_its_said_words() -> None:
    amount = next(word for word in written_words("You should see $42.97 back.", ENGLISH) if word.text == "$42.97")
    assert " ".join(amount.said) == "forty-two dollars and ninety-seven cents"


def test_lexicon_entries_and_unnormalized_text_map_back_too() -> None:
    lexicon = parse_lexicon({"Kokoro": "/kˈOkəɹO/"}, PHONEME_SYMBOLS)
    reading = VoiceReading(lexicon=lexicon)
    words = written_words("Ask Kokoro now.", reading)
    assert texts(words) == ["Ask", "Kokoro", "now."] and words[1].said == ("/kˈOkəɹO/",)
    as_written = written_words("It costs $5.", VoiceReading(normalized=False))
    assert texts(as_written) == ["It", "costs", "$5."]


def test_said_words_run_together_by_espeak_divide_their_phoneme_word() -> None:
    # "for a full refund": espeak-ng says "for a" as one word, fɚɹə
    spans = align(["fˈɔːɹ", "ˈeɪ", "fˈʊl", "ɹᵻfˈʌnd"], ["fɚɹə", "fˈʊl", "ɹᵻfˈʌnd."])
    assert spans[0][0] == 0 and spans[0][1] == spans[1][0] and spans[1][1] == 1
    assert spans[0][1] - spans[0][0] > spans[1][1] - spans[1][0]  # "for" takes more of it than "a"
    assert spans[2:] == [(1.0, 2.0), (2.0, 3.0)]


def test_a_said_word_split_in_two_spans_both_phoneme_words() -> None:
    assert align(["tˈuːθaʊzənd"], ["tˈuː", "θˈaʊzənd"]) == [(0.0, 2.0)]


def test_phoneme_word_spans_follow_token_frames_and_skip_pauses() -> None:
    phonemes = "hə lˈoʊ, wˈɜːld."
    known = set(phonemes)
    # one frame per token, three for the comma's pause, padding of 5 frames at each end
    frames = np.array([5] + [3 if c == "," else 1 for c in phonemes] + [5])
    spans = phoneme_word_spans(phonemes, frames, 600, known.__contains__)
    assert len(spans) == 3
    # "hə" starts after the padding, two tokens long, moved earlier to where the decoder's sound is
    assert spans[0] == ((5 - LEAD_FRAMES) * 600, (7 - LEAD_FRAMES) * 600)
    assert spans[1][1] < spans[2][0] - 3 * 600  # the comma's pause belongs to no word
    assert all(a <= b for a, b in spans)


def test_until_silent_ends_a_word_where_its_sound_does_but_keeps_half_of_it() -> None:
    audio = np.zeros(2400, dtype=np.float32)
    audio[:1000] = 0.5  # sound, then the pause the model folded into the last phoneme
    assert until_silent([(0.0, 2400.0)], audio, 0.003) == [(0.0, 1200.0)]
    audio[:2000] = 0.5
    assert until_silent([(0.0, 2400.0)], audio, 0.003) == [(0.0, 2000.0)]


def test_time_words_shift_for_trimmed_silence_and_stay_ordered_within_the_audio() -> None:
    words = written_words("You should see $42.97 back.", ENGLISH)
    said = [s for word in words for s in word.said]
    phoneme_words = ["p"] * len(said)
    spans = [(1000.0 + 500 * i, 1000.0 + 500 * i + 400) for i in range(len(said))]
    timed = time_words(words, phoneme_words, spans, lambda w: w, audio_length=5000, shift=900)
    assert [t.text for t in timed] == texts(words)
    assert timed[0].start == 100 and timed[0].end == 500
    assert all(a.end <= b.start for a, b in zip(timed, timed[1:], strict=False))
    assert all(0 <= t.start <= t.end <= 5000 for t in timed)
    amount = timed[3]
    assert amount.end - amount.start > 4 * 400  # the span of all its said words


def test_spread_divides_the_audio_by_what_is_said() -> None:
    timed = spread(written_words("Hi $42.97.", ENGLISH), 10_000)
    assert timed[0].start == 0 and timed[-1].end == 10_000
    assert timed[1].end - timed[1].start > 10 * (timed[0].end - timed[0].start)


_WORDS = st.sampled_from(
    "the order ships today $42.97 3 p.m. 14 March 2025 +44 20 7946 0958 *67 #Launch2026 Nguyen SageMaker "
    "<b>bold</b> <br/> 🎉 — 10⁸ m/s 1:29.708 12,99 € Dr. Patel 王小明 e.g. 5+ ~$30 ≥ 18".split()
)
_LEXICON = parse_lexicon({"Nguyen": "/wˈɪn/", "SageMaker": "sage maker"}, PHONEME_SYMBOLS)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_WORDS, min_size=1, max_size=12).map(" ".join), st.sampled_from(["en-us", "en-gb", "es", "fr-fr"]))
def test_every_said_word_belongs_to_one_written_word_in_order(text: str, language: str) -> None:
    """Whatever the text holds (markup, a lexicon's entries, another script, emoji), the written words keep the
    text as sent, and their said words are what is said for it, each once, in order."""
    reading = VoiceReading(language, lexicon=_LEXICON)
    words = written_words(text, reading)
    said = reading.said(text).split()
    if not words:  # nothing said but pauses
        assert not [word for word in said if word.strip(".,;:!?—…\"'()-–“”«»¡¿/")]
        return
    assert " ".join(word.text for word in words) == " ".join(text.split())
    assert [word for written in words for word in written.said] == said
