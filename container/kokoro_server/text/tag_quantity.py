"""One token that is an amount, read whole: a number in the locale's way ("1,284.50", "1.284,50"), an ordinal,
money ("$12.99", "12,99 €", "75¢"), a percentage, a measure ("2.5KG"), a rate ("$12.99/mo"), a magnitude
("10k"), a fraction, a clock's time ("3:30pm", "18h30"). ``tag_token.classify`` asks for it in its order.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from .forms import (
    VULGAR,
    Duration,
    Form,
    Fraction,
    Joined,
    Measure,
    Money,
    Number,
    Ordinal,
    Per,
    Percent,
    Scaled,
    Signed,
    Time,
    Times,
    Word,
    vulgar,
)
from .locales import Locale, locale_of
from .tag_clock import clock_of
from .tag_date import dated, month_day
from .tag_shapes import shaped

QUALIFIERS = ("<=", ">=", "~", "≈", "<", ">", "≤", "≥", "±")


# "08/29", "12/05": nobody pads a fraction's or a score's numbers with a zero, so these are a month and a day.
_PADDED_MONTH_DAY = re.compile(r"(?=0|\d\d/0)(?P<a>\d\d)/(?P<b>\d\d)")


_FRACTION = re.compile(r"(?P<top>\d{1,3}(?:\.\d)?)/(?P<bottom>\d{1,3})(?i:st|nd|rd|th)?(?i:s)?")  # "3/8ths", "2/3RDS"


_POINT_CENTS = r"\d{1,3}(?:,\d{3}){1,4}\.\d{2}"  # thousands by commas and cents by a point: the point is the decimal


@cache
def patterns(locale: Locale) -> dict[str, re.Pattern[str]]:
    if locale.decimal_comma:  # "1.500,25", "3,5", and "3.5" or "1,299.00" as agents (and Mexico) write it
        number = (
            rf"{_POINT_CENTS}|\d{{1,3}}(?:\.\d{{3}})+(?:,\d{{1,12}})?|\d{{1,400}}(?:,\d{{1,12}})?|\d{{1,15}}\.\d{{1,2}}"
        )
    else:  # "1,500.25", "1,50,000" (Indian grouping), ".75"
        number = r"(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})+,\d{3}|\d{1,400})(?:\.\d{1,12})?|\.\d{1,12}"
    signs = "|".join(re.escape(sign) for sign in sorted(locale.currencies, key=len, reverse=True))
    scales = "|".join(re.escape(scale) for scale in sorted(locale.scales, key=len, reverse=True) if len(scale) <= 2)
    cents = "|".join(re.escape(sign) for sign in locale.cents) or "(?!)"
    return {
        "number": re.compile(rf"(?P<sign>[-−+])?(?P<n>{number})"),
        "money": re.compile(
            rf"(?P<sign>[-−+])?(?:(?P<before>{signs})(?P<n>{number})(?P<scale>{scales})?"
            rf"|(?P<n2>{number})(?P<scale2>{scales})?(?P<after>{signs}))"
        ),
        "cents": re.compile(rf"(?P<n>\d{{1,3}}(?:[.,]\d)?)(?P<sign>{cents})"),
        "percent": re.compile(rf"(?P<sign>[-−+])?(?P<n>{number})%"),
        "measure": re.compile(rf"(?P<sign>[-−+])?(?P<n>{number})(?P<unit>[^\d\s][^\s]{{0,12}})"),
        "scaled": re.compile(rf"(?P<sign>[-−+])?(?P<n>{number})(?P<scale>{scales})"),
        "plus": re.compile(rf"(?P<n>{number})\+"),
        "hash_number": re.compile(rf"(?P<sign>#|§{{1,2}})(?P<n>{number})"),
    }


def read_number(written: str, locale: Locale) -> Number | None:
    """The number ``written`` in the locale's way ("1,284.50"; "1.284,50" in Spanish), or ``None``."""
    match = patterns(locale)["number"].fullmatch(written)
    if match is None:
        return None
    body = match["n"]
    if locale.decimal_comma and not re.fullmatch(rf"\d+\.\d{{1,2}}|{_POINT_CENTS}", body):
        whole, mark, fraction = body.replace(".", "").partition(",")
    else:
        whole, mark, fraction = body.replace(",", "").partition(".")
    sign = match["sign"] or ""
    return Number(whole, fraction if mark else None, negative=sign in "-−" and bool(sign), plus=sign == "+")


