"""Dates, times, decades and days of the week as people say them: "03/04/2026" is "March fourth, twenty
twenty-six" to an American voice and "the third of April, twenty twenty-six" to a British one; "2:30 pm" is
"two thirty PM", "14:00" "two PM" (British: "fourteen hundred"), "the 1990s" "the nineteen nineties",
"Mon-Fri" "Monday to Friday".
"""

from __future__ import annotations

import re

from . import spoken
from .normalize_rules import SENTENCE_ENDS as _END
from .normalize_rules import Rule
from .normalize_words import MONTHS, WEEKDAYS

_MONTH_NAMES = "(?P<month>" + "|".join(MONTHS) + r"|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?)"


def _month(name: str) -> int:
    return next(i for i, month in enumerate(MONTHS, start=1) if month.lower().startswith(name[:3].lower()))


def _date_words(month: int, day: int, year: str | None, british: bool) -> str:
    name = MONTHS[month - 1]
    said = f"the {spoken.ordinal(day)} of {name}" if british else f"{name} {spoken.ordinal(day)}"
    return f"{said}, {spoken.year(year, british)}" if year else said


def _full_year(text: str) -> str:
    return text if len(text) == 4 else f"20{text}"


def _numeric_date(match: re.Match[str], british: bool) -> str:
    first, second, year = int(match.group(1)), int(match.group(2)), _full_year(match.group(3))
    month, day = (second, first) if british else (first, second)
    if month > 12:  # the written order says otherwise: "25/12/2026" can only be day first
        month, day = day, month
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return match.group()
    return _date_words(month, day, year, british)


def _iso_date(match: re.Match[str], british: bool) -> str:
    year, month, day = match.group(1), int(match.group(2)), int(match.group(3))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return match.group()
    return _date_words(month, day, year, british)


def _month_day(match: re.Match[str], british: bool) -> str:
    month, day, year = _month(match.group("month")), int(match.group("day")), match.group("year")
    if not 1 <= day <= 31:
        return match.group()
    name = MONTHS[month - 1]
    said = f"{name} the {spoken.ordinal(day)}" if british else f"{name} {spoken.ordinal(day)}"
    return f"{said}, {spoken.year(year, british)}" if year else said


def _day_month(match: re.Match[str], british: bool) -> str:
    month, day, year = _month(match.group("month")), int(match.group("day")), match.group("year")
    if not 1 <= day <= 31:
        return match.group()
    return _date_words(month, day, year, True)


def _month_year(match: re.Match[str], british: bool) -> str:
    return f"{MONTHS[_month(match.group('month')) - 1]} {spoken.year(match.group('year'), british)}"


def _year_after(match: re.Match[str], british: bool) -> str:
    return f"{match.group(1)} {spoken.year(match.group(2), british)}"


def _meridiem(match: re.Match[str]) -> str:
    marker = match.group("ampm") or ""
    said = "AM" if marker[:1].lower() == "a" else "PM"
    # "at 2 p.m." ends a sentence with the marker's own dot: keep the full stop.
    return said + "." if marker.endswith(".") and match.group("end") is not None else said


def _clock(hour: int, minute: int, british: bool) -> str:
    if minute == 0:
        return spoken.cardinal(hour, british)
    minutes = spoken.cardinal(minute)
    return f"{spoken.cardinal(hour, british)} {'oh ' + minutes if minute < 10 else minutes}"


def _time(match: re.Match[str], british: bool) -> str:
    hour, minute = int(match.group("hour")), int(match.group("minute") or 0)
    if hour > 23 or minute > 59:
        return match.group()
    if match.group("ampm"):
        return f"{_clock(hour, minute, british)} {_meridiem(match)}"
    if british and (hour >= 13 or match.group("hour").startswith("0")):
        return f"{spoken.cardinal(hour, british)} hundred" if minute == 0 else _clock(hour, minute, british)
    if hour >= 13 or hour == 0:  # a 24-hour time, said on the 12-hour clock
        twelve = hour % 12 or 12
        return f"{_clock(twelve, minute, british)} {'AM' if hour < 12 else 'PM'}"
    return f"{spoken.cardinal(hour, british)} o'clock" if minute == 0 else _clock(hour, minute, british)


