"""Words that make numbers a date, a time or a duration: after "due", "as of", "until" or a weekday, "6/30" is
June thirtieth ("hasta el 15/3": hasta el quince de marzo); after "at", "alle" or "às", "15.30" is a time; after
"finished in", "took" or "a time of", "21:34" is how long, not when.

A month and a day written "6/30" are a fraction's shape, so only a word that takes a date makes them one; after a
word that takes a fraction as well ("by", "from", "el"), a common fraction stays one ("cut by 1/2"). Each rule
starts at its cue, as every cue rule does, and keeps the cue as written. What a date's cue reads is
``tag_date``'s.
"""

from __future__ import annotations

from .locales import Locale
from .span_rule import Rule, pattern_rule
from .tag_clock import DOTTED_TIME, dotted_time
from .tag_date import cued_month_day
from .tag_duration import cued_duration

_GAP = r"[ \t\u00a0\u202f]{1,3}"
_MONTH_DAY = r"(?P<a>\d{1,2})/(?P<b>\d{1,2})(?: ?[-–] ?(?P<a2>\d{1,2})/(?P<b2>\d{1,2}))?(?![/\d])"
_NOT_A_PRICE = r"(?!\d|[.,]\d|\s?(?:%|€|\$|£|[kK]?[gmlL]\b|(?i:[ap]\.?m)))"  # nor a time the meridiem reads


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
        add(cues, pattern_rule(rf"(?i:{cues})\.?[,:]?\*{{0,2}}{_GAP}{_MONTH_DAY}", cued_month_day(is_ambiguous)))
        if habits.date_verbs:
            verbs = rf"(?i:{cues})\.?{_GAP}(?:{habits.date_verbs}){_GAP}{_MONTH_DAY}"
            add(cues, pattern_rule(verbs, cued_month_day(True)))
    time_range = rf"(?:{_GAP}(?P<join>{joins}){_GAP}(?P<h2>[01]?\d|2[0-3])\.(?P<m2>[0-5]\d))?"
    add(dotted, pattern_rule(rf"(?i:{dotted}){_GAP}{DOTTED_TIME}{time_range}{_NOT_A_PRICE}", dotted_time))
    if ranged:  # "de 9.00 a 14.00": a time only where another follows
        both = time_range.removesuffix("?")
        add(ranged, pattern_rule(rf"(?i:{ranged}){_GAP}{DOTTED_TIME}{both}{_NOT_A_PRICE}", dotted_time))
    if durations:
        qualifiers = rf"(?:{_GAP}(?:just|only|about|around|roughly|nearly|almost|exactly|under|over))?"
        add(
            durations,
            pattern_rule(
                rf"(?i:{durations}){qualifiers}{_GAP}(?P<a>\d{{1,2}}):(?P<b>[0-5]\d)(?::(?P<c>[0-5]\d))?"
                rf"(?:\.(?P<f>\d{{1,3}}))?(?!\s{{0,3}}(?i:[ap]\.?m))",
                cued_duration,
            ),
        )
    return {cue: tuple(found) for cue, found in rules.items()}
