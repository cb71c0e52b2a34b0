"""Words that make numbers a date, a time or a duration: after "due", "as of", "until" or a weekday, "6/30" is
June thirtieth ("hasta el 15/3": hasta el quince de marzo); after "at", "alle" or "às", "15.30" is a time; after
"finished in", "took" or "a time of", "21:34" is how long, not when.

A month and a day written "6/30" are a fraction's shape, so only a word that takes a date makes them one; after a
word that takes a fraction as well ("by", "from", "el"), a common fraction stays one ("cut by 1/2"). Each rule
starts at its cue, as every cue rule does, and keeps the cue as written.
"""

from __future__ import annotations

import re

from . import words_english as english
from .forms import Date, Duration, Form, Joined, Range, Said, Time, Word
from .locales import Locale
from .span_rule import Build, Reading, Rule, pattern_rule
from .tag_shapes import month_day

_GAP = r"[ \t\u00a0\u202f]{1,3}"
_MONTH_DAY = r"(?P<a>\d{1,2})/(?P<b>\d{1,2})(?: ?[-–] ?(?P<a2>\d{1,2})/(?P<b2>\d{1,2}))?(?![/\d])"
_DOTTED_TIME = r"(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)"
_NOT_A_PRICE = r"(?!\d|[.,]\d|\s?(?:%|€|\$|£|[kK]?[gmlL]\b|(?i:[ap]\.?m)))"  # nor a time the meridiem reads


def _cue(match: re.Match[str], group: str, locale: Locale) -> Word | Said:
    """What was written before ``group``: the cue, as written, but a weekday's short form ("Mon 6/30")."""
    written = " ".join(match.string[match.start() : match.start(group)].split())
    weekday = locale.weekdays.get(written.rstrip(".,"))
    return Said(weekday + ("," if written.endswith(",") else "")) if weekday else Word(written)


