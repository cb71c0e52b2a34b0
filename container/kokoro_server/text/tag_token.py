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
    Percent,
    Range,
    Said,
    Scaled,
    Symbol,
    Time,
    Word,
    Year,
    separated,
)
from .locales import Locale
from .tag_date import dated, season
from .tag_duration import elapsed, timed
from .tag_keypad import keypad
from .tag_math import (
    SUPERSCRIPTS,
    arithmetic,
    assignment,
    e_notation,
    formula,
    identifier,
    package_version,
    pi_term,
    power,
    variable_power,
    viscosity,
)
from .tag_quantity import patterns, quantity, read_amount, read_number
from .tag_range import named_range, ranged
from .tag_shapes import digit_plural, electronic, meeting, resolution, shaped
from .tag_telephone import telephone
from .tokens import is_word, sayable

DASHES = "-–—~〜～"
# Signs that say something wherever they stand; a token without a digit or one of them is read as written.
SPOKEN_SIGNS = frozenset("&@#+=%$€£¥₹₩°/~≈<>≤≥±×÷‰§©→−")


def classify(core: str, locale: Locale, before: str = "", after: str = "") -> Form | None:
    """What ``core`` is, read whole; ``None`` for a plain word, said as written. ``before`` and ``after``
    are the cores of the tokens around it, for the few classes that their neighbours decide ("10M users")."""
    if not core:
        return None
    if core in locale.abbreviations and _abbreviated(core, after):
        return Said(locale.abbreviations[core])
    if (keys := keypad(core)) is not None:
        return keys  # "*67", "*#06#"
    if (rough := _rough(core, locale, before, after)) is not None:
        return rough  # "3pm-ish", "10ish"
    if (
        shape := identifier(core)
        or variable_power(core, locale)
        or viscosity(core)
        or pi_term(core, locale)
        or formula(core)
    ) is not None:
        return shape  # "max_retries", "x²", "5W-30", "πr²"
    if is_word(core):
        if "." in core[:-1] and (address := electronic(core)) is not None:
            return address  # "example.com"
        return _word(core, locale)
    form = _typed(core, locale)
    habits = locale.habits
    if habits.picture_sizes:
        form = form or resolution(core, before, after)
    if habits.one_to_one:
        form = form or meeting(core, before, after, habits.one_to_one)
    form = form or read_amount(core, locale, after) or electronic(core) or telephone(core) or dated(core, locale)
    form = form or timed(core)
    if isinstance(form, Time) and habits.elapsed_clock and elapsed(core, form, before, after):
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


_ALSO_RATIOS = frozenset({"b/c", "w/c"})  # short forms that are also a ratio's letters ("the b/c ratio")
_ALSO_NAMES = frozenset({"Max.", "Min."})


def _abbreviated(core: str, after: str) -> bool:
    """Whether ``core``, in the locale's table of abbreviations, is one here."""
    if core in _ALSO_RATIOS and after.lower().startswith("ratio"):
        return False
    if core in _ALSO_NAMES and not (after[:1].islower() or after[:1].isdigit() or after[:1] in tuple("$€£:")):
        return False  # "say hi to Max.": a name; "Max. 4 guests", "Min. order": a label
    return True


_ROUGHLY = re.compile(r"(?P<what>\$?\d{1,3}(?::[0-5]\d)?(?:[ap]m)?)-?ish", re.IGNORECASE)  # not "4-dish", "10-finish"


def _rough(core: str, locale: Locale, before: str, after: str) -> Form | None:
    """ "3pm-ish", "10ish", "5:30ish", "20-ish people", "$50-ish": a time or an amount said with its "ish", as English
    says it."""
    match = _ROUGHLY.fullmatch(core) if locale.habits.ish else None
    form = classify(match["what"], locale, before, after) if match else None
    return Joined((form, Word("ish")), hyphens=True) if isinstance(form, (Number, Time, Money)) else None


def _typed(core: str, locale: Locale) -> Form | None:
    """What is typed as code or math: a sum or a setting ("10-4=6", "PORT=3000"), a power ("2^10", "10⁸"), a package at
    its version ("react@18.2.0")."""
    if "=" in core:
        return arithmetic(core, locale) or assignment(core)
    if "^" in core or any(char in SUPERSCRIPTS for char in core):
        return power(core, locale)
    if core[:1].isdigit() and ("e" in core or "E" in core):
        return e_notation(core, locale)
    return package_version(core) if "@" in core[1:] else None


