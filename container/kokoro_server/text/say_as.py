"""SSML's ``say-as``: text read the way its ``interpret-as`` says, in the voice's language.

Characters, digits and telephone numbers are spelled here, one by one; cardinals and ordinals are said
by num2words where it speaks the language; a date is written in the form the language's normalizer
reads (``normalize``) and then normalized, as are a time and an amount. Chinese, Japanese and Hindi
readers say digits in their own words, so for them numbers stay digits in the forms they read
("2026年12月5日", "第3").
"""

from __future__ import annotations

import calendar
import datetime
import re
import unicodedata
from decimal import Decimal
from typing import NoReturn

from num2words import num2words

from .locales import ROMANCE
from .normalize import normalize
from .spoken import DIGITS, LETTERS, cardinal, ordinal
from .words_romance import MONTHS as ROMANCE_MONTHS
from .words_romance import PLUS as ROMANCE_PLUS
from .words_signs import HINDI_MONTHS, SYMBOLS

HINDI_DIGITS = "शून्य एक दो तीन चार पाँच छह सात आठ नौ".split()
CHINESE_DIGITS = "零一二三四五六七八九"
CURRENCY_CODES = {"USD": "$", "EUR": "€", "GBP": "£", "BRL": "R$", "JPY": "¥", "INR": "₹"}
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_CODE = re.compile(r"\b(USD|EUR|GBP|BRL|JPY|INR)\b")


class SayAsError(ValueError):
    """The text cannot be read as asked: the message says what was expected."""


def say_as(text: str, interpret_as: str, date_format: str | None, language: str) -> str:
    """What a voice of ``language`` says for ``text`` read as ``interpret_as`` (``kokoro_core.ssml.INTERPRET_AS``)."""
    match interpret_as:
        case "characters" | "spell-out" | "verbatim":
            return spelled(text, language)
        case "digits":
            return ", ".join(" ".join(_digit(d, language) for d in group) for group in re.findall(r"\d+", text)) or (
                _cannot_read(interpret_as, text, "digits")
            )
        case "cardinal" | "number":
            return _number(text, language, ordinal_=False)
        case "ordinal":
            return _number(text, language, ordinal_=True)
        case "date":
            return normalize(_date(text, date_format, language), language)
        case "telephone":
            return _telephone(text, language)
        case "currency":
            return normalize(_currency(text), language)
        case _:  # "time": the normalizer reads clock times in every language it normalizes
            return normalize(text, language)


def spelled(text: str, language: str) -> str:
    """Each letter and digit on its own; anything else is a pause between groups."""
    groups = [group for group in re.split(r"[^\w]+|_", text) if group]
    english = language.startswith("en") or language in ("cmn", "ja")  # their readers say Latin letters in English
    return ", ".join(" ".join(_character(c, language, english) for c in group) for group in groups)


def _character(character: str, language: str, english: bool) -> str:
    """A letter by its name, a digit (of any script: "٣", "३") in words, anything else as it is."""
    if (value := unicodedata.decimal(character, None)) is not None:
        return _digit(str(value), language)
    return LETTERS.get(character.upper(), character) if english else character


def _digit(character: str, language: str) -> str:
    digit = int(character)
    if language.startswith("en"):
        return DIGITS[digit]
    if language == "hi":
        return HINDI_DIGITS[digit]
    if language == "cmn":
        return CHINESE_DIGITS[digit]
    return str(num2words(digit, lang=ROMANCE.get(language, "ja")))


def _number(text: str, language: str, ordinal_: bool) -> str:
    plain = text.replace(",", "").replace(" ", "")
    kind = "ordinal" if ordinal_ else "cardinal"
    if (ordinal_ and not plain.isdigit()) or _NUMBER.fullmatch(plain) is None:
        _cannot_read(kind, text, "a whole number such as 42" if ordinal_ else "a number such as 1234 or 3.5")
    if language in ("cmn", "ja", "hi"):  # their readers say numerals: a number stays one
        return f"第{plain}" if ordinal_ and language != "hi" else plain
    british = language == "en-gb"
    if language.startswith("en"):
        if ordinal_:
            return ordinal(plain, british)
        return cardinal(plain, british) if "." not in plain else normalize(plain, language)
    value = Decimal(plain)
    return str(num2words(value if "." in plain else int(value), lang=ROMANCE[language], to=kind))