def _card_expiry(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "The card expires 04/28": a card's month and year, as the card prints them (April twenty twenty-eight)."""
    written = match.group().split()[0].lower().rstrip(".,:")
    if written not in _EXPIRES or match["a2"] is not None or len(match["a"]) != 2 or len(match["b"]) != 2:
        return None
    if not 1 <= int(match["a"]) <= 12 or not _card_before(reading, index):
        return None
    century = "19" if int(match["b"]) >= 70 else "20"  # "expired 12/99": a card of 1999
    return Joined((_cue(match, "a", reading.locale), Date(f"{century}{match['b']}", int(match["a"]), None)))


def _card_before(reading: Reading, index: int) -> bool:
    """Whether the card is what expires: named just before the cue, or with only its ending or "on file" between
    ("the card on file expires", "Visa ending in 4821 expires"; not "the gift card promotion expires")."""
    for before in range(index - 1, max(-1, index - 7), -1):
        token = reading.tokens[before]
        if any(mark in token.trail for mark in ".!?"):
            return False
        core = token.core.lower()
        if core in _CARD_WORDS:
            return True
        if core not in _CARD_DETAILS and not re.fullmatch(r"[\d*•x]{2,19}", core):
            return False
    return False


_EXPIRES = frozenset("expires expiring expired exp expiry expiration".split())  # each also a date cue
_CARD_WORDS = frozenset("card cards visa mastercard amex".split())
_CARD_DETAILS = frozenset("on file ending in with number no.".split())  # what may stand between a card and "expires"


def _date(ambiguous: bool) -> Build:
    def build(match: re.Match[str], reading: Reading, index: int) -> Form | None:
        if (expiry := _card_expiry(match, reading, index)) is not None:
            return expiry
        # "from 3/10–3/14": two month-days joined make a range of dates even after a cue that fractions follow
        fraction_follows = ambiguous and (match.group().split()[0].lower() != "by" or _changes(reading, index))
        date = month_day(match["a"], match["b"], reading.locale, fraction_follows and match["a2"] is None)
        if date is None:
            return None
        if match["a2"] is None:
            return Joined((_cue(match, "a", reading.locale), date))
        until = month_day(match["a2"], match["b2"], reading.locale, ambiguous=False)
        return Joined((_cue(match, "a", reading.locale), Range(date, until))) if until is not None else None

    return build


def _changes(reading: Reading, index: int) -> bool:
    """Whether "by" follows a change of an amount ("cut it by 1/2", "multiply by 3/4"): then a fraction follows;
    after anything else "by" sets a deadline ("submit the form by 3/4"). English's "by" only."""
    return any(reading.core(before).lower() in english.CHANGE_WORDS for before in range(max(0, index - 3), index))


def _time(hour: str, minute: str) -> Time:
    value = int(hour)
    return Time(value, int(minute), twenty_four=value > 12 or value == 0 or hour.startswith("0"))


def _dotted_time(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    said = _time(match["h"], match["m"])
    if match["h2"] is None:
        return Joined((_cue(match, "h", reading.locale), said))
    until = _time(match["h2"], match["m2"])
    if match["join"].isalpha():  # "from 9.00 to 17.30": the word between kept as written
        return Joined((_cue(match, "h", reading.locale), said, Word(match["join"]), until))
    return Joined((_cue(match, "h", reading.locale), Range(said, until)))


def _duration(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    first, second, third = int(match["a"]), int(match["b"]), match["c"]
    if third is None:
        return Joined((_cue(match, "a", reading.locale), Duration(None, first, second, match["f"])))
    return Joined((_cue(match, "a", reading.locale), Duration(first, second, int(third), match["f"])))


def time_rules(locale: Locale) -> dict[str, tuple[Rule, ...]]:
    """The rules that start at a word that makes numbers a date, a time or a duration, by the word."""
    habits = locale.habits
    strong, ambiguous = habits.date_cues, habits.ambiguous_date_cues
    dotted, durations = habits.dotted_time_cues, habits.duration_cues
    joins, ranged = habits.time_range_joins, habits.time_range_cues
    if not strong:
        return {}
    rules: dict[str, list[Rule]] = {}

    def add(cues: str, rule: Rule) -> None:
        for cue in cues.split("|"):
            rules.setdefault(cue.split()[0].lower(), []).append(rule)

    # "due 6/30", "Due date:** 1/28" (after markdown's bold); after "is", a common fraction stays one ("the deadline
    # is 6/30", but "Friday is 1/2 price day")
    for cues, is_ambiguous in ((strong, False), (ambiguous, True)):
        add(cues, pattern_rule(rf"(?i:{cues})\.?[,:]?\*{{0,2}}{_GAP}{_MONTH_DAY}", _date(is_ambiguous)))
        if habits.date_after_verb:
            add(cues, pattern_rule(rf"(?i:{cues})\.?{_GAP}(?:is|was|will be){_GAP}{_MONTH_DAY}", _date(True)))
    time_range = rf"(?:{_GAP}(?P<join>{joins}){_GAP}(?P<h2>[01]?\d|2[0-3])\.(?P<m2>[0-5]\d))?"
    add(dotted, pattern_rule(rf"(?i:{dotted}){_GAP}{_DOTTED_TIME}{time_range}{_NOT_A_PRICE}", _dotted_time))
    if ranged:  # "de 9.00 a 14.00": a time only where another follows
        both = time_range.removesuffix("?")
        add(ranged, pattern_rule(rf"(?i:{ranged}){_GAP}{_DOTTED_TIME}{both}{_NOT_A_PRICE}", _dotted_time))
    if durations:
        qualifiers = rf"(?:{_GAP}(?:just|only|about|around|roughly|nearly|almost|exactly|under|over))?"
        add(
            durations,
            pattern_rule(
                rf"(?i:{durations}){qualifiers}{_GAP}(?P<a>\d{{1,2}}):(?P<b>[0-5]\d)(?::(?P<c>[0-5]\d))?"
                rf"(?:\.(?P<f>\d{{1,3}}))?(?!\s{{0,3}}(?i:[ap]\.?m))",
                _duration,
            ),
        )
    return {cue: tuple(found) for cue, found in rules.items()}
