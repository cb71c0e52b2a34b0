"""What one token is, read whole (``classify``): "$12.99/mo" is a rate of money per month, "2.5KG" a measure,
"50%-60%" a range of percentages, "john.smith42@example.co.uk" an e-mail address, "#A12-9983" a code.

Each class is a pattern that must match the whole token (its core: ``tokens``), tried from the most specific
to the least; a token that none reads whole is a ``Code``, said as what it is (letters by name, numbers,
signs by name), so no digit or sign is ever left for G2P and no half of a token is rewritten without the other.
Plain words (letters, with inner apostrophes, hyphens or dots) are not forms: they are said as written.
Every pattern has bounded repetition and is matched once per token (a range or a compound is split at one
of at most three dashes): linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from . import words_english, words_romance
from .forms import (
    VULGAR,
    Code,
    Decade,
    Dimensions,
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
    Range,
    Said,
    Scaled,
    Signed,
    Symbol,
    Time,
    Times,
    Word,
    Year,
    separated,
    vulgar,
)
from .locales import ROMANCE, Locale, locale_of
from .tag_keypad import keypad
from .tag_range import named_range, ranged
from .tag_shapes import (
    SUPERSCRIPTS,
    arithmetic,
    assignment,
    dated,
    digit_plural,
    electronic,
    identifier,
    meeting,
    month_day,
    package_version,
    pi_term,
    power,
    resolution,
    season,
    shaped,
    telephone,
    timed,
    variable_power,
    viscosity,
)
from .tokens import is_word, sayable

DASHES = "-–—~〜～"
# Signs that say something wherever they stand; a token without a digit or one of them is read as written.
SPOKEN_SIGNS = frozenset("&@#+=%$€£¥₹₩°/~≈<>≤≥±×÷‰§©→−")
QUALIFIERS = ("<=", ">=", "~", "≈", "<", ">", "≤", "≥", "±")
_CLOCK = re.compile(
    r"(?P<h>\d{1,2}):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?(?P<ampm>[ap]\.?m\.?)?"
    r"|(?P<h2>\d{1,2})(?:\.(?P<m2>[0-5]\d))?(?P<ampm2>[ap]\.?m\.?)",
    re.IGNORECASE,
)
_FRENCH_CLOCK = re.compile(r"(?P<h>\d{1,2})h(?P<m>[0-5]\d)?")
# "08/29", "12/05": nobody pads a fraction's or a score's numbers with a zero, so these are a month and a day.
_PADDED_MONTH_DAY = re.compile(r"(?=0|\d\d/0)(?P<a>\d\d)/(?P<b>\d\d)")
_FRACTION = re.compile(r"(?P<top>\d{1,3}(?:\.\d)?)/(?P<bottom>\d{1,3})(?i:st|nd|rd|th)?(?i:s)?")  # "3/8ths", "2/3RDS"


_POINT_CENTS = r"\d{1,3}(?:,\d{3}){1,4}\.\d{2}"  # thousands by commas and cents by a point: the point is the decimal


@cache
def _patterns(locale: Locale) -> dict[str, re.Pattern[str]]:
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
    match = _patterns(locale)["number"].fullmatch(written)
    if match is None:
        return None
    body = match["n"]
    if locale.decimal_comma and not re.fullmatch(rf"\d+\.\d{{1,2}}|{_POINT_CENTS}", body):
        whole, mark, fraction = body.replace(".", "").partition(",")
    else:
        whole, mark, fraction = body.replace(",", "").partition(".")
    sign = match["sign"] or ""
    return Number(whole, fraction if mark else None, negative=sign in "-−" and bool(sign), plus=sign == "+")


def classify(core: str, locale: Locale, before: str = "", after: str = "") -> Form | None:
    """What ``core`` is, read whole; ``None`` for a plain word, said as written. ``before`` and ``after``
    are the cores of the tokens around it, for the few classes that their neighbours decide ("10M users")."""
    if not core:
        return None
    if core in locale.abbreviations and _abbreviated(core, locale, after):
        return Said(locale.abbreviations[core])
    if (keys := keypad(core)) is not None:
        return keys  # "*67", "*#06#"
    if (rough := _rough(core, locale, before, after)) is not None:
        return rough  # "3pm-ish", "10ish"
    if (
        shape := identifier(core) or variable_power(core, locale) or viscosity(core) or pi_term(core, locale)
    ) is not None:
        return shape  # "max_retries", "x²", "5W-30", "πr²"
    if is_word(core):
        if "." in core[:-1] and (address := electronic(core)) is not None:
            return address  # "example.com"
        return _word(core, locale)
    form = _typed(core, locale)
    if locale.language.startswith("en"):
        form = form or resolution(core, before, after) or meeting(core, before, after, locale.language == "en-gb")
    form = form or _quantity(core, locale, after) or electronic(core) or telephone(core) or dated(core, locale)
    form = form or timed(core)
    if isinstance(form, Time) and locale.language.startswith("en") and _elapsed(core, form, before, after):
        form = Duration(form.hour, form.minute or 0, form.second or 0)
    if form is None:
        form = _range(core, locale) or _compound(core, locale)
    if form is None:
        form = _other(core, locale, before, after)
    if core == "§§":
        return Code(core)  # "§§ 3–5": sections
    if core == "−" and not _between_terms(before, after):
        return None  # the minus sign typed as a dash in prose ("the score − as expected − was low"): a pause
    if form is None and not any(c.isdecimal() or c in VULGAR for c in core):  # "½$" has a number to say
        if SPOKEN_SIGNS.isdisjoint(core) or (len(core) > 1 and not any(c.isalpha() for c in core)):
            return None  # no digit and no sign that says something ("~~~", "***"): left to G2P and ``speakable``
    return form or digit_plural(core, locale, before) or Code(core)


# Short forms that are also a ratio's letters ("the b/c ratio", "the w/c ratio"), and one only Britain writes.
_ALSO_RATIOS = frozenset({"b/c", "w/c"})
_BRITISH_ONLY = frozenset({"w/c"})  # week commencing
_ALSO_NAMES = frozenset({"Max.", "Min."})


def _abbreviated(core: str, locale: Locale, after: str) -> bool:
    """Whether ``core``, in the locale's table of abbreviations, is one here."""
    if core in _ALSO_RATIOS and after.lower().startswith("ratio"):
        return False
    if core in _ALSO_NAMES and not (after[:1].islower() or after[:1].isdigit() or after[:1] in tuple("$€£:")):
        return False  # "say hi to Max.": a name; "Max. 4 guests", "Min. order": a label
    return core not in _BRITISH_ONLY or locale.language == "en-gb"