def _weekdays(match: re.Match[str], british: bool) -> str:
    def say(part: re.Match[str]) -> str:
        if part.group("day"):
            return WEEKDAYS[part.group("day")]
        between = part.group("between").strip()
        return " to " if between in "-–—" else " and " if between in "&/" else part.group()

    said = _WEEKDAY_PARTS.sub(say, match.group("days"))
    # The abbreviation's dot may also end the sentence: keep a full stop where it does.
    return said + "." if match.group().endswith(".") and match.group("end") is not None else said


def _decade(match: re.Match[str], british: bool) -> str:
    century, decade = match.group("century"), match.group("decade") or match.group("short")
    said = spoken.cardinal(decade, british)
    said = said[:-1] + "ies" if said.endswith("y") else said + "s"
    return f"{spoken.cardinal(century, british)} {said}" if century else said


_WEEKDAY_NAMES = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_DAY = rf"(?:{_WEEKDAY_NAMES})\.?"
_BETWEEN_DAYS = r"\s*(?:[-–—&/,]|to|through|thru|and|or)\s*"
_WEEKDAY_PARTS = re.compile(rf"(?P<day>{_WEEKDAY_NAMES})\.?|(?P<between>\s*[-–—&/]\s*)")

DATES: list[Rule] = [
    (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), _iso_date),
    (re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])"), _numeric_date),
    (
        re.compile(rf"\b{_MONTH_NAMES}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?!:)(?:,?\s+(?P<year>\d{{4}})\b)?"),
        _month_day,
    ),
    (
        re.compile(
            rf"(?:\bthe\s+)?\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_NAMES}(?:,?\s+(?P<year>\d{{4}})\b)?"
        ),
        _day_month,
    ),
    (re.compile(rf"\b{_MONTH_NAMES}\s+(?P<year>\d{{4}})\b"), _month_year),
    (
        re.compile(
            r"\b(in|since|by|until|till|during|from|year|before|after|circa|around)\s+(1[1-9]\d\d|20\d\d)\b(?!\s*%|[-–]\d)",
            re.IGNORECASE,
        ),
        _year_after,
    ),
    (
        re.compile(
            r"(?<![\d:.])(?P<hour>\d{1,2}):(?P<minute>\d{2})(?!\d|:\d)"
            r"(?:\s*(?P<ampm>[ap]\.m\.|[ap]\.m\b|[ap]m\b))?" + _END,
            re.IGNORECASE,
        ),
        _time,
    ),
    (
        re.compile(
            r"(?<![\d:.])(?P<hour>\d{1,2})(?P<minute>)\s*(?P<ampm>[ap]\.m\.|[ap]\.m\b|[ap]m\b)" + _END, re.IGNORECASE
        ),
        _time,
    ),
]
DECADES: Rule = (re.compile(r"(?<![\w.])(?:(?P<century>1[0-9]|20)(?P<decade>[1-9]0)|'?(?P<short>[1-9]0))s\b"), _decade)
WEEKDAYS_SAID: list[Rule] = [
    # A weekday's short form is a day in a range or list of days, or after a word that takes a day ("Sat." alone
    # may be the verb, "Sun." the star).
    (re.compile(rf"(?<![\w.])(?P<days>{_DAY}(?:{_BETWEEN_DAYS}{_DAY})+)(?!\w)" + _END), _weekdays),
    (
        re.compile(
            r"(?:(?<=\b(?:on|by) )|(?<=\b(?:from|till|next|last|this) )|(?<=\b(?:every|until) ))"
            rf"(?P<days>{_DAY})(?!\w)" + _END
        ),
        _weekdays,
    ),
]
