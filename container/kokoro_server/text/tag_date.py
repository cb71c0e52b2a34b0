"""Dates, years and decades: every shape a date is written in ("2024-03-07", "03.04.2026", "1980s", "'69"),
the spans around a month's name ("14 February 2026", "March 3rd", "the 3rd of March"), and the cue words that
make numbers one ("due 6/30", "the card expires 04/28"). The rules' order is their registries' (``tag_spans``,
``tag_cues``, ``tag_cues_time``).
"""

from __future__ import annotations

import calendar
import math
import re

from .forms import Date, Decade, Form, Joined, Range, Said, Time, Word, Year
from .locales import Locale
from .span_rule import Build, Reading, cue_word

_ISO_DATE = re.compile(r"(?P<y>\d{4})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})")


_ISO_MOMENT = re.compile(
    r"(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)T(?P<hh>\d\d):(?P<mm>[0-5]\d)(?::[0-5]\d(?:\.\d{1,6})?)?(?:Z|[+-]\d\d:?\d\d)?"
)


# "Mar-09-2031", as forms write it; not "Oct-22", which may be a month of 2022
_NAMED_MONTH_DATE = re.compile(r"(?P<month>[A-Za-z]{3,9})\.?-(?P<d>\d{1,2})-(?P<y>\d{4})")


_NUMERIC_DATE = re.compile(r"(?P<a>\d{1,2})(?P<sep>[-/.])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|(?<=/)\d{2})")


# "1980s", "1980's", "80s", "'90s", "’90's"; a year of two digits after an apostrophe ("'69", "class of '98").
_DECADE = re.compile(r"(?P<century>1\d|20)?(?P<decade>\d0)['’]?s|['’](?P<short>\d0)['’]?s")


_SHORT_YEAR = re.compile(r"['’](?P<year>\d\d)")


def dated(core: str, locale: Locale) -> Form | None:
    """A date written in numbers ("2024-03-07", "15-01-2020", "31.12.1990", "1/5/26"), or a decade."""
    if (match := _ISO_DATE.fullmatch(core)) is not None:
        return _date(match["y"], int(match["m"]), int(match["d"]), day_first=locale.day_first)
    if (match := _ISO_MOMENT.fullmatch(core)) is not None:  # "2025-03-14T17:00Z", as systems write a moment
        moment_day = _date(match["y"], int(match["m"]), int(match["d"]), day_first=locale.day_first)
        hour, minute = int(match["hh"]), int(match["mm"])
        if moment_day is None or hour > 23:
            return None
        at = (Said(locale.habits.moment_word),) if locale.habits.moment_word else ()
        return Joined((moment_day, *at, Time(hour, minute, twenty_four=True)))
    if (match := _NUMERIC_DATE.fullmatch(core)) is not None:
        first, second = int(match["a"]), int(match["b"])
        # Dots are how Europe writes a date, day first ("03.04.2026" in Berlin is April 3rd), whatever the voice
        month, day = (second, first) if locale.day_first or match["sep"] == "." else (first, second)
        if month > 12:  # the written order says otherwise: "25/12/2026" can only be day first
            month, day = day, month
        year = match["y"] if len(match["y"]) == 4 else _century(match["y"]) + match["y"]
        return _date(year, month, day, day_first=locale.day_first)
    if (match := _NAMED_MONTH_DATE.fullmatch(core)) is not None and match["month"] in locale.months:
        return _date(match["y"], locale.months[match["month"]], int(match["d"]), day_first=locale.day_first)
    if (match := _DECADE.fullmatch(core)) is not None:
        return Decade(match["decade"] or match["short"], match["century"])
    if (match := _SHORT_YEAR.fullmatch(core)) is not None:
        return Year(match["year"], short=True)
    return None


def season(low: str, high: str) -> Range | None:
    """A span of years whose end keeps only its last two digits ("1998-99", "2023/24", "1939-45")."""
    if len(low) != 4 or len(high) != 2 or not 1100 <= int(low) <= 2099:
        return None
    if int(high) > int(low[2:]) or (low[2:], high) == ("99", "00"):
        return Range(Year(low), Year(high))
    return None


def _century(short_year: str) -> str:
    """The century of a year written in two digits, as POSIX reads them: "03/12/87" is 1987, "1/5/26" 2026."""
    return "19" if int(short_year) >= 69 else "20"


_FRACTION_BOTTOMS = frozenset({2, 3, 4, 5, 6, 8, 10, 12, 16, 32, 64, 100})


def month_day(first: str, second: str, locale: Locale, ambiguous: bool = False) -> Date | None:
    """A month and a day written "6/30" (day first where the locale writes it so), or ``None``. ``ambiguous``:
    a common fraction in its lowest terms ("1/2", "3/4", "7/10") stays one; "5/10" and "6/12" are dates, since
    nobody writes a fraction so."""
    a, b = int(first), int(second)
    month, day = (b, a) if locale.day_first else (a, b)
    if ambiguous and a < b and b in _FRACTION_BOTTOMS and math.gcd(a, b) == 1:
        return None
    return _date("", month, day, day_first=locale.day_first)