_ROUGHLY = re.compile(r"(?P<what>\$?\d{1,3}(?::[0-5]\d)?(?:[ap]m)?)-?ish", re.IGNORECASE)  # not "4-dish", "10-finish"


def _rough(core: str, locale: Locale, before: str, after: str) -> Form | None:
    """ "3pm-ish", "10ish", "5:30ish", "20-ish people", "$50-ish": a time or an amount said with its "ish", as English
    says it."""
    match = _ROUGHLY.fullmatch(core) if locale.language.startswith("en") else None
    form = classify(match["what"], locale, before, after) if match else None
    return Joined((form, Word("ish")), hyphens=True) if isinstance(form, (Number, Time, Money)) else None


def _typed(core: str, locale: Locale) -> Form | None:
    """What is typed as code or math: a sum or a setting ("10-4=6", "PORT=3000"), a power ("2^10", "10⁸"), a package at
    its version ("react@18.2.0")."""
    if "=" in core:
        return arithmetic(core, locale) or assignment(core)
    if "^" in core or any(char in SUPERSCRIPTS for char in core):
        return power(core, locale)
    return package_version(core) if "@" in core[1:] else None


_TERM = re.compile(r"[\d.,]{1,12}|\d{0,6}[A-Za-z][²³]?|[²³)(]")
_VARIABLE = re.compile(r"\d{0,6}[A-Za-z][²³]?")


def _between_terms(before: str, after: str) -> bool:
    """Whether "−" stands between the terms of algebra ("x² − 5x", "y − 4"): both sides numbers or variables,
    one of them a variable; between two numbers or words it is a dash ("1990 − 2000")."""
    sides = (before, after)
    return all(_TERM.fullmatch(side) for side in sides) and any(_VARIABLE.fullmatch(side) for side in sides)


# Words before a clock's time: after them, "9:15:30" is when ("at 9:15:30"), not how long.
_CLOCK_CUES = frozenset(
    "at from until till til by before after since around about between and to or starts ends opens closes".split()
)


def _elapsed(core: str, time: Time, before: str, after: str) -> bool:
    """ "The album is 2:45:10 long", "finished in 1:02:33": hours of one digit, minutes and seconds, no meridiem
    and no clock's cue before it, are how long. A clock with its seconds is written "09:15:30" or "14:30:00"."""
    if time.second is None or time.meridiem is not None or core[1] != ":":
        return False
    return before.lower() not in _CLOCK_CUES and re.match(r"(?i)[ap]\.?m\b|[A-Z]{2,4}T\b|UTC|GMT", after) is None