def quantity(core: str, locale: Locale, after: str = "") -> Form | None:
    """``core`` read as an amount, a percentage, a measure, a number, a time or a date alone, or ``None``:
    what a side of a range may be."""
    return read_amount(core, locale, after) or dated(core, locale)


def read_amount(core: str, locale: Locale, after: str = "") -> Form | None:
    written = patterns(locale)
    if core[0] in "<>~≈≤≥±" and not core.startswith(("<<", ">>")):
        sign = next(sign for sign in QUALIFIERS if core.startswith(sign))
        rest = core[len(sign) :]
        what = read_amount(rest, locale, after) if rest and rest[0] not in "<>~≈≤≥±" else None
        return Signed(sign, what) if what is not None else None
    if (number := read_number(core, locale)) is not None:
        return number
    if (match := written["money"].fullmatch(core)) is not None:
        return _money(match, locale)
    if (national := _national_money(core, locale)) is not None:
        return national  # "R$1.299,90" in an English sentence
    if (match := written["percent"].fullmatch(core)) is not None:
        return Percent(_number(match, locale))
    if (match := written["cents"].fullmatch(core)) is not None:
        return Money(Number(*match["n"].replace(",", ".").partition(".")[::2]), locale.cents[match["sign"]], cents=True)
    if (match := written["measure"].fullmatch(core)) is not None and (unit := _unit(match["unit"], locale, after)):
        return Measure(_number(match, locale), unit)  # "2.5KG", "100km/h", "the 100m final"
    if "/" in core and (rate := _per(core, locale)) is not None:
        return rate
    if (match := written["scaled"].fullmatch(core)) is not None and _scales(match, after):
        return Scaled(_number(match, locale), locale.scales[match["scale"]])
    zeroth = locale.habits.zeroth
    if (match := locale.ordinal.fullmatch(core)) is not None and ((rank := ordinal(match)).value.strip("0") or zeroth):
        return rank  # "0th" is zeroth; the Romance languages have no zeroth ("0e" is not one)
    if (match := _PADDED_MONTH_DAY.fullmatch(core)) and (padded := month_day(match["a"], match["b"], locale)):
        return padded
    if locale.habits.splits and (split := _split(core)) is not None:
        return split
    if (fraction := _fraction(core)) is not None:
        return replace(fraction, part=True) if after.lower() == "of" else fraction  # "1/10 of the seats"
    if (time := clock_of(core, locale)) is not None:
        return time  # "3:30pm", "18h30"
    if (match := written["plus"].fullmatch(core)) is not None:
        return Signed("+", read_number(match["n"], locale) or Number(match["n"]))
    if core.endswith("+") and (match := written["money"].fullmatch(core[:-1])) is not None:
        return Signed("+", _money(match, locale))  # "$75+": seventy-five dollars plus
    return None


def _unit(written: str, locale: Locale, after: str) -> str | None:
    """The unit written after a number; "m" glued to it is meters only before what a length describes."""
    nouns = locale.habits.glued_meter_nouns
    if written == "m" and nouns is not None:
        return "m" if after.lower().rstrip(".,") in nouns else None
    return locale.unit(written)


def ordinal(match: re.Match[str]) -> Ordinal:
    """The ordinal a locale's pattern matched ("21st", "2.ª", "3a")."""
    groups = match.groupdict()
    value = re.sub(r"[,.]", "", groups.get("n") or groups["n2"])  # "2,000th": the two thousandth
    return Ordinal(value, feminine=bool(groups.get("feminine") or groups.get("feminine2")))


def _number(match: re.Match[str], locale: Locale) -> Number:
    number = read_number(match["n"], locale) or Number(match["n"])
    sign = match["sign"] or ""
    return Number(number.whole, number.fraction, negative=sign in "-−" and bool(sign), plus=sign == "+")


