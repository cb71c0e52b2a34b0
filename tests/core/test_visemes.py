"""Visemes: the model's tokens cut into heard phonemes, each phoneme's Azure viseme id, and the doc's table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kokoro_onnx.config import DEFAULT_VOCAB

from kokoro_core.visemes import UNKNOWN_VISEME, VISEMES, PhonemeGroup, phoneme_groups, viseme_of
from tests.scaling import assert_linear

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "visemes.md").read_text(encoding="utf-8")

PAUSES = set(' ;:,.!?—…"()“”') | set("→↓↗↘")
STRESS = set("ˈˌ")
MARKS = STRESS | set("ːʰʲᵝ\u0303")
SOUNDS = sorted(set(DEFAULT_VOCAB) - PAUSES - MARKS)

# Real phonemes: espeak-ng through kokoro_onnx (English), misaki's readers (the other languages).
EXAMPLES = {
    "hello": ("həlˈoʊ", "h ə l oʊ", [12, 1, 14, 8]),
    "world": ("wˈɜːld", "w ɜː l d", [7, 5, 14, 19]),
    "the judge": ("ðə dʒˈʌdʒ", "ð ə dʒ ʌ dʒ", [17, 1, 16, 1, 16]),
    "chose a toy house": ("tʃˈoʊz ɐ tˈɔɪ hˈaʊs", "tʃ oʊ z ɐ t ɔɪ h aʊ s", [16, 8, 15, 1, 19, 10, 12, 9, 15]),
    "british hello": ("həlˈəʊ", "h ə l əʊ", [12, 1, 14, 8]),
    "es niño bebe agua": ("nˈiɲo βˈeβe ˈaɣwa", "n i ɲ o β e β e a ɣ w a", [19, 6, 19, 8, 21, 4, 21, 4, 2, 20, 7, 2]),
    "es churros": ("ʧˈuros.", "ʧ u r o s", [16, 7, 19, 8, 15]),
    "fr bonjour": ("bɔ̃ʒˈuʁ", "b ɔ̃ ʒ u ʁ", [21, 3, 16, 7, 20]),
    "fr un bon vin blanc": ("œ̃ bˈɔ̃ vˈɛ̃ blˈɑ̃.", "œ̃ b ɔ̃ v ɛ̃ b l ɑ̃", [3, 21, 3, 18, 4, 21, 14, 2]),
    "fr suis": ("syˌi", "s y i", [15, 7, 6]),
    "it pizza": ("pˈiʦːa", "p i ʦː a", [21, 6, 15, 2]),
    "pt-br não sei": ("nˌɐ̃ʊ̃ sˈA", "n ɐ̃ ʊ̃ s A", [19, 1, 4, 15, 4]),
    "hi namaste": ("nəmˈʌsteː", "n ə m ʌ s t eː", [19, 1, 21, 1, 15, 19, 4]),
    "ja konnichiwa": ("koɲɲiʨiβa", "k o ɲ ɲ i ʨ i β a", [20, 8, 19, 19, 6, 16, 6, 21, 2]),
    "zh shijie": ("ʂɨ↘ʨje↘", "ʂ ɨ ʨ j e", [16, 6, 16, 6, 4]),
    "zh zhongguo": ("ꭧʊ→ŋkwo↗", "ꭧ ʊ ŋ k w o", [16, 4, 20, 20, 7, 8]),
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_real_phonemes_group_and_map(name: str) -> None:
    tokens, phonemes, visemes = EXAMPLES[name]
    groups = phoneme_groups(tokens)
    assert [group.phoneme for group in groups] == phonemes.split()
    assert [viseme_of(group.phoneme) for group in groups] == visemes


def test_groups_cover_their_tokens() -> None:
    assert phoneme_groups("hˈɛloʊ wˈɜːld.") == [
        PhonemeGroup("h", 0, 0),
        PhonemeGroup("ɛ", 1, 2),  # the stress mark joins the vowel after it
        PhonemeGroup("l", 3, 3),
        PhonemeGroup("oʊ", 4, 5),  # a diphthong is one phoneme
        PhonemeGroup("w", 7, 7),
        PhonemeGroup("ɜː", 8, 10),  # stress before, length after
        PhonemeGroup("l", 11, 11),
        PhonemeGroup("d", 12, 12),
    ]


def test_marks_with_no_phoneme_on_their_side() -> None:
    assert phoneme_groups("aˈ ːb ˈ ː") == [PhonemeGroup("a", 0, 1), PhonemeGroup("ːb", 3, 4)]
    assert phoneme_groups("t͡ʃa") == [PhonemeGroup("t͡ʃ", 0, 2), PhonemeGroup("a", 3, 3)]
    assert viseme_of("t͡ʃ") == 16
    assert phoneme_groups("") == phoneme_groups(" ,.…") == []


def test_every_vocabulary_symbol_has_a_viseme() -> None:
    assert list(VISEMES) == list(range(22))
    for symbol in DEFAULT_VOCAB:
        expected_silent = symbol in PAUSES or symbol in MARKS
        assert (viseme_of(symbol) == 0) == expected_silent, symbol
        assert viseme_of(symbol) in VISEMES
    assert sorted(symbol for symbol in SOUNDS if not listed(symbol)) == []


def listed(symbol: str) -> bool:
    """Whether ``symbol`` has a viseme of its own, not the fallback: an unlisted one would take the viseme of
    the next known symbol, so p (21) and k (20) after it could not both leave its viseme unchanged."""
    return viseme_of(symbol + "p") == viseme_of(symbol + "k") == viseme_of(symbol)


def test_the_examples_of_each_viseme_map_to_it() -> None:
    for viseme, description in VISEMES.items():
        if viseme:
            examples = description.split(": ", 1)[1].split()
            assert [viseme_of(example) for example in examples] == [viseme] * len(examples), description


def test_stress_length_and_modifiers_are_ignored() -> None:
    assert viseme_of("ˈɔ̃ː") == viseme_of("ɔ") == 3
    assert viseme_of("kʰ") == viseme_of("kᵝ") == 20
    assert viseme_of("é") == viseme_of("e") == 4  # a precomposed letter: its base letter
    assert viseme_of("ç") == 6  # not its NFD base c


def test_unknown_phonemes_fall_back_to_a_sound() -> None:
    assert viseme_of("ʘ") == UNKNOWN_VISEME != 0
    assert viseme_of("ɪə") == 6  # an unlisted diphthong: the shape it starts with
    assert viseme_of("ʘp") == 21
    assert not listed("ʘ")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from([*DEFAULT_VOCAB, "\u0361", "ʘ", "é", "g"]), max_size=80))
def test_groups_partition_the_sounding_tokens(tokens: str) -> None:
    groups = phoneme_groups(tokens)
    covered = [index for group in groups for index in range(group.first, group.last + 1)]
    assert covered == sorted(set(covered))  # disjoint and in order
    for group in groups:
        span = tokens[group.first : group.last + 1]
        assert not set(span) & PAUSES
        assert group.phoneme == "".join(token for token in span if token not in STRESS)
        assert viseme_of(group.phoneme) in VISEMES
        assert viseme_of(group.phoneme) != 0
    # Every token of a word with a sound in it is covered; a word of marks only is silent.
    words = [match.span() for match in re.finditer(f"[^{re.escape(''.join(PAUSES))}]+", tokens)]
    sounding = [
        index for start, end in words if set(tokens[start:end]) - MARKS - {"\u0361"} for index in range(start, end)
    ]
    assert covered == sounding


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_never_raises(text: str) -> None:
    for group in phoneme_groups(text):
        assert viseme_of(group.phoneme) in VISEMES
    assert viseme_of(text) in VISEMES


def test_long_runs_of_marks_and_long_texts_are_cut_in_linear_time() -> None:
    for make in (lambda n: "a" + "ː" * n, lambda n: "ˈ" * n + "a", lambda n: "həlˈoʊ wˈɜːld, " * (n // 10)):
        small, large = make(25_000), make(200_000)
        assert phoneme_groups(large)
        assert_linear(phoneme_groups, small, large, 8, large[:12])


def test_the_doc_table_is_visemes() -> None:
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \|$", DOC, re.MULTILINE)
    assert {int(viseme): f"{shape}: {examples}" for viseme, shape, examples in rows} == dict(VISEMES)


def test_the_doc_choices_for_other_languages_hold() -> None:
    rows = re.findall(r"^\| ([^|]+) \| (\d+) \| [^|]+ \|$", DOC, re.MULTILINE)
    assert len(rows) >= 10
    for symbols, viseme in rows:
        assert [viseme_of(symbol) for symbol in symbols.split()] == [int(viseme)] * len(symbols.split()), symbols