def _word(core: str, locale: Locale) -> Form | None:
    if core in locale.abbreviations and core not in _ALSO_NAMES:
        return Said(locale.abbreviations[core])
    if "-" in core:
        return _range(core, locale)  # "Mon-Fri", "Jan-Mar"; else a hyphenated word
    return None


def quantity(core: str, locale: Locale, after: str = "") -> Form | None:
    """``core`` read as an amount, a percentage, a measure, a number, a time or a date alone, or ``None``:
    what a side of a range may be."""
    return _quantity(core, locale, after) or dated(core, locale)


def _quantity(core: str, locale: Locale, after: str = "") -> Form | None:
    patterns = _patterns(locale)
    if core[0] in "<>~≈≤≥±" and not core.startswith(("<<", ">>")):
        sign = next(sign for sign in QUALIFIERS if core.startswith(sign))
        rest = core[len(sign) :]
        what = _quantity(rest, locale, after) if rest and rest[0] not in "<>~≈≤≥±" else None
        return Signed(sign, what) if what is not None else None
    if (number := read_number(core, locale)) is not None:
        return number
    if (match := patterns["money"].fullmatch(core)) is not None:
        return _money(match, locale)
    if (national := _national_money(core, locale)) is not None:
        return national  # "R$1.299,90" in an English sentence
    if (match := patterns["percent"].fullmatch(core)) is not None:
        return Percent(_number(match, locale))
    if (match := patterns["cents"].fullmatch(core)) is not None:
        return Money(Number(*match["n"].replace(",", ".").partition(".")[::2]), locale.cents[match["sign"]], cents=True)
    if (match := patterns["measure"].fullmatch(core)) is not None and (unit := _unit(match["unit"], locale, after)):
        return Measure(_number(match, locale), unit)  # "2.5KG", "100km/h", "the 100m final"
    if "/" in core and (rate := _per(core, locale)) is not None:
        return rate
    if (match := patterns["scaled"].fullmatch(core)) is not None and _scales(match, after):
        return Scaled(_number(match, locale), locale.scales[match["scale"]])
    english = locale.language.startswith("en")
    if (match := locale.ordinal.fullmatch(core)) is not None and ((rank := ordinal(match)).value.strip("0") or english):
        return rank  # "0th" is zeroth; the Romance languages have no zeroth ("0e" is not one)
    if (match := _PADDED_MONTH_DAY.fullmatch(core)) and (padded := month_day(match["a"], match["b"], locale)):
        return padded
    if locale.language.startswith("en") and (split := _split(core)) is not None:
        return split
    if (fraction := _fraction(core)) is not None:
        return replace(fraction, part=True) if after.lower() == "of" else fraction  # "1/10 of the seats"
    if (match := _CLOCK.fullmatch(core)) is not None:
        return _clock(match)
    clock_h = locale.language in ("fr-fr", "pt-br")  # "18h30", "9h30": French and Brazilian hours
    if clock_h and (match := _FRENCH_CLOCK.fullmatch(core)) is not None and int(match["h"]) <= 24:
        return Time(int(match["h"]), int(match["m"]) if match["m"] else None)  # "18h30", "14h"
    if (match := patterns["plus"].fullmatch(core)) is not None:
        return Signed("+", read_number(match["n"], locale) or Number(match["n"]))
    if core.endswith("+") and (match := patterns["money"].fullmatch(core[:-1])) is not None:
        return Signed("+", _money(match, locale))  # "$75+": seventy-five dollars plus
    return None


def _unit(written: str, locale: Locale, after: str) -> str | None:
    """The unit written after a number; "m" glued to it is meters only before what a length describes."""
    from .words_english import METER_NOUNS

    if written == "m" and locale.language.startswith("en"):
        return "m" if after.lower().rstrip(".,") in METER_NOUNS else None
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
    amount = _quantity(what, locale) or shaped(what)
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


def _clock(match: re.Match[str]) -> Time | None:
    hour = int(match["h"] or match["h2"])
    minute = int(match["m"] or match["m2"]) if match["m"] or match["m2"] else None
    ampm = (match["ampm"] or match["ampm2"] or "")[:1].lower()
    if hour > 24 or (ampm and not 1 <= hour <= 12):
        return None
    second = int(match["s"]) if match["s"] else None
    written_hour = match["h"] or match["h2"]
    twenty_four = not ampm and (hour > 12 or hour == 0 or written_hour.startswith("0"))
    return Time(hour, minute, second, ampm + "m" if ampm else None, twenty_four=twenty_four)


