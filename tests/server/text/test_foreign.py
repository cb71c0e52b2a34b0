"""Spans read by another language's reader: marked by SSML or found by their script, in every piece of a text
cut anywhere, never said or shown as marks; and what an English voice does with another script, read or skipped.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kokoro_server.text.foreign import LANGUAGES, labeled, marked, segments, unmarked
from kokoro_server.text.reading import said_shown, said_text
from tests.scaling import assert_linear


def test_a_marked_span_is_read_in_its_language_and_the_rest_in_the_voices() -> None:
    text = f"Your booking at {marked('Hôtel Le Meurice', 'fr-fr')}, rue de Rivoli."
    assert segments(text, "en-us") == [
        ("Your booking at ", "en-us"),
        ("Hôtel Le Meurice", "fr-fr"),
        (", rue de Rivoli.", "en-us"),
    ]


def test_a_span_is_labeled_with_its_language_for_people_to_read() -> None:
    assert labeled(said_shown("A table for 2, name 王小明.", "en-us")) == "A table for two, name [cmn: 王小明]."
    assert labeled(f"at {marked('Hôtel', 'fr-fr')}") == "at [fr-fr: Hôtel]"


def test_a_span_cut_off_from_its_opening_or_closing_mark_keeps_its_language() -> None:
    text = f"at {marked('Hôtel Le Meurice', 'fr-fr')} today"
    cut = text.index("Le")
    assert segments(text[:cut], "en-us") == [("at ", "en-us"), ("Hôtel ", "fr-fr")]
    assert segments(text[cut:], "en-us") == [("Le Meurice", "fr-fr"), (" today", "en-us")]


def test_in_plain_text_a_run_of_another_script_is_read_by_its_reader_unless_skipped() -> None:
    text = "Call 王小明 or 田中さん, and say नमस्ते दोस्त to Priya."
    assert segments(text, "en-us") == [
        ("Call ", "en-us"),
        ("王小明", "cmn"),
        (" or ", "en-us"),
        ("田中さん", "ja"),  # kana among the characters: Japanese
        (", and say ", "en-us"),
        ("नमस्ते दोस्त", "hi"),
        (" to Priya.", "en-us"),
    ]
    assert segments(text, "en-us", "skip") == [(text, "en-us")]
    assert said_text("Please call 王小明.", "en-us", foreign="skip") == "Please call ."
    assert segments("東京で会いましょう", "ja") == [("東京で会いましょう", "ja")]  # a voice's own script


def test_what_is_shown_or_written_never_holds_a_mark() -> None:
    text = f"Gracias, {marked('Señora Núñez', 'es')}, your 2 rooms with 王小明."
    assert said_text(text, "en-us") == "Gracias, Señora Núñez, your two rooms with 王小明."
    shown = said_shown(text, "en-us")
    assert shown != unmarked(shown) and unmarked(shown) == said_text(text, "en-us")


def test_a_span_is_normalized_by_its_own_language() -> None:
    text = f"See you at {marked('12 rue de Rivoli, le 3 mars', 'fr-fr')} or {marked('calle 5, 1.500 €', 'es')}."
    assert said_text(text, "en-us") == (
        "See you at douze rue de Rivoli, le trois mars or calle cinco, mil quinientos euros."
    )


_LANGUAGE = st.sampled_from([language for language in LANGUAGES if language != "en-us"])
_WORDS = st.text(st.sampled_from(list("abc éñ 12,.王小田さन")), min_size=1, max_size=12)
_PIECE = st.one_of(_WORDS.map(lambda words: (words, None)), st.tuples(_WORDS, _LANGUAGE))


def _languages(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(char, language) for piece, language in pieces for char in piece]


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECE, min_size=1, max_size=6), st.data())
def test_cut_anywhere_each_character_is_read_in_the_language_it_is_read_in_whole(pieces, data) -> None:
    text = "".join(words if language is None else marked(words, language) for words, language in pieces)
    cut = data.draw(st.integers(0, len(text)))
    whole = _languages(segments(text, "en-us", "skip"))
    apart = _languages(segments(text[:cut], "en-us", "skip") + segments(text[cut:], "en-us", "skip"))
    assert apart == whole
    assert "".join(char for char, _ in whole) == unmarked(text)


def test_finding_spans_takes_time_in_proportion_to_the_text() -> None:
    for unit in ("王 a ", "王小明 and ", f"{marked('rue', 'fr-fr')} ", "नमस्ते "):
        short, long = unit * (2_500 // len(unit)), unit * (20_000 // len(unit))
        assert_linear(lambda text: said_text(text, "en-us"), short, long, 8, unit)
