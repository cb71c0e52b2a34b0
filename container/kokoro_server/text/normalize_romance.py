"""Numbers as Spanish, French, Italian and Brazilian Portuguese voices say them, in words, before G2P.

espeak-ng reads "1.500 €" in Spanish as "uno", a pause, "quinientos", euro sign unsaid: it takes the dot
for a sentence's end and does not know the locale's separators. Here, for each language (num2words says
the numbers):

- amounts: ``1.500 €``, ``€ 42,97``, ``$20``, ``R$ 20,50``, ``£5`` (the currency's name, cents too);
- percentages and degrees: ``15 %``, ``2,5%``, ``20 °C``;
- dates, day first: ``12/03/2026``;
- times: ``15:30`` (and French ``15 h 30``);
- ordinals: ``1.º``, ``1º``, ``2.ª`` (es, pt), ``1er``, ``2e`` (fr), ``3°`` (it);
- other numbers, with the language's separators: ``1.500``, ``3,5``, ``1 500`` (fr).

Every pattern has bounded repetition and runs once over the text: linear, whatever it holds. What no
rule says (a number too long to say) stays as written; normalizing twice changes nothing (only digits
and symbols are replaced, by words).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from num2words import num2words

from .normalize_romance_kinds import normalize_romance_kinds
from .normalize_romance_numbers import MAX_DIGITS, number_words, written_value
from .words_romance import CURRENCIES

LANGUAGES = {"es": "es", "fr-fr": "fr", "it": "it", "pt-br": "pt_BR"}  # ours → num2words'

MONTHS = {
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "pt_BR": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
}
JOIN = {"es": "con", "fr": "et", "it": "e", "pt_BR": "e"}  # "42 euros con 97 céntimos"
PERCENT = {"es": "por ciento", "fr": "pour cent", "it": "per cento", "pt_BR": "por cento"}
TIME_JOIN = {"es": "y", "fr": "heures", "it": "e", "pt_BR": "e"}
DEGREES = {"es": "grados", "fr": "degrés", "it": "gradi", "pt_BR": "graus"}
CELSIUS = {"es": "centígrados", "fr": "Celsius", "it": "centigradi", "pt_BR": "Celsius"}

# A number as the locale writes it: "." (or, in French, a space) between thousands, "," before decimals.
_GROUPED = r"\d{1,3}(?:[.\u00a0\u202f ]\d{3}){1,4}"
# A dot before one or two digits is a decimal point, as agents often write it ("3.5"); before three, thousands.
_NUMBER = rf"\d{{1,{MAX_DIGITS}}}\.\d{{1,2}}(?!\d)|(?:{_GROUPED}|\d{{1,{MAX_DIGITS}}})(?:,\d{{1,6}})?"
_SYMBOL = r"R\$|[€$£]"
_AMOUNT = re.compile(rf"(?P<before>{_SYMBOL})\s?(?P<n1>{_NUMBER})|(?P<n2>{_NUMBER})\s?(?P<after>{_SYMBOL})")
_PERCENT = re.compile(rf"(?P<n>{_NUMBER})\s?%")
_DEGREES = re.compile(rf"(?P<n>(?<!\d)-?(?:{_NUMBER}))\s?°(?:\s?(?P<unit>[CF]\b))?")
_DATE = re.compile(r"\b(?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4})\b")
_TIME = re.compile(r"\b(?P<h>[01]?\d|2[0-3])(?::|\s?h\s?)(?P<m>[0-5]\d)\b")
_ORDINAL = re.compile(r"\b(?P<n>\d{1,4})(?:\.?(?P<mark>[ºª]|°(?![CF]))|(?P<fr>er|re|e|ème)\b)")  # not 20°C
_PLAIN = re.compile(rf"(?<![\d,.])(?P<n>{_NUMBER})(?![\d])")


def normalize_romance(text: str, language: str) -> str:
    """``text`` with its numbers in the words of ``language`` (es, fr-fr, it, pt-br); others unchanged."""
    lang = LANGUAGES.get(language)
    if lang is None:
        return text
    text = normalize_romance_kinds(text, lang)
    rules: list[tuple[re.Pattern[str], Callable[[re.Match[str], str], str]]] = [
        (_AMOUNT, _amount),
        (_PERCENT, _percent),
        (_DEGREES, _degrees),
        (_DATE, _date),
        (_TIME, _time),
        (_ORDINAL, _ordinal),
        (_PLAIN, _plain),
    ]
    for pattern, say in rules:
        text = pattern.sub(partial(_said_or_kept, say, lang), text)
    return text


def _said_or_kept(say: Callable[[re.Match[str], str], str], lang: str, match: re.Match[str]) -> str:
    try:
        return say(match, lang)
    except (ArithmeticError, ValueError, KeyError, NotImplementedError, OverflowError):
        return match.group()


def _amount(match: re.Match[str], lang: str) -> str:
    symbol = match["before"] or match["after"]
    value = written_value(match["n1"] or match["n2"])
    one, many, cent, cents = CURRENCIES[lang][symbol]
    whole = int(value)
    hundredths = int((value - whole) * 100)
    said = f"{num2words(whole, lang=lang)} {one if whole == 1 else many}"
    if hundredths:
        said += f" {JOIN[lang]} {num2words(hundredths, lang=lang)} {cent if hundredths == 1 else cents}"
    return said


def _percent(match: re.Match[str], lang: str) -> str:
    return f"{number_words(written_value(match['n']), lang)} {PERCENT[lang]}"


def _degrees(match: re.Match[str], lang: str) -> str:
    written = match["n"]
    if not match["unit"] and re.match(r" [^\W\d_]", match.string[match.end() :]):
        raise ValueError(written)  # "3° posto": an ordinal, not degrees
    said = f"{'menos ' if written.startswith('-') and lang != 'fr' else 'moins ' if written.startswith('-') else ''}"
    said += f"{number_words(written_value(written.lstrip('-')), lang)} {DEGREES[lang]}"
    unit = match["unit"]
    return said + (f" {CELSIUS[lang]}" if unit == "C" else " Fahrenheit" if unit == "F" else "")


def _date(match: re.Match[str], lang: str) -> str:
    day, month, year = int(match["d"]), int(match["m"]), int(match["y"])
    if not (1 <= day <= 31 and 1 <= month <= 12):
        raise ValueError(match.group())
    name = MONTHS[lang].split()[month - 1]
    day_said = num2words(day, lang=lang, to="ordinal") if day == 1 and lang == "fr" else num2words(day, lang=lang)
    if lang in ("es", "pt_BR"):
        return f"{day_said} de {name} de {num2words(year, lang=lang)}"
    return f"{day_said} {name} {num2words(year, lang=lang)}"


def _time(match: re.Match[str], lang: str) -> str:
    hours, minutes = int(match["h"]), int(match["m"])
    said = num2words(hours, lang=lang)
    if lang == "fr":
        said += " heure" if hours == 1 else " heures"
        return f"{said} {num2words(minutes, lang=lang)}" if minutes else said
    return f"{said} {TIME_JOIN[lang]} {num2words(minutes, lang=lang)}" if minutes else said


def _ordinal(match: re.Match[str], lang: str) -> str:
    if match["fr"] and lang != "fr" or match["mark"] and lang == "fr":
        raise ValueError(match.group())  # another language's ordinal mark: left to the next rule
    said = str(num2words(int(match["n"]), lang=lang, to="ordinal"))
    if match["mark"] == "ª" and lang in ("es", "pt_BR"):
        said = said[:-1] + "a" if said.endswith("o") else said
    elif (
        lang == "es"
        and said.endswith(("primero", "tercero"))
        and re.match(r" [a-záéíóúñ]", match.string[match.end() :])
    ):
        said = said[:-1]  # before a noun: "el primer día"
    return said


def _plain(match: re.Match[str], lang: str) -> str:
    written = match["n"]
    if lang != "fr" and re.fullmatch(r"\d{1,3}(?: \d{3})+", written):
        raise ValueError(written)  # spaces group thousands only in French: elsewhere, separate numbers
    return number_words(written_value(written), lang)