def _range(core: str, locale: Locale) -> Form | None:
    """Two quantities, months or weekdays joined by a dash: "3–5", "$10-20", "50%-60%", "9am–5pm", "Mon–Fri"."""
    cuts = [index for index, char in enumerate(core) if char in DASHES and 0 < index < len(core) - 1]
    if not cuts or len(cuts) > 3:
        return None
    if locale.language.startswith("en") and (even := _even(core)) is not None:
        return even
    for cut in cuts:
        low, high = core[:cut], core[cut + 1 :]
        if (named := named_range(low, high, locale)) is not None:
            return named
        low_form, high_form = quantity(low, locale), quantity(high, locale)
        scale = re.fullmatch(r".*\d(k|K|M|B|bn)", high)
        if isinstance(low_form, Money) and isinstance(low_form.amount, Number) and scale and scale[1] in locale.scales:
            high_number = read_number(high[: -len(scale[1])], locale)  # "$2.5–3M", "$70–90K": the magnitude is both's
            if high_number is not None:
                magnitude = locale.scales[scale[1]]
                high_money = replace(low_form, amount=Scaled(high_number, magnitude))
                if _value(low_form.amount) >= _value(high_number):
                    return Range(low_form, high_money)  # "$500–1M": five hundred dollars to one million dollars
                return Range(Scaled(low_form.amount, magnitude), high_money)
        if low_form is not None and high_form is not None and (form := ranged(low_form, high_form, (low, high))):
            return form
    return None


_EVEN = re.compile(r"(?P<n>[0-5]|50)[-–](?P=n)")


def _even(core: str) -> Form | None:
    """ "a 50-50 chance", "it ended 1-1": odds or a tied score, said as English says them ("fifty-fifty", "one-one");
    "open 9-9" stays a range of hours."""
    match = _EVEN.fullmatch(core)
    return Joined((Number(match["n"]), Number(match["n"])), hyphens=True) if match else None


def _value(number: Number) -> float:
    return float(f"{number.whole or 0}.{number.fraction or 0}")


def _compound(core: str, locale: Locale) -> Form | None:
    """Words and amounts joined by hyphens ("3-day", "2-for-1", "COVID-19", "1st-class", "6.5-inch", "mid-80s",
    "$5-off", "3.5-mm"); a part that is a code, or a letter run said letter by letter, makes the whole a code
    ("A12-9983", "W-2", "TKT-48213"). A unit's short form after an amount is the unit's name, as a modifier
    ("a 3.5-mm jack": a three point five-millimeter jack)."""
    parts = core.split("-")
    if len(parts) < 2 or len(parts) > 6 or not all(parts):
        return None
    forms: list[Form] = []
    for part in parts:
        previous = forms[-1] if forms else None
        if is_word(part):
            size = isinstance(previous, Dimensions) and not previous.unit
            measured = isinstance(previous, (Number, Fraction)) or size
            unit = locale.unit(part) if measured and part not in _NOT_UNITS else None
            if isinstance(previous, Dimensions) and unit is not None:  # "a 9x13-inch pan": nine-by-thirteen-inch
                forms[-1] = replace(previous, unit=unit, before_noun=True)
                continue
            if unit is not None and previous is not None:
                forms[-1] = Measure(previous, unit, before_noun=True)  # type: ignore[arg-type]
                continue
            if not sayable(part):
                return None
            forms.append(Word(part))
        elif _age_group(previous, part, locale):
            forms.append(Decade(part[:-1]))  # "under-16s": under sixteens, the age group
        elif (form := _joined_amount(part, locale)) is not None:
            forms.append(form)
        else:
            return None
    if not any(isinstance(form, (Word, Measure, Dimensions)) for form in forms):
        return None
    return Joined(tuple(forms), hyphens=True)


_AGE_BOUNDS = frozenset({"under", "over"})  # "under-16s", "over-65s"


def _age_group(previous: Form | None, part: str, locale: Locale) -> bool:
    english = locale.language.startswith("en")
    bound = isinstance(previous, Word) and previous.text.lower() in _AGE_BOUNDS
    return english and bound and re.fullmatch(r"[1-9]\d?s", part) is not None


_NOT_UNITS = frozenset({"in", "a", "an", "h", "m", "s", "d", "t"})  # words first: "2-in-1", "5-a-side"
_JOINED = (Number, Fraction, Ordinal, Decade, Year, Money, Percent, Measure, Scaled)