_TERM = re.compile(r"[\d.,]{1,12}|\d{0,6}[A-Za-z][²³]?|[²³)(]")
_VARIABLE = re.compile(r"\d{0,6}[A-Za-z][²³]?")


def _between_terms(before: str, after: str) -> bool:
    """Whether "−" stands between the terms of algebra ("x² − 5x", "y − 4"): both sides numbers or variables,
    one of them a variable; between two numbers or words it is a dash ("1990 − 2000")."""
    sides = (before, after)
    return all(_TERM.fullmatch(side) for side in sides) and any(_VARIABLE.fullmatch(side) for side in sides)


def _word(core: str, locale: Locale) -> Form | None:
    if core in locale.abbreviations and core not in _ALSO_NAMES:
        return Said(locale.abbreviations[core])
    if "-" in core:
        return _range(core, locale)  # "Mon-Fri", "Jan-Mar"; else a hyphenated word
    return None


def _range(core: str, locale: Locale) -> Form | None:
    """Two quantities, months or weekdays joined by a dash: "3–5", "$10-20", "50%-60%", "9am–5pm", "Mon–Fri"."""
    cuts = [index for index, char in enumerate(core) if char in DASHES and 0 < index < len(core) - 1]
    if not cuts or len(cuts) > 3:
        return None
    if locale.habits.even_odds and (even := _even(core)) is not None:
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


def _age_group(previous: Form | None, part: str, locale: Locale) -> bool:
    bound = isinstance(previous, Word) and previous.text.lower() in locale.habits.age_bounds
    return bound and re.fullmatch(r"[1-9]\d?s", part) is not None


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


def _shortcut(core: str, locale: Locale) -> str | None:
    """ "Ctrl+Alt+Del": control alt delete; a keyboard shortcut of named keys and single keys."""
    named = locale.habits.keyboard_keys
    keys = core.split("+")
    if len(keys) < 2 or len(keys) > 5 or not any(key in named for key in keys):
        return None
    if not all(key in named or re.fullmatch(r"[A-Za-z0-9]|F\d{1,2}", key) for key in keys):
        return None
    return " ".join(named.get(key, key.upper() if len(key) == 1 else key) for key in keys)


_SLASHED_NUMBERS = re.compile(r"[1-9]\d{0,2}(?:/[1-9]\d{0,2}){2,3}")  # limits, splits; a date is read before
_PLAN = re.compile(r"(?P<n>\d{3})\((?P<letter>[a-z])\)(?:\((?P<sub>\d{1,2})\))?")  # a section of the tax code


def _other(core: str, locale: Locale, before: str, after: str = "") -> Form | None:
    """Numbers after "#", sharps, words joined by a slash, grades: the rest of the classes."""
    if (form := shaped(core, before, after)) is not None:
        return form
    if (match := patterns(locale)["hash_number"].fullmatch(core)) is not None:
        sign = Symbol(match["sign"]) if match["sign"] != "§§" else Code("§§")  # "#5", "§14", "§§3": sections
        if match["sign"] == "§" and re.fullmatch(r"[1-9]\d{3}", match["n"]):
            return Joined((sign, Code(match["n"], "paired")))  # "§1983": section nineteen eighty-three
        return Joined((sign, read_number(match["n"], locale) or Number(match["n"])))
    if (
        core[0] in "√∛"
        and (number := read_number(core[1:], locale)) is not None
        and (root := locale.habits.roots.get(core[0]))
    ):
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
    if core in ("Y/N", "T/F") and locale.habits.choice_word:
        return Said(f"{core[0]} {locale.habits.choice_word} {core[2]}")  # "Reply Y/N": Y or N
    if re.fullmatch(r"[A-Z]/[A-Z]", core):
        return Code(core[0] + core[2])  # "an A/B test", "the A/C", "I/O": the letters
    if "/" in core and all(is_word(part) for part in core.split("/")):
        days = [locale.weekdays.get(part.rstrip(".")) for part in core.split("/")]
        if all(days):
            return Said(" ".join(day for day in days if day))  # "Tues/Thurs": Tuesday Thursday
        return Word(core.replace("/", " "))  # "and/or", "TCP/IP"
    if "+" in core and locale.habits.keyboard_keys and (keys := _shortcut(core, locale)) is not None:
        return Said(keys)
    if core.endswith("+") and is_word(core.rstrip("+")):
        letters = core.rstrip("+")
        head: Form = Word(letters) if sayable(letters) else Code(letters)
        return Joined((head, *(Symbol("+") for _ in range(len(core) - len(letters)))))  # "A+", "C++", "Disney+"
    return None
