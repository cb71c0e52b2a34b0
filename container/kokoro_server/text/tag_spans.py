"""Forms written across several tokens: "(415) 555-0134", "3 p.m.", "2.5 kg", "12,99 €", "$4.5 million",
"2 3/4", "5 – 12", "14 February 2026", "Q4 2025".

Each rule is a pattern tried at a token (``span_rule``); each pattern has bounded repetition,
and each is tried only at tokens that can start it (a digit, a sign, or one of its words: ``Rules``), so a
text costs time in proportion to its length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .forms import (
    VULGAR,
    Dimensions,
    Form,
    Fraction,
    Joined,
    Measure,
    Number,
    Per,
    Percent,
    Period,
    Power,
    Range,
    Said,
    Scaled,
    Signed,
    Telephone,
    Word,
    vulgar,
)
from .locales import Locale
from .span_rule import GAP, Reading, Rule, pattern_rule
from .tag_clock import clock_rules
from .tag_date import day_named_month, month_day
from .tag_duration import hours_minutes
from .tag_math import SUPERSCRIPTS, arithmetic
from .tag_quantity import quantity, read_number
from .tag_range import named_range, ranged
from .tag_telephone import PHONE, spaced_phone
from .tag_token import classify
from .words_english import AMOUNT_NOUNS, COMPASS, CUP, DETERMINERS


def number_in(written: str, reading: Reading) -> Number | None:
    return read_number(re.sub(r"[ \u00a0\u202f]", "", written), reading.locale)


def _glued_phone(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """A number read whole as a telephone number ("1-800-555-0199"), then its extension."""
    form = classify(match["number"], reading.locale)
    if not isinstance(form, Telephone) or not match["ext"]:
        return None
    return Telephone(form.groups, form.plus, match["ext"])


def per_after(form: Form, match: re.Match[str], reading: Reading) -> Form | None:
    """``form`` per what is written after its "/" ("12,99 €/mes", "4,5 %/año"), where the match has one."""
    written = match.groupdict().get("per")
    if not written:
        return form
    per = reading.locale.per(written)
    return Per(form, per) if per else None


def _percent(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    amount = quantity(match["n"], reading.locale) or classify(match["n"], reading.locale)
    if isinstance(amount, Range) and isinstance(amount.high, Number):  # "10-20 %"
        return per_after(Range(amount.low, Percent(amount.high)), match, reading)
    return per_after(Percent(amount), match, reading) if isinstance(amount, Number) else None


def _percent_range(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "5 %-8 %", "5 % – 8 %": two percentages, written apart from their sign."""
    low, high = number_in(match["low"], reading), number_in(match["high"], reading)
    return Range(Percent(low), Percent(high)) if low is not None and high is not None else None


