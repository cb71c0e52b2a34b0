"""Text as a person would say it: amounts, dates, times, phone numbers, codes, units and abbreviations
rewritten in words before G2P, which reads them wrongly ("$1,284.50" as "dollar one thousand two hundred
eighty four. fifty").

Each rule is a pattern and a function that says what it matches; rules run in order, most specific
first, and only ever replace digits and symbols with words, so their output is never matched again
(normalizing twice changes nothing). What no rule matches passes through unchanged. Where a rule is
ambiguous, context decides ("58-1193" after "order" is a code); where nothing decides, the reading
chosen is the one that is never wrong. American voices get month-first dates and 12-hour times;
British voices day-first dates, 24-hour times as written, and "one hundred and five".

Each kind of form is its own module, whose rules take their place in ``RULES``: dates and times
(``normalize_dates``), ranges with units, signs in context, codes and extensions, addresses, quarters,
roman numerals, multipliers and magnitudes (``normalize_ranges``, ``_symbols``, ``_codes``, ``_addresses``,
``_quarters``, ``_roman``, ``_magnitudes``); amounts, units, numbers and abbreviations are here.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from . import (
    normalize_addresses,
    normalize_codes,
    normalize_dates,
    normalize_magnitudes,
    normalize_quarters,
    normalize_ranges,
    normalize_roman,
    normalize_symbols,
    spoken,
)
from .normalize_romance import normalize_romance
from .normalize_rules import SENTENCE_ENDS, Rule, apply
from .normalize_signs import normalize_signs
from .normalize_words import (
    ABBREVIATIONS,
    BRITISH_SPELLINGS,
    CODE_WORDS,
    CURRENCIES,
    FRACTION_DENOMINATORS,
    SCALES,
    SPACED_UNITS,
    UNITS,
)


def _email(match: re.Match[str], british: bool) -> str:
    local, domain = match.group().split("@")
    return f"{_dotted(local)} at {_dotted(domain)}"


def _dotted(text: str) -> str:
    for symbol, word in ((".", " dot "), ("_", " underscore "), ("-", " dash "), ("+", " plus ")):
        text = text.replace(symbol, word)
    return re.sub(r"\d+", lambda m: spoken.digits(m.group()), text)


def _url(match: re.Match[str], british: bool) -> str:
    host, path = match.group("host"), match.group("path") or ""
    host = re.sub(r"^www\.", "", host, flags=re.IGNORECASE)
    words = _dotted(host)
    for part in filter(None, path.split("/")):
        words += " slash " + _dotted(part)
    return words


def _phone(match: re.Match[str], british: bool) -> str:
    text = match.group("number")
    groups = re.findall(r"\d+", text)
    spoken_groups = []
    if text.startswith("+"):
        spoken_groups.append("plus " + spoken.digits(groups.pop(0)))
    for index, group in enumerate(groups):
        toll_free = group in ("800", "888", "877", "866", "855", "844", "833") and index <= 1
        spoken_groups.append(f"{spoken.cardinal(group[0])} hundred" if toll_free else spoken.digits(group))
    words = ", ".join(spoken_groups)
    if match.group("ext"):
        words += ", extension " + spoken.digits(match.group("ext"))
    return words


def _money(match: re.Match[str], british: bool) -> str:
    symbol = (match.group("symbol") or match.group("code")).strip()
    one, many, cent, cents = CURRENCIES[symbol]
    whole = match.group("whole").replace(",", "")
    fraction = match.group("fraction")
    scale = match.group("scale")
    negative = "minus " if match.group("sign") else ""
    article = match.group("article") or ""
    if article and not fraction and not scale and not negative:  # "a $20 card": a twenty-dollar card
        return f"{article}{spoken.cardinal(whole, british)}-{one.split()[-1]}"
    if scale:
        value = Decimal(f"{whole}.{fraction}" if fraction else whole)
        return f"{article}{negative}{spoken.amount(value, british)} {SCALES.get(scale, scale)} {many}"
    units, hundredths = int(whole), int((fraction or "0").ljust(2, "0")[:2])
    parts = []
    if units or not hundredths:
        parts.append(f"{spoken.cardinal(units, british)} {one if units == 1 else many}")
    if hundredths:
        parts.append(f"{spoken.cardinal(hundredths, british)} {cent if hundredths == 1 else cents}")
    return article + negative + " and ".join(parts)


def _code(match: re.Match[str], british: bool) -> str:
    between = re.sub(r"\s*#\s*", " number ", match.group("between"))
    return f"{match.group('word')}{between}{spoken.characters(match.group('code'))}"


def _flight(match: re.Match[str], british: bool) -> str:
    airline, digits = match.group("airline"), match.group("digits")
    letters = spoken.characters(airline)
    if len(digits) == 4 and digits[0] != "0" and digits[2] != "0":
        said = f"{spoken.cardinal(digits[:2])} {spoken.cardinal(digits[2:])}"
    elif len(digits) == 3 and digits[0] != "0" and digits[1] != "0":
        said = f"{spoken.cardinal(digits[0])} {spoken.cardinal(digits[1:])}"
    else:
        said = spoken.number(digits, british) if digits[0] != "0" else spoken.digits(digits)
    return f"{match.group('word')} {letters} {said}"


def _card_ending(match: re.Match[str], british: bool) -> str:
    return f"{match.group(1)} {spoken.digits(match.group(2))}"


def _percent(match: re.Match[str], british: bool) -> str:
    return f"{_signed(match.group(1), british)} percent"


def _signed(text: str, british: bool) -> str:
    return ("minus " + spoken.number(text[1:], british)) if text[:1] in "-−" else spoken.number(text, british)


def _unit(match: re.Match[str], british: bool) -> str:
    one, many = UNITS.get(match.group("unit")) or SPACED_UNITS[match.group("unit")]
    value = match.group("value")
    try:
        single = Decimal(value.replace(",", "")) == 1
    except InvalidOperation:
        return match.group()
    article = match.group("article") or ""
    said = one if single or article else many
    if british:
        for american, spelling in BRITISH_SPELLINGS.items():
            said = said.replace(american, spelling)
    if article:  # "a 10 mg tablet": a ten-milligram tablet
        return f"{article}{_signed(value, british)}-{said.replace(' ', '-')}"
    return f"{_signed(value, british)} {said}"


def _ordinal(match: re.Match[str], british: bool) -> str:
    return spoken.ordinal(match.group(1), british)


def _range(match: re.Match[str], british: bool) -> str:
    low, high = match.group(1), match.group(2)
    years = all(len(v) == 4 and 1100 <= int(v) <= 2099 for v in (low, high))
    if years:
        return f"{spoken.year(low, british)} to {spoken.year(high, british)}"
    if "." not in low + high and (len(high) - len(low) > 1 or len(high) > 4 or "0" in (low[0], high[0])):
        return spoken.characters(match.group())  # "58-1193": a code, not a range
    return f"{spoken.number(low, british)} to {spoken.number(high, british)}"


def _fraction(match: re.Match[str], british: bool) -> str:
    top, bottom = int(match.group(1)), int(match.group(2))
    if (top, bottom) == (24, 7):
        return "twenty-four seven"
    if top >= bottom or bottom not in FRACTION_DENOMINATORS:
        return f"{spoken.cardinal(top, british)} out of {spoken.cardinal(bottom, british)}"
    one, many = FRACTION_DENOMINATORS[bottom]
    return f"{spoken.cardinal(top, british)} {one if top == 1 else many}"


def _number(match: re.Match[str], british: bool) -> str:
    text = match.group()
    if re.fullmatch(r"0\d+", text):
        return spoken.digits(text)  # leading zeros: "007" is a code, not seven
    return _signed(text, british)


def _hash_number(match: re.Match[str], british: bool) -> str:
    return f"number {match.group(1)}"


def _abbreviation(match: re.Match[str], british: bool) -> str:
    name = match.group("name")
    said = ABBREVIATIONS[name]
    # The abbreviation's dot may also end the sentence: keep a full stop where it does.
    ends = match.group("last") is not None or (name == "etc." and match.group("end") is not None)
    return said + "." if name.endswith(".") and ends else said


def _dotted_numbers(match: re.Match[str], british: bool) -> str:
    parts = match.group().split(".")
    if len(parts) == 4 and all(int(p) <= 255 for p in parts):  # an IP address, read digit by digit
        return " dot ".join(spoken.digits(p) for p in parts)
    return " point ".join(spoken.cardinal(p, british) for p in parts)  # a version


_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_UNIT_NAMES = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_ABBREVIATION_NAMES = "|".join(re.escape(a) for a in sorted(ABBREVIATIONS, key=len, reverse=True))
_END = SENTENCE_ENDS
_LAST = r"(?P<last>(?=\s*\Z))?"  # nothing but whitespace follows
RULES: list[Rule] = [
    # Rules that scan words start only where a word starts, so that one very long word costs linear time.
    (re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"), _email),
    (
        re.compile(
            r"(?<![\w.-])(?:https?://)?(?P<host>(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|ai|co|uk|us|gov|edu|app|info))"
            r"(?P<path>/[^\s,;!?)\"']*[^\s,;!?)\"'.])?(?!\w|\.+\w)",
            re.IGNORECASE,
        ),
        _url,
    ),
    *normalize_ranges.RULES,
    *normalize_symbols.BEFORE_PHONES,
    (
        re.compile(
            r"(?<![\w+])(?P<number>(?:\+\d{1,3}[\s.-]?)?(?:1[\s.-])?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}"
            r"|\+\d{1,3}(?:[\s.-]\d{1,4}){2,5}|\d{3}-\d{4})"
            r"(?:,?\s*(?:x|ext\.?|extension)\s*(?P<ext>\d{1,6}))?(?![\w-])",
            re.IGNORECASE,
        ),
        _phone,
    ),
    *normalize_symbols.AFTER_PHONES,
    *normalize_codes.RULES,
    *normalize_addresses.RULES,
    *normalize_quarters.RULES,
    *normalize_roman.RULES,
    (re.compile(r"\b\d+(?:\.\d+){2,}\b"), _dotted_numbers),
    *normalize_dates.DATES,
    (
        re.compile(
            r"(?P<article>\b[Aa]n?\s+)?(?:(?:^|(?<=[\s(]))(?P<sign>[-−]))?(?:(?P<symbol>US\$|[$€£¥])|(?P<code>\b(?:USD|EUR|GBP|JPY)\s?))"
            r"(?P<whole>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<fraction>\d{1,2}))?(?!\d)"
            r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|[kKmMB])\b)?"
        ),
        _money,
    ),
    *normalize_magnitudes.RULES,
    (
        re.compile(r"(?<![\w.])(\d{1,3})p\b"),
        lambda match, british: (
            f"{spoken.cardinal(match.group(1), british)} " + ("penny" if match.group(1) == "1" else "pence")
        ),
    ),
    (
        re.compile(
            r"\b((?:ending in|ends in|ending|last four digits|last 4 digits)(?:\s+(?:are|is))?)\s+(\d{4})\b",
            re.IGNORECASE,
        ),
        _card_ending,
    ),
    (
        re.compile(
            r"\b(?P<word>(?i:flight)(?:\s+(?:is|was|number|no\.))?)\s+(?P<airline>[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?(?P<digits>\d{1,4})\b"
        ),
        _flight,
    ),
    (
        re.compile(
            rf"\b(?P<word>(?i:{CODE_WORDS}))(?P<between>(?:\s+(?i:number|no\.|num\.|code|id))?(?:\s+(?:is|was|are))?"
            r"\s*(?:#|:)?\s*)"
            r"(?P<code>(?=[A-Z0-9-]*\d)[A-Z0-9](?:[A-Z0-9-]*[A-Z0-9])?)(?![\w.,]\d)\b"
        ),
        _code,
    ),
    (re.compile(r"#\s?(\d+)\b"), _hash_number),
    (re.compile(r"\bNo\.\s?(?=\d)"), lambda match, british: "number "),
    normalize_dates.DECADES,
    (re.compile(rf"(?<![\w.])([-−]?(?:{_NUMBER}))\s?%"), _percent),
    (
        re.compile(
            rf"(?P<article>\b(?:[Aa]n?|[Oo]ne|[Tt]he)\s+(?=\d))?"
            rf"(?<![\w.])(?P<value>[-−]?(?:{_NUMBER}))\s?(?P<unit>{_UNIT_NAMES})(?![\w/])"
        ),
        _unit,
    ),
    (re.compile(rf"(?<![\w.])(?P<article>)(?P<value>{_NUMBER})\s(?P<unit>m)(?![\w/'’]|\.\w)"), _unit),
    (re.compile(r"\b(\d+)(?:st|nd|rd|th)\b"), _ordinal),
    (
        re.compile(r"\b(\d{1,4})([A-Z])\b"),
        lambda match, british: f"{spoken.cardinal(match.group(1), british)} " + spoken.LETTERS[match.group(2)],
    ),
    (re.compile(r"(?<![\w.,-])(\d+(?:\.\d+)?)\s?[-–]\s?(\d+(?:\.\d+)?)(?![\w.,-]\d|-)"), _range),
    (re.compile(r"(?<![\w/])(\d{1,3})/(\d{1,3})(?![\w/])"), _fraction),
    (re.compile(rf"(?:(?:^|(?<=[\s(]))[-−])?(?<![\w.,])(?:{_NUMBER})(?![\d,]*\d)"), _number),
    *normalize_dates.WEEKDAYS_SAID,
    normalize_addresses.STREET_OR_SAINT,
    normalize_addresses.DRIVE,
    (re.compile(rf"(?<![\w.])(?P<name>{_ABBREVIATION_NAMES})(?![\w])" + _END + _LAST), _abbreviation),
]


def normalize(text: str, language: str = "en-us") -> str:
    """``text`` as it will be said by a voice of ``language``: English by the rules here, Spanish, French,
    Italian and Portuguese numbers by ``normalize_romance``; Hindi and Japanese signs by ``normalize_signs``
    (their readers say their own numbers); Chinese passes through (its reader says numbers and signs)."""
    if not language.startswith("en"):
        return normalize_signs(normalize_romance(text, language), language)
    return apply(RULES, text, language == "en-gb")
