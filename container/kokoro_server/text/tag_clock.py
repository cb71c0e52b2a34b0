"""Times of day: every shape a time is written in, as one token ("3:30pm", "14:30", "18h30"), across tokens
("3 p.m.", "9:30 am EST", "7:30 am - 9:45 pm", "10:00PST", "0900 hours"), after a cue ("at 15.30"), and as a
range of hours ("9.00–17.30", "8a–8p"). The rules' order is their registries' (``tag_spans``, ``tag_cues_time``,
``tag_cues_romance``)."""

from __future__ import annotations

import re

from .forms import Duration, Form, Joined, Number, Range, Said, Time, Word
from .locales import Locale
from .span_rule import GAP, Reading, Rule, cue_word, pattern_rule

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
    form = clock_of(match["clock"], reading.locale)
    if not isinstance(form, Time) or form.meridiem is None:
        return None
    return Time(form.hour, form.minute, form.second, form.meridiem, match["zone"])


def _glued_zone(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "10:00PST", "9:30GMT": a clock with its zone typed against it."""
    form = clock_of(match["clock"], reading.locale)
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


_CLOCK_TOKEN = re.compile(
    r"(?P<h>\d{1,2}):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?(?P<ampm>[ap]\.?m\.?)?"
    r"|(?P<h2>\d{1,2})(?:\.(?P<m2>[0-5]\d))?(?P<ampm2>[ap]\.?m\.?)",
    re.IGNORECASE,
)


_HOUR_LETTER = re.compile(r"(?P<h>\d{1,2})h(?P<m>[0-5]\d)?")  # "18h30", "14h": French and Brazilian hours


def clock_of(core: str, locale: Locale) -> Time | None:
    """A time written as one token: "3:30pm", "14:30", "9.30am", and where the language writes it, "18h30"."""
    if (match := _CLOCK_TOKEN.fullmatch(core)) is not None:
        return _clock(match)
    if locale.habits.hour_letter and (match := _HOUR_LETTER.fullmatch(core)) is not None and int(match["h"]) <= 24:
        return Time(int(match["h"]), int(match["m"]) if match["m"] else None)
    return None


def _clock(match: re.Match[str]) -> Time | None:
    hour = int(match["h"] or match["h2"])
    minute = int(match["m"] or match["m2"]) if match["m"] or match["m2"] else None
    ampm = (match["ampm"] or match["ampm2"] or "")[:1].lower()
    if hour > 24 or (ampm and not 1 <= hour <= 12):
        return None
    second = int(match["s"]) if match["s"] else None
    twenty_four = not ampm and _on_a_24_hour_clock(match["h"] or match["h2"])
    return Time(hour, minute, second, ampm + "m" if ampm else None, twenty_four=twenty_four)


def _on_a_24_hour_clock(hour: str) -> bool:
    """Whether an hour written without a meridiem is read on a 24-hour clock: past 12, midnight's 0, or padded
    ("09")."""
    return int(hour) > 12 or int(hour) == 0 or hour.startswith("0")


DOTTED_TIME = r"(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)"


def _time(hour: str, minute: str) -> Time:
    return Time(int(hour), int(minute), twenty_four=_on_a_24_hour_clock(hour))


def dotted_time(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    said = _time(match["h"], match["m"])
    if match["h2"] is None:
        return Joined((cue_word(match, "h", reading.locale), said))
    until = _time(match["h2"], match["m2"])
    if match["join"].isalpha():  # "from 9.00 to 17.30": the word between kept as written
        return Joined((cue_word(match, "h", reading.locale), said, Word(match["join"]), until))
    return Joined((cue_word(match, "h", reading.locale), Range(said, until)))


_HOURS = re.compile(r"(?P<h>[01]?\d|2[0-3])(?:(?P<dot>\.)(?P<m>[0-5]\d)|(?::(?P<cm>[0-5]\d))?(?P<ap>[ap]))")


def time_range(low: str, high: str, locale: Locale) -> Form | None:
    """ "9.00–17.30" (as Britain and Italy write hours), "8a–8p", "8:30a–5p" (as a chat writes them): a range of
    times."""
    first, second = _HOURS.fullmatch(low), _HOURS.fullmatch(high)
    if first is None or second is None or bool(first["ap"]) != bool(second["ap"]):
        return None
    if first["ap"]:
        if not locale.habits.meridiem_ranges or not 1 <= int(first["h"]) <= 12 or not 1 <= int(second["h"]) <= 12:
            return None
        low_time, high_time = (
            Time(int(side["h"]), int(side["cm"] or 0), meridiem=f"{side['ap']}m") for side in (first, second)
        )
        return Range(low_time, high_time)
    hours = int(first["h"]), int(second["h"])
    if not locale.habits.dotted_time_ranges or not ("00" in (first["m"], second["m"]) or max(hours) > 12):
        return None  # "1.50-2.75": two amounts
    low_time, high_time = (Time(int(side["h"]), int(side["m"]), twenty_four=True) for side in (first, second))
    return Range(low_time, high_time)


def hours_glued(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "às 18h30", "a las 7h45": a time after the words a time follows; elsewhere how long ("dura 2h15")."""
    hour, minute = int(match["h"]), int(match["m"])
    before = " ".join(reading.core(i).lower() for i in (index - 2, index - 1) if i >= 0)
    cues = reading.locale.habits.dotted_time_cues  # empty, no word makes it a time
    if cues and re.search(rf"(?:^|\s)(?:{cues})$", before) and hour <= 23:
        return Time(hour, minute)
    return Duration(hour, minute, 0)


def spaced_hour_letter(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    hour = int(match["h"])
    if hour > 24:  # "sous 48 h": how long
        return Duration(hour, 0, 0) if not match["m"] else None
    return Time(hour, int(match["m"]) if match["m"] else None)
