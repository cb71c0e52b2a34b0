"""The normalizer's harder kinds, in every language it reads: multipliers and magnitudes, ranges with units,
approximations, signs in context, units, quarters, roman numerals, addresses, extensions and short codes.

normalize_kinds.tsv holds how listeners say each written form; a case passes as the benchmark counts it
(``kokoro_bench.normalize_kinds.passes``). Hostile texts of each kind's characters take time in proportion to
their length: a text eight times longer takes about eight times as long, never the sixty-four times a
quadratic rule would.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from kokoro_bench.normalize_kinds import KINDS, Case, load_cases, passes
from kokoro_bench.normalize_unseen import Form, load_forms
from kokoro_bench.normalize_unseen import passes as unseen_passes
from kokoro_server.text.normalize import normalize
from kokoro_server.text.reading import said_text
from tests.scaling import assert_linear

CASES = load_cases()
# Kinds that Hindi and Japanese text does not write (a Japanese text writes "エリザベス2世" and its own
# addresses): docs/languages.md says so.
NOT_WRITTEN = {("roman", "hi"), ("roman", "ja"), ("address", "hi"), ("address", "ja")}
LEAST_CASES = {"en-us": 6, "en-gb": 2, "es": 3, "fr-fr": 3, "it": 3, "pt-br": 3, "hi": 1, "ja": 1}


def test_the_table_covers_every_kind_in_every_language() -> None:
    counts = Counter((case.kind, case.language) for case in CASES)
    for kind in KINDS:
        for language, least in LEAST_CASES.items():
            if (kind, language) not in NOT_WRITTEN:
                assert counts[kind, language] >= least, (kind, language)
    assert len(CASES) >= 300


@pytest.mark.parametrize("case", CASES, ids=[f"{c.kind}:{c.language}:{c.written}" for c in CASES])
def test_each_kind_is_said_as_listeners_say_it(case: Case) -> None:
    said = said_text(case.written, case.language)
    assert passes(said, case), f"said {said!r}; accepted {case.accepted}"
    once = normalize(case.written, case.language)
    assert normalize(once, case.language) == once  # twice changes nothing


def test_the_check_fails_a_wrong_reading() -> None:
    case = Case("roman", "en-us", "Henry VIII", ("henry the eighth",))
    assert not passes("Henry V I I I", case)
    assert not passes("Henry the 8th", case)  # a digit left over
    assert passes("Henry the Eighth.", case)


def test_words_that_look_like_a_kind_stay_words() -> None:
    assert normalize("I think I can.") == "I think I can."  # the pronoun is not a numeral
    assert normalize("Malcolm X and the Model X.") == "Malcolm X and the Model X."
    assert normalize("The IV line is in.") == "The IV line is in."
    assert normalize("Washington DC is busy.") == "Washington DC is busy."
    assert normalize("Dr. Patel will call.") == "Doctor Patel will call."
    assert normalize("Visit St. Louis today.") == "Visit Saint Louis today."
    assert normalize("Use the H1 tag.") == "Use the H one tag."  # after "the": said, never left as "H1"
    assert normalize("Flat 4B is free.") == "Flat four bee is free."


HOSTILE = {
    "numerals": "I",
    "numerals after a name": "Henry IIII ",
    "dimensions": "9x",
    "tildes": "~",
    "at signs": "@",
    "dashes": "1-",
    "plus signs": "+",
    "hashes": "#",
    "ampersands": "A&",
    "magnitudes": "1k",
    "quarters": "Q1 ",
    "street abbreviations": "1 Main St. ",
    "codes": "code 1 ",
    "degrees": "1°",
    "units": "1 km/h ",
    "roman words": "Chapter IV ",
    "feet and inches": "5'4\" ",
    "inch marks and quotes": '" 12" ',
    "dates after a cue": "due 6/30 ",
    "durations": "in 21:34 ",
    "dotted times": "at 15.30 ",
    "joined measures": "6.5-inch ",
    "decades": "mid-80s ",
    "web addresses": "https://a.b/c ",
    "amounts with a magnitude": "US$2.5 billion ",
}
LANGUAGES = ("en-us", "es", "fr-fr", "it", "pt-br", "hi", "ja")


@pytest.mark.parametrize("unit", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_texts_take_time_in_proportion_to_their_length(unit: str) -> None:
    for language in LANGUAGES:
        short, long = unit * (1_250 // len(unit)), unit * (10_000 // len(unit))
        assert_linear(partial(normalize, language=language), short, long, 8, language)


def test_twenty_thousand_numeral_letters_pass_through() -> None:
    for language in LANGUAGES:
        assert normalize("I" * 20_000, language) == "I" * 20_000
        assert normalize("~" * 20_000, language) == "~" * 20_000
        assert normalize("@" * 20_000, language) == "@" * 20_000


EVERYDAY = load_forms(Path(__file__).with_name("normalize_classes.tsv"))


@pytest.mark.parametrize("form", EVERYDAY, ids=[f"{f.kind}:{f.language}:{f.written}" for f in EVERYDAY])
def test_everyday_forms_are_said_as_listeners_say_them(form: Form) -> None:
    said = said_text(form.written, form.language)
    assert unseen_passes(said, form), f"said {said!r}; accepted {form.accepted}"