def spaced_measure(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "2.5 kg", "70 Kg", "5 mg/kg", "3-5 GB", "20 °C", "25 m": a quantity, then its unit."""
    locale = reading.locale
    written_unit, per = match["unit"], None
    unit = locale.unit(written_unit) or locale.spaced_units.get(written_unit)
    if unit is None and "/" in written_unit:
        written_unit, _, written_per = written_unit.partition("/")
        unit = locale.unit(written_unit)
        per = locale.per(written_per)
        if per is None:
            return None
    if unit is None:
        return None
    if (scale := match.groupdict().get("scale")) and (number := number_in(match["n"], reading)) is not None:
        return _measured(Scaled(number, locale.scales[scale]), unit, per, False)
    whole, _, part = match["n"].rpartition(" ")
    part = VULGAR.get(part, part)  # "1 ¾ cups"
    mixed = re.fullmatch(r"(?P<top>\d{1,2})/(?P<bottom>\d{1,2})", part) if whole.strip().isdigit() else None
    if mixed is not None and 0 < int(mixed["top"]) < int(mixed["bottom"]):  # "1 1/2 tsp": one and a half
        amount: Form | None = Fraction(mixed["top"], mixed["bottom"], whole.strip())
    elif not whole and match["n"] in VULGAR:  # "¾ tsp"
        amount = Fraction(*part.split("/"))
    else:
        grouped = locale.habits.spaced_thousands and re.fullmatch(_SPACED_GROUPS, match["n"])  # "30 000 km"
        amount = (
            number_in(match["n"], reading) if grouped else quantity(match["n"], locale) or classify(match["n"], locale)
        )
    if isinstance(amount, Signed):  # "~5 min": about five minutes
        inner = _measured(amount.what, unit, per, False)
        return Signed(amount.sign, inner) if inner is not None else None
    modifier = _describes(match, reading, index) and not isinstance(amount, Power)
    return _measured(amount, unit, per, modifier)


def _describes(match: re.Match[str], reading: Reading, index: int) -> bool:
    """Whether a measure describes the noun after it: "a 5 km run", "the 5 km race" (not "the 5 km.")."""
    before = reading.core(index - 1).lower()
    following = match.string[match.end() : match.end() + 24].split()
    named = bool(following) and following[0].lower().rstrip(".,;:!?") in AMOUNT_NOUNS
    return before in ("a", "an", "one") or (before in DETERMINERS and named)


def _measured(amount: Form | None, unit: str, per: str | None, modifier: bool) -> Form | None:
    measured: Form
    if isinstance(amount, Range) and isinstance(amount.high, Number):
        measured = Range(amount.low, Measure(amount.high, unit))
    elif isinstance(amount, (Number, Fraction, Scaled, Power)):
        measured = Measure(amount, unit, before_noun=modifier and per is None)
    else:
        return None
    return Per(measured, per) if per else measured


def _mixed_fraction(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    if match["vulgar"]:
        vulgar_top, vulgar_bottom = VULGAR[match["vulgar"]].split("/")
        return Fraction(vulgar_top, vulgar_bottom, match["whole"])  # "1 ¾ cups"
    top, bottom = int(match["top"]), int(match["bottom"])
    if not 0 < top < bottom:
        return None
    return Fraction(match["top"], match["bottom"], match["whole"])


_ROOMS = (
    rf"(?P<beds>\d{{1,2}})(?:{GAP})?(?:bd|br|bed|beds|bdrm)\s?/\s?"
    rf"(?P<baths>\d{{1,2}}(?:\.5)?)(?:{GAP})?(?:ba|bath|baths)\b"
)


def _rooms(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    whole, _, half = match["baths"].partition(".")
    return Joined((Measure(Number(match["beds"]), "bd"), Measure(Number(whole, half or None), "ba")))


def _spaced_range(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    if (named := named_range(match["low"], match["high"], reading.locale)) is not None:
        return named  # "6/1 – 6/7"
    low, high = quantity(match["low"], reading.locale), quantity(match["high"], reading.locale)
    if low is None or high is None:
        return None
    return ranged(low, high, (match["low"], match["high"]))


_SIDE = re.compile(r"(?P<n>\d{1,5}(?:[.,]\d{1,2})?)\s*(?P<unit>[^\W\d_]+[23²³]?)?")  # "4 ft2": square feet
_LENGTHS = {"in": "″", "inch": "″", "inches": "″", "ft": "′", "foot": "′", "feet": "′"}


def _spaced_dimensions(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "5 x 7", "22 x 14 x 9 in", "12m x 8m", "10 ft × 10 ft × 8 ft": a size, in one unit or none; "2x4s" is
    boards of a size (``shaped``), not seconds."""
    if re.fullmatch(r"[\d.,x×]+s\.?", match.group()):
        return None
    sides, units = [], set()
    for side in _SIDE.finditer(re.sub(r"(?<=[\d\s])[x×](?=[\s\d])", "  ", match.group())):
        number = number_in(side["n"], reading)
        if number is None or number.negative:
            return None
        sides.append(number)
        if side["unit"] and side["unit"] != "x":
            units.add(_LENGTHS.get(side["unit"].lower()) or reading.locale.unit(side["unit"]) or side["unit"])
    if len(units) > 1 or any(
        unit not in reading.locale.units and unit not in reading.locale.spaced_units for unit in units
    ):
        return None
    unit = next(iter(units), None)
    return Dimensions(tuple(sides), unit, before_noun=unit is not None and _describes(match, reading, index))


def _period_year(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "Q4 2025", "H1 2026", "1Q 2026", "FY 2026": a period, then its year."""
    written = match["period"]
    if written == "FY":
        return Period("FY", None, match["year"])
    letter, number = (written[1], written[0]) if written[0].isdigit() else (written[0], written[1])
    return Period(letter, int(number), match["year"])


def _spaced_thousands(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "1 500", "12 000 000": thousands grouped with a space, as French groups them."""
    return number_in(match["n"], reading)


@dataclass(frozen=True)
class Rules:
    """A language's span rules: those tried at a token with a digit or a sign, and those tried at a word."""

    numeric: tuple[Rule, ...]
    words: dict[str, tuple[Rule, ...]]  # by the word, in lower case, that starts them


def _coordinate(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    number = read_number(match["n"], reading.locale)
    if number is None or not reading.locale.habits.coordinates:
        return None
    return Joined((Measure(number, "°"), Said(COMPASS[match["point"]].lower())))


def numeric_rules(locale: Locale, money: tuple[Rule, ...], own: tuple[Rule, ...] = ()) -> tuple[Rule, ...]:
    """The rules whose span starts at a number or a sign: telephone numbers, amounts (``money``, the language's
    rules of money written apart: ``tag_money``), measures, times..., then the language's ``own``
    (``english_spans``)."""
    units = units_pattern(locale)
    written = set(locale.months)
    if locale.habits.cased_months:  # "25 july 2012", "5 DEC", as people type them; not "may", mostly a verb
        written |= {month.lower() for month in locale.months if month != "May"} | {m.upper() for m in locale.months}
    months = "|".join(re.escape(month) for month in sorted(written, key=len, reverse=True)) or "(?!)"
    cased = 0 if locale.habits.cased_months else re.IGNORECASE
    number = number_pattern(locale)
    side = r"\d{1,5}(?:[.,]\d{1,2})?"
    lengths = r"(?:inches|inch|in|feet|foot|ft|cm|mm|km|m|yd|meters|metres)\b"
    vulgar = f"[{''.join(VULGAR)}]"
    mixed = rf"\d{{1,3}}(?:{GAP}(?:\d{{1,2}}/\d{{1,2}}|{vulgar})|{vulgar})"  # "1 1/2 tsp", "1 ¾ cups", "1½ hrs"
    # "10+ hrs": a lower bound, its unit after the sign
    value = rf"{QUALIFIER}?(?:{mixed}|{number}(?:[-–—]{number})?|{number}\+|\d{{1,3}}/\d{{1,3}}|[½⅓⅔¼¾⅛])"
    rules: list[Rule] = [
        pattern_rule(  # "5 - 3 = 2": a sum written apart
            r"(?P<sum>\d{1,7}(?: [-−+*×x/÷] \d{1,7}){1,4} = \d{1,9})", lambda m, r, i: arithmetic(m["sum"], r.locale)
        ),
        pattern_rule(PHONE, spaced_phone, opens="("),
        pattern_rule(
            r"(?P<number>[+\d][\d().-]{6,20}),?\s{0,2}(?:x|ext\.?|extension)\s{0,2}(?P<ext>\d{1,6})", _glued_phone
        ),
        *clock_rules(),
        *money,
        # "40.7° N", "74°W": a latitude or longitude, its compass point said in full
        pattern_rule(rf"(?P<n>\d{{1,3}}(?:[.,]\d{{1,6}})?)°(?:{GAP})?(?P<point>[NSEW])\b", _coordinate),
        pattern_rule(rf"(?P<n>{number}(?:[-–—]{number})?){GAP}%(?:/(?P<per>\w{{1,10}}))?", _percent),
        pattern_rule(
            rf"(?P<low>{number})(?:{GAP})?%(?:{GAP})?[-–—](?:{GAP})?(?P<high>{number})(?:{GAP})?%", _percent_range
        ),
        pattern_rule(
            rf"(?:(?P<h>\d{{1,2}})(?:{GAP})?(?:h|hr|hrs|hours?)\.?(?:{GAP})?(?P<m>[0-5]?\d)(?:{GAP})?(?:m|min|mins|minutes?)\b\.?"
            rf"|(?P<mm>\d{{1,3}})(?:{GAP})?(?:m|min|mins)\.?{GAP}(?P<s>[0-5]?\d)(?:{GAP})?(?:s|sec|secs)\b\.?)",
            hours_minutes,
        ),
        # "3 x 250ml", "2 x 500 g", "3x4 ft2": a count or a size, then the unit of its last side
        pattern_rule(rf"{side}(?:{GAP})?[x×](?:{GAP})?{side}(?:{GAP})?(?:{units})\b\.?", _spaced_dimensions),
        pattern_rule(rf"{side}(?:{GAP}[x×]{GAP}{side}){{1,2}}(?:(?:{GAP})?{lengths}\.?)?", _spaced_dimensions),
        pattern_rule(
            rf"{side}(?:{GAP})?{lengths}(?:(?:{GAP})?[x×](?:{GAP})?{side}(?:{GAP})?{lengths}){{1,2}}\.?",
            _spaced_dimensions,
        ),
        pattern_rule(  # "150 million km", "3 millones de km": a magnitude, then its unit
            rf"(?P<n>{number}){GAP}(?P<scale>{scale_words(locale)}){GAP}(?:(?:de|di){GAP})?(?P<unit>(?:{units})(?:/\w{{1,6}})?)\.?",
            spaced_measure,
        ),
        pattern_rule(rf"(?P<n>{value}){GAP}(?P<unit>(?:{units})(?:/\w{{1,6}})?)\.?", spaced_measure),
        pattern_rule(  # "10⁸ m/s", "6.02×10^23 mol", "1.5e-6 s": a power of ten, then its unit
            rf"(?P<n>(?:\d{{1,7}}(?:[.,]\d{{1,4}})?[×x·*])?\d{{1,7}}(?:[.,]\d{{1,4}})?(?:\^[-−]?\d{{1,3}}|[⁻⁺]?[{SUPERSCRIPTS}]{{1,3}})"
            rf"|\d{{1,3}}(?:\.\d{{1,6}})?[eE][-+−]?\d{{1,3}})"
            rf"{GAP}(?P<unit>(?:{units})(?:/\w{{1,6}})?)\.?",
            spaced_measure,
        ),
        pattern_rule(
            rf"(?P<whole>\d{{1,3}}){GAP}(?:(?P<top>\d{{1,2}})/(?P<bottom>\d{{1,2}})|(?P<vulgar>[{''.join(VULGAR)}]))",
            _mixed_fraction,
        ),
        # the high side runs to its token's end: "10,000 steps", not "10" before its comma
        pattern_rule(
            rf"(?P<low>\S{{1,24}}?){GAP}[-–—]{GAP}(?P<high>\S{{1,24}}?)(?=[^\s\w]{{0,3}}(?:\s|$))", _spaced_range
        ),
        pattern_rule(  # "5-Jan-2024", as forms and exports write it
            rf"(?P<day>\d{{1,2}})-(?P<month>{months})-(?P<year>\d{{4}})\b",
            day_named_month,
            flags=cased,
        ),
        pattern_rule(
            rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th|er|e|\.?º|°|\.?ª|\.er)?"
            rf"(?:[-–](?P<to>\d{{1,2}})(?:st|nd|rd|th|er|e|\.?º|°|\.?ª|\.er)?)?"  # "12–16 Jan": a range of days
            rf"{GAP}(?:(?:of|de|di){GAP})?(?P<month>{months})\.?"
            rf"(?:,?{GAP}(?P<year>\d{{4}}))?",
            day_named_month,
            flags=cased,
        ),
        PERIOD_YEAR,
    ]
    rules.extend(own)
    if locale.habits.spaced_thousands:  # after the amounts and measures, which read "1 500" themselves
        rules.append(pattern_rule(rf"(?P<n>{_SPACED_GROUPS}(?:,\d{{1,6}})?)", _spaced_thousands))
    return tuple(rules)


def english_spans() -> tuple[Rule, ...]:
    """English's own spans at a number: a home's rooms, a day before a time, "may" between a day and a year, and a
    recipe's cup."""
    return (
        pattern_rule(_ROOMS, _rooms, flags=re.IGNORECASE),  # "3 bd/2 ba", "2BR/1BA"
        pattern_rule(_DAY_BEFORE_TIME, _day_before_time),
        # "21 may 2013": "may" in lower case is a verb, but not between a day and a year
        pattern_rule(
            rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)?{GAP}(?P<month>may){GAP}(?P<year>\d{{4}})\b", day_named_month
        ),
        # "½ c. sugar", "2 c. flour": a recipe's cup, in lower case and before what is measured ("30 C." stays)
        pattern_rule(rf"(?P<n>\d{{1,3}}(?:\.\d{{1,2}})?|[{''.join(VULGAR)}]){GAP}c\.(?={GAP}[a-z])", _cups),
    )


# "4/28 at 10 a.m.", "6/3 @ 3:30": a month and a day before the time of that day, whatever comes before them.
_DAY_BEFORE_TIME = (
    rf"(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})(?=,?{GAP}(?:at|@){GAP}\d{{1,2}}(?::[0-5]\d|(?:{GAP})?(?i:[ap]\.?m)\b))"
)


def _cups(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "½ c. sugar": one half cup, as "½ cup" is said; "2 c. flour": two cups."""
    written = match["n"]
    amount = vulgar(written) if written in VULGAR else quantity(written, reading.locale)
    if isinstance(amount, Fraction) and int(amount.top) < int(amount.bottom):
        return Joined((amount, Word(CUP[0])))
    if not isinstance(amount, Number):
        return None
    return Joined((amount, Word(CUP[0] if amount.whole == "1" and not amount.fraction else CUP[1])))


def _day_before_time(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return month_day(match["a"], match["b"], reading.locale, ambiguous=True)  # "take 1/2 at 8 am": a half


QUALIFIER = r"(?:<=|>=|[~≈<>≤≥±])"
_SPACED_GROUPS = r"\d{1,3}(?:[ \u00a0\u202f]\d{3}){1,4}"


def number_pattern(locale: Locale) -> str:
    """A written number that cannot end in a dot or a comma (a sentence's end is not a decimal mark);
    where the language groups thousands with spaces (French), also so."""
    number = r"[-−+]?(?:\d(?:[\d.,]{0,23}\d)?|\.\d{1,12})"  # ".5 mm": a decimal without its zero
    return f"(?:{_SPACED_GROUPS}(?:,\\d{{1,6}})?|{number})" if locale.habits.spaced_thousands else number


PERIOD_YEAR = pattern_rule(rf"(?P<period>Q[1-4]|H[12]|[1-4]Q|FY){GAP}(?P<year>(?:19|20)\d\d)", _period_year)


def scale_words(locale: Locale) -> str:
    """The magnitudes written as words after an amount ("million", "bilhões", "mil millones"), longest first."""
    words = sorted((scale for scale in locale.scales if len(scale) > 2 or scale in ("mi", "bi")), key=len, reverse=True)
    return "|".join(re.escape(scale) for scale in words) or "(?!)"


def units_pattern(locale: Locale) -> str:
    return "|".join(re.escape(unit) for unit in sorted(_all_units(locale), key=len, reverse=True))


def _all_units(locale: Locale) -> list[str]:
    written = set(locale.units) | set(locale.spaced_units)
    written |= {
        spelled
        for unit in locale.units
        if len(unit) >= 2
        for spelled in (unit.upper(), unit.capitalize(), unit.lower())
    }
    return sorted(written)
