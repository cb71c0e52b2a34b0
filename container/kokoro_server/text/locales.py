"""How each language the normalizer reads writes what it reads: its decimal mark, its date order, its units,
currencies, abbreviations, month names and ordinal marks. The tagger reads a text with its language's
``Locale``; what each form is said as is the verbalizer's (``say_english``, ``say_romance``, ``say_signs``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from . import words_english as english
from . import words_romance as romance
from . import words_signs as signs
from .habits import SIGNS_HABITS, Habits, english_habits, romance_habits
from .tokens import is_word

ROMANCE = {"es": "es", "fr-fr": "fr", "it": "it", "pt-br": "pt_BR"}  # ours -> num2words' language code
SIGNS = ("hi", "ja")  # languages whose readers say digits: the normalizer says their signs
LANGUAGES = ("en-us", "en-gb", *ROMANCE, *SIGNS)


@dataclass(frozen=True, eq=False)  # compared by identity: one per language (``locale_of``)
class Locale:
    language: str
    family: str  # "english", "romance" or "signs": whose grammar (``grammar_*``) and verbalizer read it
    decimal_comma: bool  # "3,5" is a decimal and "1.500" a thousand and five hundred
    day_first: bool  # "03/04/2026" is the third of April
    units: Mapping[str, str]  # written -> key of the verbalizer's unit table
    currencies: Mapping[str, str]  # written sign or code -> ISO code
    cents: Mapping[str, str]  # a sign written after an amount in the hundredth ("75¢") -> ISO code
    scales: Mapping[str, str]  # a magnitude written after a number ("10k", "2.5 million") -> its name
    abbreviations: Mapping[str, str]  # written -> said
    titles: frozenset[str]  # abbreviations before a name ("Dr."): their dot never ends a sentence
    months: Mapping[str, int]  # written month names and short forms -> 1..12
    weekdays: Mapping[str, str]  # written short forms -> the day's name
    per_words: frozenset[str]  # what after "/" makes a rate even between words ("beats/min", "items/day")
    ordinal: re.Pattern[str]  # a written ordinal: group "n", and "feminine" where the language marks it
    spaced_units: Mapping[str, str] = field(default_factory=dict)  # units read only after a space ("25 m")
    habits: Habits = field(default_factory=Habits)  # what only some languages write or read

    def unit(self, written: str) -> str | None:
        """The key of the unit written ``written``, in any case for a unit of two letters or more."""
        key = self.units.get(written)
        if key is None and written.startswith("º") and self.habits.degree_typo:
            key = self.units.get("°" + written[1:])  # "72ºF": the ordinal sign typed for the degree sign
        if key is None and len(written) >= 2:
            key = _folded(self).get(written.casefold())
        return key

    def per(self, written: str) -> str | None:
        """What a rate is per, from what follows its "/" ("$29/mo", "5 mg/kg", "$5/user"): a unit's key, or a
        word as written (each verbalizer says it: "per month", "al mes"); ``None`` for anything else."""
        if (unit := self.unit(written)) is not None:
            return unit
        return written if 0 < len(written) <= 15 and is_word(written) and "." not in written else None

    def keeps_dot(self, word: str) -> bool:
        """Whether ``word``, ending in a dot, is an abbreviation whose dot is its own ("etc.", "Jan.")."""
        if word in self.abbreviations or word[:-1] in self.months or word[:-1] in self.weekdays:
            return True
        short = word[:-1]  # a unit's short form ("ft.", "oz.", "sq. ft."): its dot is its own
        return len(short) >= 2 and short.isalpha() and (short in self.units or short in _UNIT_HEADS)


# The first words of units written in two: "sq. ft.", "Fl. oz."; not in capitals ("Miami, FL.": a state).
_UNIT_HEADS = frozenset({"sq", "cu", "fl", "Sq", "Cu", "Fl"})


@cache
def _folded(locale: Locale) -> dict[str, str]:
    """Units by their case-folded spelling, but for a spelling two different units share ("Mb": megabits or
    megabytes)."""
    folded: dict[str, str | None] = {}
    for written, key in locale.units.items():
        if len(written) >= 2:
            other = folded.get(written.casefold(), key)
            folded[written.casefold()] = key if other == key else None
    return {written: key for written, key in folded.items() if key is not None}


# Ordinals, with their thousands grouped as the language groups them ("2,000th", "1.000.º").
_ENGLISH_ORDINAL = re.compile(r"(?P<n>\d{1,3}(?:,\d{3}){1,4}|\d{1,15})(?:st|nd|rd|th)", re.IGNORECASE)
_DOTTED = r"\d{1,3}(?:\.\d{3}){1,4}"
_ORDINALS = {
    # "1.º", "2.ª", and "3o", "3a" as informal text writes them (only after a number of one or two digits).
    "es": re.compile(
        rf"(?P<n>{_DOTTED}|\d{{1,4}})\.?(?:º|er|ro|(?P<feminine>ª|ra))|(?P<n2>\d{{1,2}})(?:o|(?P<feminine2>a))"
    ),
    "pt_BR": re.compile(rf"(?P<n>{_DOTTED}|\d{{1,4}})\.?(?:º|(?P<feminine>ª))|(?P<n2>\d{{1,2}})(?:o|(?P<feminine2>a))"),
    "it": re.compile(rf"(?P<n>{_DOTTED}|\d{{1,4}})\.?(?:º|°|(?P<feminine>ª))"),
    "fr": re.compile(rf"(?P<n>{_DOTTED}|\d{{1,4}})(?:er|e|ème|ième|\.?º|nde?|(?P<feminine>re|ère))"),  # "2nd": second
}


def _synonyms(table: Mapping[str, object]) -> dict[str, str]:
    """Each written unit -> the first unit said the same ("mL" -> "ml"), so that "ML" is read as either."""
    first: dict[object, str] = {}
    return {unit: first.setdefault(said, unit) for unit, said in table.items()}


def _month_names(names: list[str], short: bool) -> dict[str, int]:
    months = {name: number for number, name in enumerate(names, start=1)}
    if short:
        months |= {name[:3]: number for name, number in months.items()} | {"Sept": 9}
    return months


@cache
def locale_of(language: str) -> Locale | None:
    """The locale of ``language``; ``None`` for a language the normalizer does not read (Mandarin Chinese)."""
    if language.startswith("en"):
        british = language == "en-gb"
        return Locale(
            language=language if language in ("en-us", "en-gb") else "en-us",
            family="english",
            decimal_comma=False,
            day_first=british,
            units=_synonyms(english.UNITS),
            currencies=english.CURRENCY_SIGNS | {code: code for code in english.CURRENCIES},
            cents=english.CENT_SIGNS,
            scales=english.SCALES,
            abbreviations=english.ABBREVIATIONS | (english.BRITISH_ABBREVIATIONS if british else {}),
            titles=english.TITLES,
            months=_month_names(english.MONTHS, short=True),
            weekdays=english.WEEKDAYS,
            per_words=frozenset(english.PER_WORDS) | frozenset(english.UNITS),
            ordinal=_ENGLISH_ORDINAL,
            spaced_units={unit: unit for unit in english.SPACED_UNITS},
            habits=english_habits(british),
        )
    if language in ROMANCE:
        lang = ROMANCE[language]
        return Locale(
            language=language,
            family="romance",
            decimal_comma=True,
            day_first=True,
            units=_synonyms(
                {u: said for u, said in romance.UNIT_WORDS[lang].items() if u not in romance.SPACED_UNIT_KEYS}
            ),
            currencies=romance.CURRENCY_SIGNS,
            cents={},
            scales=romance.WRITTEN_SCALES[lang],
            abbreviations=romance.ADDRESS_WORDS[lang] | romance.ABBREVIATIONS[lang],
            titles=frozenset(),
            months=_month_names(romance.MONTHS[lang].split(), short=False) | romance.SHORT_MONTHS[lang],
            weekdays=romance.WEEKDAYS[lang],
            per_words=frozenset(romance.PER_WORDS[lang]) | frozenset(romance.UNIT_WORDS[lang]),
            ordinal=_ORDINALS[lang],
            spaced_units={unit: unit for unit in romance.SPACED_UNIT_KEYS},
            habits=romance_habits(lang),
        )
    if language in SIGNS:
        return Locale(
            language=language,
            family="signs",
            decimal_comma=False,
            day_first=True,
            units={unit: unit for unit in signs.UNITS[language]},
            currencies=signs.CURRENCY_SIGNS,
            cents={},
            scales=signs.WRITTEN_SCALES,
            abbreviations={},
            titles=frozenset(),
            months={},
            weekdays={},
            per_words=frozenset(signs.PER_WORDS[language]) | frozenset(signs.UNITS[language]),
            ordinal=_ENGLISH_ORDINAL,
            habits=SIGNS_HABITS,
        )
    return None
