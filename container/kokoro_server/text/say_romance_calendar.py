"""The calendar said in Spanish, French, Italian and Brazilian Portuguese: dates, years, decades, times of day,
durations and the periods of a business year (``say_romance`` says every other class).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from num2words import num2words

from . import words_romance as words
from .forms import Date, Decade, Duration, Number, Period, Time, Year
from .spoken_romance import cardinal, in_feminine, number_words, ordinal_before_noun


def date(form: Date, lang: str) -> str:
    months = words.MONTHS[lang].split()
    if form.month is None:
        return cardinal(form.day or 1, lang) if form.year is None else cardinal(form.year, lang)
    name = months[form.month - 1]
    if form.day is None:
        return f"{name} {words.OF[lang]} {cardinal(form.year, lang)}" if form.year else name
    first = form.day == 1  # "1º de dezembro": primeiro de dezembro; "1 de mayo": primero de mayo
    day = str(num2words(1, lang=lang, to="ordinal")) if first else cardinal(form.day, lang)
    joiner = " de " if lang in ("es", "pt_BR") else " "
    said = f"{day}{joiner}{name}"
    return f"{said}{joiner}{cardinal(form.year, lang)}" if form.year else said


def year(form: Year, lang: str) -> str:
    return cardinal(form.value, lang)  # "'70": setenta


def decade(form: Decade, lang: str) -> str:
    # "1980s" is "los años ochenta", "2000s" "los años dos mil", "2010s" "los años dos mil diez": the decade
    # alone in the twentieth century, as "los años 80" is written and said.
    century = form.century or "19"
    decade = cardinal(form.decade if century == "19" and form.decade != "00" else f"{century}{form.decade}", lang)
    return f"{_DECADES[lang].split()[-1] if form.after_article else _DECADES[lang]} {decade}"


_DECADES = {"es": "los años", "fr": "les années", "it": "gli anni", "pt_BR": "os anos"}


def clock_time(form: Time, lang: str) -> str:
    hours, minutes = form.hour, form.minute or 0
    said = in_feminine(cardinal(hours, lang), lang)  # the hours are feminine: "las veintiuna", "às duas", "une heure"
    # With its seconds a time names its minutes too: "10:30:15", diez y treinta minutos y quince segundos.
    said_minutes = _counted(minutes, "minute", lang) if form.second else cardinal(minutes, lang)
    if lang == "fr":
        said += " heure" if hours == 1 else " heures"
        said = f"{said} {said_minutes}" if minutes else said
    else:
        said = f"{said} {words.TIME_JOIN[lang]} {said_minutes}" if minutes else said
    if form.second:
        said += f" {words.AND[lang]} {_counted(form.second, 'second', lang)}"
    return said


def _counted(count: int, unit: str, lang: str) -> str:
    one, many = words.DURATION_UNITS[lang][unit]
    return one if count == 1 else f"{cardinal(count, lang)} {many}"


def duration(form: Duration, lang: str) -> str:
    """ "2h 45m": dos horas y cuarenta y cinco minutos."""
    parts = []
    for value, unit in ((form.hours or 0, "hour"), (form.minutes, "minute"), (form.seconds, "second")):
        fraction = form.fraction if unit == "second" else None
        if value or fraction:
            one, many = words.DURATION_UNITS[lang][unit]
            count = in_feminine(cardinal(value, lang), lang) if unit == "hour" else cardinal(value, lang)
            if fraction:  # "1:29.708": un minuto y veintinueve coma siete cero ocho segundos
                count = number_words(Number(str(value), fraction), lang)
            parts.append(one if value == 1 and not fraction else f"{count} {many}")  # "duas horas", "veintiuna horas"
    said = f" {words.AND[lang]} ".join(parts) or f"{cardinal(0, lang)} {words.DURATION_UNITS[lang]['second'][1]}"
    return said


def period(form: Period, lang: str) -> str:
    if form.letter == "FY":
        year = form.year or ""
        return f"{words.FISCAL_YEAR[lang]} {cardinal(year if len(year) == 4 else f'20{year}', lang)}"
    noun = words.QUARTER[lang] if form.letter == "Q" else words.HALF[lang]
    said = f"{ordinal_before_noun(form.number or 1, lang)} {noun}"
    if not form.year:
        return said
    year = form.year if len(form.year) == 4 else f"20{form.year}"
    return f"{said}{words.OF_YEAR[lang]} {cardinal(year, lang)}"


READINGS: dict[type, Callable[[Any, str], str]] = {
    Date: date,
    Year: year,
    Decade: decade,
    Time: clock_time,
    Duration: duration,
    Period: period,
}