def _date(text: str, date_format: str | None, language: str) -> str:
    """The date in the written form the language's normalizer reads."""
    tokens = re.findall(r"\d+|[^\W\d_]+", text)
    order = date_format or ("ymd" if tokens and len(tokens[0]) == 4 else "mdy" if language == "en-us" else "dmy")
    if len(tokens) != len(order):
        _cannot_read("date", text, f"{len(order)} parts in the order {order} (format={order!r})")
    parts = dict(zip(order, tokens, strict=True))
    month = _month(parts["m"], text) if "m" in parts else None
    day = int(parts["d"]) if "d" in parts and parts["d"].isdigit() else None
    if "d" in parts and (day is None or not 1 <= day <= 31):
        _cannot_read("date", text, "a day from 1 to 31")
    year = parts.get("y")
    if year is not None and not year.isdigit():
        _cannot_read("date", text, "a year in digits")
    if day and month and year:
        try:
            datetime.date(int(year), month, day)
        except ValueError:
            _cannot_read("date", text, "a date that exists")
    return _written_date(day, month, year, language)


def _month(token: str, text: str) -> int:
    if token.isdigit() and 1 <= int(token) <= 12:
        return int(token)
    names = [name.lower() for name in calendar.month_name[1:]]
    for index, name in enumerate(names, start=1):
        if len(token) >= 3 and name.startswith(token.lower()):
            return index
    _cannot_read("date", text, "a month from 1 to 12, or its English name")


def _written_date(day: int | None, month: int | None, year: str | None, language: str) -> str:
    if language in ("cmn", "ja"):
        return "".join(f"{value}{sign}" for value, sign in ((year, "年"), (month, "月"), (day, "日")) if value)
    if language == "hi":
        return " ".join(str(value) for value in (day, HINDI_MONTHS[month - 1] if month else None, year) if value)
    if language.startswith("en"):
        name = calendar.month_name[month] if month else None
        if language == "en-us":
            head = " ".join(str(value) for value in (name, day) if value)
            return f"{head}, {year}" if head and year and day else " ".join(v for v in (head, year) if v)
        return " ".join(str(value) for value in (day, name, year) if value)
    lang = ROMANCE[language]
    if day and month and year:
        return f"{day}/{month}/{year}"  # as the language writes it, which its normalizer reads
    name = ROMANCE_MONTHS[lang].split()[month - 1] if month else None
    joiner = " de " if lang in ("es", "pt_BR") else " "
    return joiner.join(str(value) for value in (day, name, year) if value)


def _currency(text: str) -> str:
    """An amount with an ISO code ("42.50 USD", "EUR 10") as the normalizer reads it: its sign first."""
    code = _CODE.search(text)
    if code is None:
        return text
    return CURRENCY_CODES[code.group()] + (text[: code.start()] + text[code.end() :]).strip()


def _telephone(text: str, language: str) -> str:
    groups = re.findall(r"\d+", text)
    if not groups:
        _cannot_read("telephone", text, "a number in digits, such as +1 555 010 0199")
    said = ", ".join(" ".join(_digit(d, language) for d in group) for group in groups)
    if text.lstrip().startswith("+"):
        said = f"{_plus(language)} {said}"
    return said


def _plus(language: str) -> str:
    """The plus sign's word in ``language``, from that language's own table."""
    if language in ROMANCE:
        return ROMANCE_PLUS[ROMANCE[language]]
    if language in SYMBOLS:
        return SYMBOLS[language]["+"]
    return "加" if language == "cmn" else "plus"


def _cannot_read(kind: str, text: str, expected: str) -> NoReturn:
    raise SayAsError(f"say-as {kind} cannot read {text[:60]!r}; it reads {expected}")