def _date(year: str, month: int, day: int, day_first: bool = False) -> Date | None:
    leap = 2024  # a year not written: February may have its 29th
    if not (1 <= month <= 12 and 1 <= day <= calendar.monthrange(int(year or leap) or 2000, month)[1]):
        return None
    return Date(year or None, month, day, day_first=day_first)


def day_named_month(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "14 February 2026", "1st March 1985", "the 3rd of March", "12 Jan 2026"."""
    written = match["month"].rstrip(".")
    month = reading.locale.months.get(written) or reading.locale.months.get(written.capitalize())
    day = int(match["day"])
    if month is None or not 1 <= day <= 31:
        return None
    if match.groupdict().get("to"):  # "12–16 Jan": the twelfth to the sixteenth of January
        last = int(match["to"])
        if not day < last <= 31:
            return None
        if reading.core(index - 1).lower() in _NUMBERED_NOUNS:
            return None  # "ages 12-16 May apply", "room 12-16 Jun": numbers of what the word names
        first: Form = Date(None, None, day)
        article = reading.locale.habits.day_article
        if article and reading.core(index - 1).lower() != article:
            first = Joined((Said(article), first))
        return Range(first, Date(match["year"], month, last, day_first=True))
    return Date(match["year"], month, day, day_first=True)


# Words whose numbers a day range's shape may take: "ages 12-16", "room 12-16", "pages 12-16".
_NUMBERED_NOUNS = frozenset(
    "age ages aged room rooms page pages grade grades size sizes level levels row rows seat seats chapter chapters"
    " step steps item items kids children".split()
)


def year_after_word(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Word(match["word"]), Year(match["year"])))


def named_month_day(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "March 3rd", "Jan. 15, 2024", "Sept 1", "March 2026": a month's name, then its day or its year."""
    month = reading.locale.months[match["month"].rstrip(".").capitalize()]  # "july 25 2012", as typed
    if match["day"] is None:
        return Date(match["year"], month, None)
    day = int(match["day"])
    if not 1 <= day <= 31:
        return None
    if match.groupdict().get("month2"):  # "Nov 28 – Dec 1": both dates whole
        last_day = int(match["day2"])
        last_month = reading.locale.months[match["month2"].rstrip(".").capitalize()]
        return Range(Date(None, month, day), Date(match["year"], last_month, last_day)) if last_day <= 31 else None
    if match["to"]:  # "May 3–7, 2026": the third to the seventh, then the year
        last: Form = Date(None, None, int(match["to"]))
        return Range(Date(None, month, day), Joined((last, Year(match["year"]))) if match["year"] else last)
    return Date(match["year"], month, day)


def day_of_named_month(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "the 3rd of March": a day, then its month's name."""
    day = int(match["day"])
    if not 1 <= day <= 31:
        return None
    return Date(match["year"], reading.locale.months[match["month"].rstrip(".").capitalize()], day, day_first=True)


def named_month_or_year(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "Oct. 23", "March 3–5, 2025": a day of the month; "Oct 2023", "Oct. '23": a month of a year."""
    if match["year2"] is None:
        return named_month_day(match, reading, index)
    month = reading.locale.months[match["month"].rstrip(".").capitalize()]
    if match["year2"].isdigit():
        return Date(match["year2"], month, None)
    return Joined((Date(None, month, None), Year(match["year2"][1:], short=True)))


def _card_expiry(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "The card expires 04/28": a card's month and year, as the card prints them (April twenty twenty-eight)."""
    written = match.group().split()[0].lower().rstrip(".,:")
    if written not in _EXPIRES or match["a2"] is not None or len(match["a"]) != 2 or len(match["b"]) != 2:
        return None
    if not 1 <= int(match["a"]) <= 12 or not _card_before(reading, index):
        return None
    century = "19" if int(match["b"]) >= 70 else "20"  # "expired 12/99": a card of 1999
    return Joined((cue_word(match, "a", reading.locale), Date(f"{century}{match['b']}", int(match["a"]), None)))


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


def cued_month_day(ambiguous: bool) -> Build:
    def build(match: re.Match[str], reading: Reading, index: int) -> Form | None:
        if (expiry := _card_expiry(match, reading, index)) is not None:
            return expiry
        # "from 3/10–3/14": two month-days joined make a range of dates even after a cue that fractions follow
        changes = reading.locale.habits.fraction_after.get(match.group().split()[0].lower())
        fraction_follows = ambiguous and (changes is None or _changed(reading, index, changes))
        date = month_day(match["a"], match["b"], reading.locale, fraction_follows and match["a2"] is None)
        if date is None:
            return None
        if match["a2"] is None:
            return Joined((cue_word(match, "a", reading.locale), date))
        until = month_day(match["a2"], match["b2"], reading.locale, ambiguous=False)
        return Joined((cue_word(match, "a", reading.locale), Range(date, until))) if until is not None else None

    return build


def _changed(reading: Reading, index: int, changes: frozenset[str]) -> bool:
    """Whether the cue follows a change of an amount ("cut it by 1/2", "multiply by 3/4"): then a fraction follows;
    after anything else, "by" sets a deadline ("submit the form by 3/4")."""
    return any(reading.core(before).lower() in changes for before in range(max(0, index - 3), index))
