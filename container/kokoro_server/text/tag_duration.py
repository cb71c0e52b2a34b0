"""Durations: how long, written as a lap or a race time ("1:29.708"), in hours and minutes ("2h 45m", "1 hr 20
min"), after a word that times something ("finished in 21:34"), or as a clock's shape whose neighbours make it
how long ("the album is 2:45:10 long"). The rules' order is their registries' (``tag_token.classify``,
``tag_spans``, ``tag_cues_time``).
"""

from __future__ import annotations

import re

from .forms import Duration, Form, Joined, Time
from .span_rule import Reading, cue_word

_TIMED = re.compile(r"(?:(?P<h>\d{1,2}):)?(?P<m>[0-5]?\d):(?P<s>[0-5]\d)\.(?P<f>\d{1,3})")


def timed(core: str) -> Duration | None:
    """ "1:29.708", "2:03:45.2": a clock's shape with parts of a second is how long (a lap, a race), never a time of
    day."""
    if (match := _TIMED.fullmatch(core)) is None:
        return None
    hours = int(match["h"]) if match["h"] else None
    return Duration(hours, int(match["m"]), int(match["s"]), match["f"])


def hours_minutes(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "2h 45m", "1 hr 20 min", "2m 30s": how long, in hours and minutes or minutes and seconds."""
    if match["h"] is None:
        return Duration(None, int(match["mm"]), int(match["s"]))
    return Duration(int(match["h"]), int(match["m"]), 0)


def cued_duration(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    first, second, third = int(match["a"]), int(match["b"]), match["c"]
    if third is None:
        return Joined((cue_word(match, "a", reading.locale), Duration(None, first, second, match["f"])))
    return Joined((cue_word(match, "a", reading.locale), Duration(first, second, int(third), match["f"])))


# Words before a clock's time: after them, "9:15:30" is when ("at 9:15:30"), not how long.
_CLOCK_CUES = frozenset(
    "at from until till til by before after since around about between and to or starts ends opens closes".split()
)


def elapsed(core: str, time: Time, before: str, after: str) -> bool:
    """ "The album is 2:45:10 long", "finished in 1:02:33": hours of one digit, minutes and seconds, no meridiem
    and no clock's cue before it, are how long. A clock with its seconds is written "09:15:30" or "14:30:00"."""
    if time.second is None or time.meridiem is not None or core[1] != ":":
        return False
    return before.lower() not in _CLOCK_CUES and re.match(r"(?i)[ap]\.?m\b|[A-Z]{2,4}T\b|UTC|GMT", after) is None
