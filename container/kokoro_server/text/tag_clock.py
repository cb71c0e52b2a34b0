"""Times written across tokens: "3 p.m.", "9:30 am EST", "7:30 am - 9:45 pm", "10:00PST", "0900 hours"."""

from __future__ import annotations

import re

from .forms import Form, Joined, Number, Range, Said, Time
from .span_rule import GAP, Reading, Rule, pattern_rule
from .tag_token import classify

# A time zone after a time: "EST", "UTC", and dotted ("c.s.t.", as some type it); an hour's meridiem.
_ZONE = r"(?-i:[A-Z]{1,3}T|UTC|GMT)|[a-zA-Z]\.[a-zA-Z]\.[tT]\.?"
_AMPM = r"[ap]\.m\.|[ap]\.m|[ap]m"
_CLOCK = r"\d{1,2}(?:[:.][0-5]\d)?(?::[0-5]\d)?"  # "9:30:00 a.m.": seconds too


def _clock_meridiem(side: int) -> str:
    return rf"(?P<clock{side}>{_CLOCK})(?:{GAP})?(?P<ampm{side}>{_AMPM})"


def _meridiem_range(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "7:30 am - 9:45 pm", "9 a.m. – 5 p.m.": two times, each with its meridiem, a dash apart."""
    low, high = (
        _clock_time(match["clock1"], match["ampm1"]),
        _clock_time(match["clock2"], match["ampm2"], match["zone"]),
    )
    return Range(low, high) if low is not None and high is not None else None


def _meridiem(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return _clock_time(match["clock"], match["ampm"], match["zone"])


def _clock_time(clock: str, ampm: str, zone: str | None = None) -> Time | None:
    hour, _, rest = clock.replace(".", ":", 1).partition(":")  # "1.59 p.m.", as Britain writes it
    minute, _, second = rest.partition(":")
    if not hour.isdigit() or not 1 <= int(hour) <= 12 or (minute and not (minute.isdigit() and int(minute) < 60)):
        return None
    meridiem = "am" if ampm.lower().startswith("a") else "pm"
    zone = zone.replace(".", "").upper() if zone else None
    return Time(int(hour), int(minute) if minute else None, int(second) if second else None, meridiem, zone)


def _zone(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    form = classify(match["clock"], reading.locale)
    if not isinstance(form, Time) or form.meridiem is None:
        return None
    return Time(form.hour, form.minute, form.second, form.meridiem, match["zone"])


def _glued_zone(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "10:00PST", "9:30GMT": a clock with its zone typed against it."""
    form = classify(match["clock"], reading.locale)
    if not isinstance(form, Time):
        return None
    return Time(form.hour, form.minute, form.second, form.meridiem, match["zone"])


_TIME_CUES = frozenset("at by until till from to before after since around".split())


def _hours_written(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "0900 hours", "at 1430 hrs", "1800 UTC", "starts at 0800": a 24-hour time in four digits, said as written
    ("oh nine hundred"). "1200 hours" alone may be how long, so without a zone it is a time only with a leading zero
    or after a word that a time follows; and without "hours" either, only with both ("at 0800"; not "PIN to 0512",
    nor "0800 1111", a number)."""
    cue = reading.core(index - 1).lower()
    if match["zone"] is None and not match["h"].startswith("0") and cue not in _TIME_CUES:
        return None
    if match["zone"] is None and match["hours"] is None:
        if not (match["h"].startswith("0") and cue in reading.locale.habits.hour_cues):
            return None
    time = Time(int(match["h"]), int(match["m"]), zone=match["zone"], twenty_four=True, hundreds=True)
    return Joined((time, Said("hours"))) if match["hours"] else time


_NAMED = r"(?P<named>(?i:noon|midnight))"


def _to_named(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "10 a.m.–noon": a time to noon or midnight."""
    low = _clock_time(match["clock1"], match["ampm1"])
    return Range(low, Said(match["named"])) if low is not None else None


def _from_named(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "noon–2 p.m.", "noon-3": from noon or midnight to a time (an hour alone after noon is the afternoon's)."""
    high = _clock_time(match["clock2"], match["ampm2"], match["zone"]) if match["ampm2"] else None
    if high is None and not (match["clock2"].isdigit() and 1 <= int(match["clock2"]) <= 12):
        return None
    return Range(Said(match["named"]), high or Number(match["clock2"]))


def named_time_rules() -> dict[str, tuple[Rule, ...]]:
    """English's ranges that start at noon or midnight, by their first word."""
    rule = pattern_rule(
        rf"{_NAMED}(?:{GAP})?[-–—](?:{GAP})?(?P<clock2>{_CLOCK})(?:(?:{GAP})?(?P<ampm2>{_AMPM}))?"
        rf"(?:{GAP}(?P<zone>{_ZONE}))?",
        _from_named,
        flags=re.IGNORECASE,
    )
    return {"noon": (rule,), "midnight": (rule,)}


def clock_rules() -> tuple[Rule, ...]:
    """The rules of a time with its meridiem or zone, tried at a token with a digit."""
    return (
        pattern_rule(rf"{_clock_meridiem(1)}(?:{GAP})?[-–—](?:{GAP})?{_NAMED}", _to_named, flags=re.IGNORECASE),
        pattern_rule(
            rf"{_clock_meridiem(1)}(?:{GAP})?[-–—](?:{GAP})?{_clock_meridiem(2)}(?:{GAP}(?P<zone>{_ZONE}))?",
            _meridiem_range,
            flags=re.IGNORECASE,
        ),
        pattern_rule(
            rf"(?P<clock>{_CLOCK})(?:{GAP})?(?P<ampm>{_AMPM})(?:{GAP}(?P<zone>{_ZONE}))?",
            _meridiem,
            flags=re.IGNORECASE,
        ),
        pattern_rule(rf"(?P<clock>\S{{3,12}}?){GAP}(?P<zone>[A-Z]{{1,3}}T|UTC|GMT)", _zone),
        pattern_rule(r"(?P<clock>\d{1,2}:[0-5]\d)(?P<zone>[A-Z]{1,3}T|UTC|GMT)\b", _glued_zone),
        pattern_rule(
            rf"(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)(?:{GAP}(?:(?P<hours>hours|hrs)\b\.?(?!{GAP}of\b)|(?P<zone>UTC|GMT)\b)"
            rf"|(?![\w:/-]|[.,]\d|{GAP}\d))",
            _hours_written,
        ),
    )
