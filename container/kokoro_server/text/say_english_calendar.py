"""The calendar said in American and British English: dates, years, decades, times of day, durations and the
periods of a business year (``say_english`` says every other class).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import spoken
from .forms import Date, Decade, Duration, Period, Time, Year
from .words_english import DURATION_WORDS, MONTHS


def date(form: Date, british: bool) -> str:
    if form.month is None:
        return spoken.ordinal(form.day or 1, british) if form.year is None else spoken.year(form.year, british)
    name = MONTHS[form.month - 1]
    if form.day is None:
        return f"{name} {spoken.year(form.year, british)}" if form.year else name
    day = spoken.ordinal(form.day, british)
    if form.day_first:
        said = f"the {day} of {name}"
    else:
        said = f"{name} the {day}" if british else f"{name} {day}"
    return f"{said}, {spoken.year(form.year, british)}" if form.year else said


def year(form: Year, british: bool) -> str:
    if form.short:  # "'69": sixty-nine, "'05": oh five, "'00": two thousand
        if form.value == "00":
            return "two thousand"
        return f"oh {spoken.DIGITS[int(form.value[1])]}" if form.value[0] == "0" else spoken.cardinal(form.value)
    return spoken.year(form.value, british)


def decade(form: Decade, british: bool) -> str:
    if form.decade == "00":  # "1900s": nineteen hundreds; "2000s": two thousands; "'00s": noughties in Britain
        if form.century is None:
            return "noughties" if british else "two thousands"
        return "two thousands" if form.century == "20" else f"{spoken.cardinal(form.century, british)} hundreds"
    said = spoken.cardinal(form.decade, british)
    said = spoken.plural(said)
    return f"{spoken.cardinal(form.century, british)} {said}" if form.century else said


def _clock(hour: int, minute: int, british: bool) -> str:
    if minute == 0:
        return spoken.cardinal(hour, british)
    minutes = spoken.cardinal(minute)
    return f"{spoken.cardinal(hour, british)} {'oh ' + minutes if minute < 10 else minutes}"


def clock_time(form: Time, british: bool) -> str:
    hour, minute = form.hour, form.minute or 0
    if form.meridiem:
        said = f"{_clock(hour, minute, british)} {form.meridiem.upper()}"
    elif form.hundreds:  # "1500 UTC": fifteen hundred; "0930 hours": oh nine thirty; "0015": zero zero fifteen
        said = f"{spoken.cardinal(hour, british)} hundred" if minute == 0 else _clock(hour, minute, british)
        said = f"oh {said}" if 0 < hour < 10 else f"zero {said}" if hour == 0 and minute else said
    elif british and form.twenty_four:
        said = f"{spoken.cardinal(hour, british)} hundred" if minute == 0 else _clock(hour, minute, british)
    elif form.twenty_four:  # a 24-hour time ("09:00", "18:30"), said on the 12-hour clock
        said = f"{_clock(hour % 12 or 12, minute, british)} {'AM' if hour < 12 else 'PM'}"
    elif minute == 0 and form.minute is not None:
        said = f"{spoken.cardinal(hour, british)} o'clock"
    else:
        said = _clock(hour, minute, british)
    if form.second:
        said += f" and {spoken.cardinal(form.second)} second{'s' if form.second != 1 else ''}"
    return f"{said} {spoken.letters(form.zone)}" if form.zone else said


def duration(form: Duration, british: bool) -> str:
    """ "21:34": twenty-one minutes and thirty-four seconds; "2:05:33": two hours, five minutes and thirty-three
    seconds; "3:59.4": three minutes and fifty-nine point four seconds."""
    parts = []
    for value, unit in ((form.hours or 0, "hour"), (form.minutes, "minute"), (form.seconds, "second")):
        fraction = form.fraction if unit == "second" else None
        if value or (unit == "second" and fraction) or (unit == "minute" and not form.hours and not form.seconds):
            one, many = DURATION_WORDS[unit]
            amount = spoken.decimal(f"{value}.{fraction}", british) if fraction else spoken.cardinal(value, british)
            parts.append(f"{amount} {one if value == 1 and not fraction else many}")
    return ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]


def period(form: Period, british: bool) -> str:
    if form.letter == "FY":
        return f"fiscal year {_year_of(form.year or '', british)}"
    said = f"{form.letter} {spoken.cardinal(form.number or 1)}"
    return f"{said} {_year_of(form.year, british)}" if form.year else said


def _year_of(written: str, british: bool) -> str:
    if written.startswith("FY"):
        return f"fiscal year {_year_of(written[2:].strip(), british)}"
    return spoken.year(written, british) if len(written) == 4 else spoken.paired(written, british)


READINGS: dict[type, Callable[[Any, bool], str]] = {
    Date: date,
    Year: year,
    Decade: decade,
    Time: clock_time,
    Duration: duration,
    Period: period,
}
