"""Roman numerals read where their context says they are numbers (``roman`` holds their value and the words):
after a ruler's name ("Henry VIII": the Eighth), a title and a name ("Pope John Paul II"), a part of a work
("Chapter IV", "Part II": four, two), or a capitalized name that a numeral follows ("Super Bowl LVIII").
``tag_cues_english.english_rules`` calls the first three at their words; ``CAPITALIZED`` is tried at a capitalized word.
"""

from __future__ import annotations

import re

from . import roman
from .forms import Form, Joined, Roman, Word
from .span_rule import Reading, Span
from .tag_token import classify


def ruler(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Word(" ".join(match["name"].split())), Roman(roman.value(match["numeral"]), ordinal=True)))


def numbered_part(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Word(match["name"]), Roman(roman.value(match["numeral"]), ordinal=False)))


# A token that ends in a capitalized word after a sign or a digit ("0:Aa"): said, that word is a name.
ENDS_IN_NAME = re.compile(r"[^A-Za-z'’\s][A-Z][^\W\d_]*[a-z]$")


def _capitalized_numeral(reading: Reading, index: int) -> Span | None:
    """ "Rocky III", "Final Fantasy VII": two numeral letters or more after a capitalized word are a number;
    after a token that ends in one ("0:Aa VIII") too, so that reading what was said changes nothing."""
    name, numeral = reading.core(index), reading.core(index + 1)
    heading = name.lower() in _HEADINGS  # "CHAPTER XIV", "Part I": one numeral letter is enough
    if not re.fullmatch(r"[IVXL]{1,9}" if heading else r"[IVX]{2,9}", numeral) or name in _NOT_NAMES:
        return None
    word = heading or re.fullmatch(r"[A-Z][^\W\d_'’]*(?:['’][^\W\d_]+)?[a-z]", name) is not None
    if not word and ENDS_IN_NAME.search(name) is None:
        return None
    if reading.tokens[index].trail or reading.tokens[index + 1].text[
        len(reading.tokens[index + 1].lead) + len(numeral) :
    ][:1] in ("-", "'"):
        return None
    try:
        value = roman.value(numeral)
    except ValueError:
        return None
    first = Word(name) if word else classify(name, reading.locale) or Word(name)
    return Span(index, index + 1, Joined((first, Roman(value, ordinal=False))), trail=True)


_HEADINGS = frozenset(
    "chapter part section volume book act scene phase stage level season episode article appendix type tier "
    "step round grade class title".split()
)


_NOT_NAMES = frozenset(
    "The A An My Your His Her Its Our Their This That These Those In On At By For Of To And Or With No Get Need".split()
)


CAPITALIZED = _capitalized_numeral
