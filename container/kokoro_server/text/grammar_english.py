"""English's grammar: its own spans and cue words, and what decides an English token read alone from its
neighbours ("in 2010." a year, "a 5s timeout" seconds, "a $20 gift card" an amount before its noun, "Mr Jones")."""

from __future__ import annotations

import re
from dataclasses import replace

from . import words_english as english
from .forms import Code, Decade, Form, Measure, Money, Number, Said, Year
from .locales import Locale
from .span_rule import Grammar, Reading, Rule
from .tag_address import ADDRESS, COMPASS_STREET, FLOOR, STREET
from .tag_clock import named_time_rules
from .tag_cues_english import english_rules
from .tag_cues_technical import STATUS, technical_rules
from .tag_roman import CAPITALIZED
from .tag_spans import english_spans


def grammar(locale: Locale) -> Grammar:
    words: dict[str, tuple[Rule, ...]] = {}
    for word, found in (*english_rules().items(), *named_time_rules().items(), *technical_rules().items()):
        words[word] = words.get(word, ()) + found
    return Grammar(
        words=words,
        numeric=(ADDRESS, COMPASS_STREET, FLOOR, STATUS),
        spans=english_spans(),
        capitalized=(CAPITALIZED, STREET),
        alone=_alone,
    )


def _alone(reading: Reading, index: int, form: Form | None) -> Form | None:
    core = reading.tokens[index].core
    before, after = reading.core(index - 1), reading.core(index + 1)
    if isinstance(form, Number) and core.isdigit() and len(core) == 4 and _a_year(core, before, after):
        return Year(core)
    seconds = _seconds(core, form, before, after)  # "a 5s timeout", "retry every 30s": seconds, not the thirties
    decided = _decided(reading, index, seconds or form)
    return decided if decided is not None else seconds


def _decided(reading: Reading, index: int, form: Form | None) -> Form | None:
    core, locale = reading.tokens[index].core, reading.locale
    before, after = reading.core(index - 1), reading.core(index + 1)
    if core in ("No.", "no.") and after[:1].isdigit():
        return Said("number")  # "No. 5", "Ref no. 4471"
    if core[:-1] in locale.weekdays and core.endswith(".") and before.lower() not in english.DETERMINERS | {"a"}:
        return Said(locale.weekdays[core[:-1]])  # "due EOD Fri.": a weekday's short form with its dot; not "the Sun."
    month = locale.months.get(core[:-1]) if core.endswith(".") else None
    if month is not None and before.lower() in _BEFORE_A_MONTH:
        return Said(english.MONTHS[month - 1])  # "up 12% from Oct.": a month's short form after its preposition
    if form is None and before.lower() == "per":
        if (unit := locale.unit(core.rstrip("."))) in english.UNITS and len(core) > 1:
            return Said(english.UNITS[unit][0])  # "$12–$15 per lb": per pound
    if core in english.ROUND_PLURALS:
        return Said(english.ROUND_PLURALS[core])  # "100s of users": hundreds
    if isinstance(form, (Money, Measure)) and _modifies(form) and _before_noun(before, after):
        return replace(form, before_noun=True)  # "a $20 gift card": a twenty-dollar gift card
    if form is None and core in english.BARE_TITLES and after[:1].isupper():
        return Said(english.BARE_TITLES[core])  # "Mr Jones": Mister Jones
    return None


_BEFORE_A_MONTH = frozenset("from in since until till through by of before after early late mid".split())


def _a_year(core: str, before: str, after: str) -> bool:
    """Whether four digits alone are a year: from 1900 to 2099, and not counting what follows ("2024 was a
    record year", "in 2010.", but "1999 people"); "the 1990 census" is a year before its noun."""
    if not 1900 <= int(core) <= 2099:
        return False
    counted = after[:1].islower() and after.isalpha() and after not in english.FUNCTION_WORDS
    return not counted or before.lower() in ("the", "a", "this", "that", "last", "next")


_GLUED_SECONDS = re.compile(r"(?P<n>\d{1,4}(?:\.\d{1,3})?)s")
# Words around "30s" that make it seconds rather than a decade ("every 30s", "30s later"); "in her 30s" stays.
_SECONDS_BEFORE = frozenset("every to for after within wait waited in about under over than takes took lasts only just "
                            "another first last max min".split())  # fmt: skip
_SECONDS_AFTER = frozenset("timeout delay left later ago interval intervals cooldown window apart each per max total "
                           "long".split())  # fmt: skip


def _seconds(core: str, form: Form | None, before: str, after: str) -> Form | None:
    """ "5s", "1.5s", "120s": seconds, where the token is no decade nor a digit's plural ("the 5s"); a decade's
    shape ("30s") only where a word around it times something."""
    match = _GLUED_SECONDS.fullmatch(core)
    if match is None or re.fullmatch(r"\d00+", match["n"]):
        return None  # "100s of users": hundreds
    if isinstance(form, Decade):
        timed = before.lower() in _SECONDS_BEFORE or after.lower().rstrip(".,;:!?") in _SECONDS_AFTER
        if form.century is not None or not (timed or re.fullmatch(r"\d{1,3}(?:m|min)", before)):
            return None
    elif not isinstance(form, Code):
        return None
    whole, _, fraction = match["n"].partition(".")
    return Measure(Number(whole, fraction or None), "s")


def _before_noun(before: str, after: str) -> bool:
    """Whether an amount describes the noun after it: after "a" ("a $20 gift card", "a 5 km run"), or after
    "the", "this", "each"... before a noun that an amount names ("the $5 bill", "your $30 fee")."""
    if before.lower() in ("a", "an"):
        return True
    return before.lower() in english.DETERMINERS and after.lower().rstrip(".,;:!?") in english.AMOUNT_NOUNS


def _modifies(form: Money | Measure) -> bool:
    """Whether an amount can describe a noun: a whole one, or a measure's decimal ("a 2.0L engine"); not
    "a $2.50 coffee", said as an amount."""
    amount = form.amount
    if not isinstance(amount, Number):
        return False
    return (not amount.fraction or isinstance(form, Measure)) and not amount.negative