# Signs only one country writes, with its own marks: "R$ 1.200" is twelve hundred reais in any language.
_NATIONAL_SIGNS = {"R$": "pt-br"}


_COMMA_DECIMAL = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d{2})?|\d{1,3},\d{2}")


def money_number(written: str, sign: str, locale: Locale) -> Number | None:
    """The amount written after or before ``sign``: in the marks of the country that alone writes that sign
    ("R$ 1.299,90") where they are its marks, else in the locale's."""
    national = _NATIONAL_SIGNS.get(sign)
    if national and not locale.decimal_comma and _COMMA_DECIMAL.fullmatch(written):
        return read_number(written, locale_of(national) or locale)
    return read_number(written, locale)


def _national_money(core: str, locale: Locale) -> Money | None:
    sign = next((sign for sign in _NATIONAL_SIGNS if core.startswith(sign)), None)
    if sign is None or sign not in locale.currencies or not _COMMA_DECIMAL.fullmatch(core[len(sign) :]):
        return None
    number = money_number(core[len(sign) :], sign, locale)
    return Money(number, locale.currencies[sign], sign=sign) if number is not None else None


def _money(match: re.Match[str], locale: Locale) -> Money:
    written = match["n"] or match["n2"]
    number = money_number(written, match["before"] or match["after"], locale) or Number(written)
    sign = match["sign"] or ""
    number = Number(number.whole, number.fraction, negative=sign in "-−" and bool(sign), plus=sign == "+")
    scale = match["scale"] or match["scale2"]
    sign_written = match["before"] or match["after"]
    amount = Scaled(number, locale.scales[scale]) if scale else number
    return Money(amount, locale.currencies[sign_written], sign=sign_written)


def _scales(match: re.Match[str], after: str) -> bool:
    """Whether "10k", "3.5M" is a magnitude: "k" always; "M", "B", "T" only where they cannot be a letter:
    after a decimal ("3.5M") or before a word in lower case that is counted ("10M users", not "4B is free")."""
    from .words_english import FUNCTION_WORDS

    scale = match["scale"]
    if scale in ("k", "K", "bn", "mn", "tn"):
        return True
    if scale not in ("M", "B", "T"):
        return False
    counted = after[:1].islower() and after.isalpha() and after not in FUNCTION_WORDS
    return "." in match["n"] or "," in match["n"] or counted


def _per(core: str, locale: Locale) -> Form | None:
    if core.count("/") > 2:
        return None  # a rate divides twice at most ("5 mg/kg/day"); the quantity before is read again
    what, _, per = core.rpartition("/")
    per_key = locale.per(per)
    if not what or per_key is None:
        return None
    if what.isalpha() and not what.isupper():
        return Per(Word(what), per_key) if per in locale.per_words else None  # "beats/min", not "and/or"
    amount = read_amount(what, locale) or shaped(what)
    if isinstance(amount, (Money, Percent, Measure, Number, Scaled, Times)):  # "2x/day": two times per day
        return Per(amount, per_key)
    if isinstance(amount, Time) and amount.meridiem is None and amount.second is None:  # "9:30/mile": a pace
        return Per(Duration(None, amount.hour, amount.minute or 0), per_key)
    return None


def _fraction(core: str) -> Fraction | None:
    if core[-1] in VULGAR:
        whole = core[:-1]
        return vulgar(core[-1], whole or None) if whole.isdigit() and len(whole) <= 3 or not whole else None
    match = _FRACTION.fullmatch(core)
    if match is None:
        return None
    return Fraction(match["top"], match["bottom"])


_SPLIT = re.compile(r"(?P<a>\d{1,2})/(?P<b>\d{1,2})")


def _split(core: str) -> Form | None:
    """ "80/20 coinsurance", "a 60/40 mix", "50/50": a whole split in two parts of a hundred, each said."""
    match = _SPLIT.fullmatch(core)
    if match is None:
        return None
    first, second = int(match["a"]), int(match["b"])
    if first + second != 100 or first % 5 or second % 5 or first < second:
        return None  # "40/60 on the quiz": a score; a split writes its larger part first
    return Joined((Number(match["a"]), Number(match["b"])))
