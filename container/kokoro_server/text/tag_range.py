"""What two sides of a dash make together (``ranged``, ``named_range``): a range of amounts, times, dates,
weekdays or sizes, or nothing where the dash joins a code ("58-1193") rather than two ends."""

from __future__ import annotations

import re
from dataclasses import replace

from .forms import (
    Date,
    Decade,
    Form,
    Fraction,
    Measure,
    Money,
    Number,
    Ordinal,
    Percent,
    Range,
    Said,
    Scaled,
    Signed,
    Time,
    Times,
    Year,
)
from .locales import Locale
from .tag_clock import time_range
from .tag_date import month_day, season

_SLASHED = re.compile(r"(?P<a>\d{1,2})/(?P<b>\d{1,2})")
_DOTTED_LOW = re.compile(r"(?P<h>1[0-2]|0?[1-9])\.(?P<m>[0-5]\d)")  # a time's low side written with a dot


def named_range(low: str, high: str, locale: Locale) -> Form | None:
    """The sides of a dash that are names or times rather than amounts: "Mon–Fri", "M–F", "Jan–Mar", "XS–XL",
    "9.00–17.30", "8a–5p"."""
    first_day, last_day = low.rstrip("."), high.rstrip(".")  # "lun.-ven."
    if first_day in locale.weekdays and last_day in locale.weekdays:
        return Range(Said(locale.weekdays[first_day]), Said(locale.weekdays[last_day]))
    days = locale.weekdays.values()
    if low in days and high in days:
        return Range(Said(low), Said(high))  # "Monday–Friday"
    letters = locale.habits.week_letters
    if low == "M" and high != "M" and low in letters and high in letters:
        return Range(Said(letters[low]), Said(letters[high]))  # "M–F": a week's opening hours
    first, last = low.rstrip("."), high.rstrip(".")
    if first in locale.months and last in locale.months:
        return Range(Date(None, locale.months[first], None), Date(None, locale.months[last], None))
    sizes = locale.habits.sizes
    if low in sizes and high in sizes:
        return Range(Said(sizes[low]), Said(sizes[high]))  # "XS–XL": extra small to extra large
    return time_range(low, high, locale) or _date_range(low, high, locale)


def _date_range(low: str, high: str, locale: Locale) -> Form | None:
    """ "6/1–6/7": two month-days, unless both are common fractions ("1/2–3/4")."""
    first, second = _SLASHED.fullmatch(low), _SLASHED.fullmatch(high)
    if first is None or second is None:
        return None
    start, end = (month_day(side["a"], side["b"], locale) for side in (first, second))
    if start is None or end is None:
        return None
    if all(month_day(side["a"], side["b"], locale, ambiguous=True) is None for side in (first, second)):
        return None
    return Range(start, end)


_GROUPED = re.compile(r"\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+")


def ranged(low: Form, high: Form, written: tuple[str, str] = ("", "")) -> Form | None:
    """The range from ``low`` to ``high``, or ``None`` where two numbers joined by a dash are not one: a
    code ("58-1193") or, with a hyphen, a score read as a code would be ("007-12"). Sides ``written`` in
    groups of thousands ("8,000–10,000") are amounts, never a code."""
    if isinstance(low, Number) and isinstance(high, Number):
        if all(_GROUPED.fullmatch(side) for side in written):
            return Range(low, high)
        if not low.fraction and not high.fraction and not low.negative:
            if all(len(n.whole) == 4 and 1100 <= int(n.whole) <= 2099 for n in (low, high)):
                return Range(Year(low.whole), Year(high.whole))
            if (years := season(low.whole, high.whole)) is not None:
                return years
            if (
                (len(high.whole) - len(low.whole) > 1 and low.whole != "0")
                or len(high.whole) > 4
                or _leading_zero(low)
                or _leading_zero(high)
            ):
                return None  # "58-1193": a code, not a range
        return Range(low, high)
    dotted = _DOTTED_LOW.fullmatch(written[0]) if _DOTTED_LOW.match(written[1]) else None
    if isinstance(high, Time) and high.meridiem and dotted is not None:
        low = Time(int(dotted["h"]), int(dotted["m"]))  # "2.30–3.15pm": both dotted, the meridiem at the end both's
    kinds = (Money, Percent, Measure, Scaled, Time, Date, Ordinal, Number, Signed, Times, Decade, Fraction)
    if isinstance(low, kinds) and isinstance(high, kinds) and not isinstance(high, Signed):
        if isinstance(low, Date) != isinstance(high, Date):
            return None
        if isinstance(low, Time) and isinstance(high, Time) and (low.twenty_four or high.twenty_four):
            low, high = replace(low, twenty_four=True), replace(high, twenty_four=True)  # "10:00–18:00": both 24-hour
        return Range(low, high)
    return None


def _leading_zero(number: Number) -> bool:
    return number.whole.startswith("0") and number.whole != "0"  # "007-12" a code; "0-60" a range