def _joined_amount(part: str, locale: Locale) -> Form | None:
    """A part of a compound that is said as an amount: a number of up to three digits, or with decimals or
    grouped thousands ("6.5", "1,000"), an ordinal, a decade, money, a percentage, a measure."""
    if part.isdigit():
        return Number(part) if len(part) <= 3 and not (len(part) > 1 and part.startswith("0")) else None
    form = quantity(part, locale)
    if form is None and isinstance(size := shaped(part), Dimensions):
        return size  # "9x13" before its unit
    if isinstance(form, Number) and (form.negative or form.plus):
        return None
    if isinstance(form, Measure):
        return replace(form, before_noun=True)  # "a 5kg-bag": a five-kilogram bag
    return form if isinstance(form, _JOINED) else None


def _shortcut(core: str) -> str | None:
    """ "Ctrl+Alt+Del": control alt delete; a keyboard shortcut of named keys and single keys."""
    from .words_english import KEYS

    keys = core.split("+")
    if len(keys) < 2 or len(keys) > 5 or not any(key in KEYS for key in keys):
        return None
    if not all(key in KEYS or re.fullmatch(r"[A-Za-z0-9]|F\d{1,2}", key) for key in keys):
        return None
    return " ".join(KEYS.get(key, key.upper() if len(key) == 1 else key) for key in keys)


def _root(sign: str, locale: Locale) -> str | None:
    if locale.language.startswith("en"):
        return words_english.ROOTS[sign]
    lang = ROMANCE.get(locale.language)
    return words_romance.ROOTS[lang][sign] if lang else None


_SLASHED_NUMBERS = re.compile(r"[1-9]\d{0,2}(?:/[1-9]\d{0,2}){2,3}")  # limits, splits; a date is read before
_PLAN = re.compile(r"(?P<n>\d{3})\((?P<letter>[a-z])\)(?:\((?P<sub>\d{1,2})\))?")  # a section of the tax code


def _other(core: str, locale: Locale, before: str, after: str = "") -> Form | None:
    """Numbers after "#", sharps, words joined by a slash, grades: the rest of the classes."""
    if (form := shaped(core, before, after)) is not None:
        return form
    if (match := _patterns(locale)["hash_number"].fullmatch(core)) is not None:
        sign = Symbol(match["sign"]) if match["sign"] != "§§" else Code("§§")  # "#5", "§14", "§§3": sections
        if match["sign"] == "§" and re.fullmatch(r"[1-9]\d{3}", match["n"]):
            return Joined((sign, Code(match["n"], "paired")))  # "§1983": section nineteen eighty-three
        return Joined((sign, read_number(match["n"], locale) or Number(match["n"])))
    if core[0] in "√∛" and (number := read_number(core[1:], locale)) is not None and (root := _root(core[0], locale)):
        return Joined((Said(root), number))  # "√49": the square root of forty-nine
    if re.fullmatch(r"[A-Z]{1,2}-[1-9]\d{1,2}", core):
        return Code(core, "paired")  # "F-150", "B-52", "I-95": a model's or a road's name, its number in pairs
    if _SLASHED_NUMBERS.fullmatch(core):  # "25/50/25 liability": twenty-five slash fifty slash twenty-five
        return separated(Symbol("/"), [Number(part) for part in core.split("/")])
    if (match := _PLAN.fullmatch(core)) is not None:  # "401(k)", "501(c)(3)": four oh one k
        return Code(f"{match['n']}{match['letter']}{match['sub'] or ''}", reading="paired")
    if re.fullmatch(r"[A-G]#", core):
        return Joined((Code(core[0]), Said("sharp")))  # "C#", "F#"
    if re.fullmatch(r"\d{4}/\d\d", core) and (years := season(*core.split("/"))) is not None:
        return years  # "the 2023/24 season"
    if core in ("Y/N", "T/F") and locale.language.startswith("en"):
        return Said(f"{core[0]} or {core[2]}")  # "Reply Y/N": Y or N
    if re.fullmatch(r"[A-Z]/[A-Z]", core):
        return Code(core[0] + core[2])  # "an A/B test", "the A/C", "I/O": the letters
    if "/" in core and all(is_word(part) for part in core.split("/")):
        days = [locale.weekdays.get(part.rstrip(".")) for part in core.split("/")]
        if all(days):
            return Said(" ".join(day for day in days if day))  # "Tues/Thurs": Tuesday Thursday
        return Word(core.replace("/", " "))  # "and/or", "TCP/IP"
    if "+" in core and locale.language.startswith("en") and (keys := _shortcut(core)) is not None:
        return Said(keys)
    if core.endswith("+") and is_word(core.rstrip("+")):
        letters = core.rstrip("+")
        head: Form = Word(letters) if sayable(letters) else Code(letters)
        return Joined((head, *(Symbol("+") for _ in range(len(core) - len(letters)))))  # "A+", "C++", "Disney+"
    return None
