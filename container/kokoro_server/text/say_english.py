"""What an English voice says for each form the tagger finds: "$12.99/mo" (``Per(Money…)``) is "twelve dollars
and ninety-nine cents per month". American voices get "one hundred five", month-first dates and 12-hour
times; British voices "one hundred and five", day-first dates and 24-hour times as written.

``say`` dispatches on the form's class; every reading is words only, so what it says never holds a digit
or a sign. Numbers are num2words' (``spoken``); codes, addresses on the web and telephone numbers are
spelled by ``say_codes``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache, partial, singledispatch

from . import say_english_calendar as calendar
from . import spoken
from .forms import (
    VULGAR,
    Address,
    Code,
    Dimensions,
    Dotted,
    Electronic,
    FeetInches,
    Form,
    Fraction,
    Joined,
    Keys,
    Letters,
    Measure,
    Money,
    Number,
    Ordinal,
    Per,
    Percent,
    Power,
    Range,
    Roman,
    Said,
    Scaled,
    Signed,
    Symbol,
    Telephone,
    Times,
    Word,
    vulgar,
)
from .say_codes import ENGLISH, Speller, code, electronic, pre_release, telephone
from .tag_keypad import key_presses, said_as_number
from .words_english import (
    BRITISH_SPELLINGS,
    COMPASS,
    CURRENCIES,
    FRACTION_DENOMINATORS,
    KEYPAD_KEYS,
    KEYPAD_KEYS_BRITISH,
    LONE_SIGNS,
    LONE_SIGNS_BRITISH,
    PER_WORDS,
    POWER,
    QUALIFIERS,
    SPACED_UNITS,
    STREET_TYPES,
    SYMBOLS,
    UNITS,
    US_SAID,
)


def say(form: Form, british: bool = False) -> str:
    """What an American (or a British) voice says for ``form``."""
    return _say(form, british)


def verbalizer(language: str) -> Callable[[Form], str]:
    """``say`` for a voice of ``language`` ("en-us", "en-gb")."""
    return partial(say, british=language == "en-gb")


@singledispatch
def _say(form: Form, british: bool) -> str:
    raise TypeError(f"no English reading for {form!r}")


@_say.register
def _(form: Number, british: bool) -> str:
    sign = "minus " if form.negative else "plus " if form.plus else ""
    if form.fraction is None:
        if len(form.whole) > 1 and form.whole.startswith("0"):
            return sign + spoken.digits(form.whole)  # "007": a code, not seven
        return sign + spoken.cardinal(form.whole, british)
    return sign + spoken.decimal(f"{form.whole}.{form.fraction}", british)


@_say.register
def _(form: Ordinal, british: bool) -> str:
    if len(form.value) > spoken.MAX_CARDINAL_DIGITS:
        return spoken.digits(form.value)
    return spoken.ordinal(form.value, british)


@_say.register
def _(form: Fraction, british: bool) -> str:
    top, bottom = form.top, int(form.bottom)
    if form.whole is None and (top, bottom) == ("24", 7):
        return "twenty-four seven"
    if form.whole is None and (top, bottom) == ("50", 50):
        return "fifty-fifty"
    if form.whole is None and "." not in top and bottom and float(top) > bottom:
        return f"{spoken.number(top, british)} over {spoken.cardinal(bottom, british)}"  # "128/82": a reading
    of_what = form.part and form.whole is None and top.isdigit() and 0 < int(top) < bottom <= 1000
    if of_what and bottom not in FRACTION_DENOMINATORS:  # "1/10 of", "3/5 of": one tenth, three fifths
        return f"{spoken.cardinal(top, british)} {spoken.ordinal(bottom, british)}{'' if top == '1' else 's'}"
    if "." in top or bottom == 0 or float(top) >= bottom or bottom not in FRACTION_DENOMINATORS:
        whole = f"{spoken.cardinal(form.whole, british)} and " if form.whole else ""
        return f"{whole}{spoken.number(top, british)} out of {spoken.cardinal(bottom, british)}"
    one, many = FRACTION_DENOMINATORS[bottom]
    if form.whole is not None and form.whole:
        part = f"a {one}" if top == "1" else f"{spoken.cardinal(top, british)} {many}"
        return f"{spoken.cardinal(form.whole, british)} and {part}"
    return f"{spoken.cardinal(top, british)} {one if top == '1' else many}"


@_say.register
def _(form: Scaled, british: bool) -> str:
    amount = form.amount
    if isinstance(amount, Number) and amount.fraction and amount.fraction.endswith("0"):
        amount = replace(amount, fraction=amount.fraction.rstrip("0") or None)  # "$2.50M": two point five million
    return f"{say(amount, british)} {form.scale}"


@_say.register
def _(form: Power, british: bool) -> str:
    times = f"{say(form.times, british)} {SYMBOLS['×']} " if form.times else ""
    exponent = form.exponent
    if form.raised and isinstance(exponent, Number) and not exponent.negative and exponent.whole in ("2", "3"):
        return f"{times}{say(form.base, british)} {SYMBOLS['²' if exponent.whole == '2' else '³']}"  # "ten squared"
    return f"{times}{say(form.base, british)} {POWER} {say(exponent, british)}"


@_say.register
def _(form: Money, british: bool) -> str:
    one, many, cent, cents = CURRENCIES[form.currency]
    if form.sign in US_SAID:
        one, many = f"US {one}", f"US {many}"
    amount = form.amount
    if form.cents:
        number = amount if isinstance(amount, Number) else Number("0")
        return f"{say(number, british)} {cent if number.whole == '1' and not number.fraction else cents}"
    if isinstance(amount, Scaled):
        return f"{say(amount, british)} {many}"
    if not isinstance(amount, Number):
        return f"{say(amount, british)} {many}"
    sign = "minus " if amount.negative else "plus " if amount.plus else ""
    fraction = amount.fraction
    if fraction is not None and len(fraction) > 2:
        if fraction[2:].strip("0"):  # "$3.499": a price per unit, said as a decimal
            return f"{sign}{spoken.decimal(f'{amount.whole or 0}.{fraction}', british)} {many}"
        fraction = fraction[:2]  # "$7.250": seven dollars and twenty-five cents
    units, hundredths = int(amount.whole or "0"), int((fraction or "0").ljust(2, "0"))
    if form.before_noun and not fraction:  # "a $20 gift card": a twenty-dollar gift card
        return f"{sign}{spoken.cardinal(units, british)}-{one.split()[-1]}"
    parts = []
    if units or not hundredths:
        parts.append(f"{spoken.cardinal(units, british)} {one if units == 1 else many}")
    if hundredths:
        parts.append(f"{spoken.cardinal(hundredths, british)} {cent if hundredths == 1 else cents}")
    return sign + " and ".join(parts)


@_say.register
def _(form: Percent, british: bool) -> str:
    return f"{say(form.amount, british)} percent"


def unit_words(unit: str, many: bool, british: bool) -> str:
    one, plural = UNITS.get(unit) or SPACED_UNITS[unit]
    said = plural if many else one
    if british:
        for american, spelling in BRITISH_SPELLINGS.items():
            said = said.replace(american, spelling)
    return said


@_say.register
def _(form: Measure, british: bool) -> str:
    amount = form.amount
    single = isinstance(amount, Number) and amount.whole.lstrip("0") == "1" and not (amount.fraction or "").strip("0")
    if form.before_noun:  # "a 10 mg tablet": a ten-milligram tablet
        modifier = _fraction_modifier(amount, british) if isinstance(amount, Fraction) else say(amount, british)
        return f"{modifier.replace(' ', '-')}-{unit_words(form.unit, False, british).replace(' ', '-')}"
    if isinstance(amount, Fraction) and amount.whole is None and int(amount.top) < int(amount.bottom):
        unit = unit_words(form.unit, False, british)
        return f"{say(amount, british)} of {'an' if unit[0] in 'aeiou' else 'a'} {unit}"  # "1/2 cup", "3/8 inch"
    return f"{say(amount, british)} {unit_words(form.unit, not single, british)}"


def _fraction_modifier(amount: Fraction, british: bool) -> str:
    """A fraction before its unit and noun: "a ½\" pipe" is a half-inch pipe, "¾\"" three-quarter-inch, "1½\""
    one-and-a-half-inch; other parts keep their plural ("five-eighths-inch")."""
    if amount.whole is None and amount.bottom in ("2", "4") and int(amount.top) < int(amount.bottom):
        part = "half" if amount.bottom == "2" else "quarter"
        return part if amount.top == "1" else f"{spoken.cardinal(amount.top, british)} {part}"
    return say(amount, british)


@_say.register
def _(form: Per, british: bool) -> str:
    if form.unit in UNITS or form.unit in SPACED_UNITS:
        per = unit_words(form.unit, False, british)
    else:
        per = PER_WORDS.get(form.unit) or PER_WORDS.get(form.unit.lower()) or form.unit
    return f"{say(form.what, british)} per {per}"


@_say.register
def _(form: Times, british: bool) -> str:
    return f"{say(form.amount, british)} x" if form.letter else f"{say(form.amount, british)} times"


@_say.register
def _(form: FeetInches, british: bool) -> str:
    return f"{say(form.feet, british)} foot {say(form.inches, british)}"  # "5'4\"": five foot four


@_say.register
def _(form: Dimensions, british: bool) -> str:
    if form.unit is not None:  # "10' x 12'": ten by twelve feet; before its noun, ten-by-twelve-foot
        size = " by ".join(say(side, british) for side in form.sides)
        if form.before_noun:
            return f"{size}-{unit_words(form.unit, False, british)}".replace(" ", "-")
        return f"{size} {unit_words(form.unit, True, british)}"
    sides = []
    for side in form.sides:
        if side.fraction is None and len(side.whole) == 4 and side.whole[0] != "0" and side.whole[2] != "0":
            sides.append(spoken.paired(side.whole, british))  # "1920x1080": said in pairs
        else:
            sides.append(say(side, british))
    if form.plural:
        sides[-1] = spoken.plural(sides[-1])
    return " by ".join(sides)


@_say.register
def _(form: Range, british: bool) -> str:
    low, high = form.low, form.high
    if isinstance(low, (Money, Percent, Measure)) and isinstance(high, Number):
        high = _with_amount(low, high)  # "$10-20": ten to twenty dollars
    to = "and" if form.between else "to"
    if isinstance(high, (Money, Percent, Measure)) and _unit_of(low) in (None, _unit_of(high)) and not _cents(low):
        return f"{say(_amount_of(low), british)} {to} {say(high, british)}"
    return f"{say(low, british)} {to} {say(high, british)}"


def _cents(form: Form) -> bool:
    """Money written with its cents ("$1.50"): said whole on the low side of a range too."""
    amount = form.amount if isinstance(form, Money) else None
    return isinstance(amount, Number) and amount.fraction is not None and len(amount.fraction) <= 2


def _unit_of(form: Form) -> tuple[str, str] | None:
    if isinstance(form, Money):
        return ("money", form.currency)
    if isinstance(form, Percent):
        return ("percent", "")
    if isinstance(form, Measure):
        return ("measure", form.unit)
    return None


def _amount_of(form: Form) -> Form:
    return form.amount if isinstance(form, (Money, Percent, Measure)) else form


def _with_amount(form: Money | Percent | Measure, amount: Number) -> Form:
    if isinstance(form, Money):
        return Money(amount, form.currency, sign=form.sign)
    if isinstance(form, Percent):
        return Percent(amount)
    return Measure(amount, form.unit)


@_say.register
def _(form: Signed, british: bool) -> str:
    if form.sign == "+":  # "5+ years", "10+ hrs": ten plus hours, the sign after the number
        said = say(form.what, british)
        amount = say(form.what.amount, british) if isinstance(form.what, Measure) else None
        return f"{amount} plus{said[len(amount) :]}" if amount and said.startswith(amount) else f"{said} plus"
    return f"{QUALIFIERS[form.sign]} {say(form.what, british)}"


for _form, _reading in calendar.READINGS.items():
    _say.register(_form, _reading)


@_say.register
def _(form: Telephone, british: bool) -> str:
    return telephone(form)


@_say.register
def _(form: Electronic, british: bool) -> str:
    return electronic(form)


@_say.register
def _(form: Dotted, british: bool) -> str:
    if form.kind == "ip":  # "10.1.20.254": ten dot one dot twenty dot two five four; "/8": slash eight
        said = " dot ".join(_ip_part(part, british) for part in form.parts)
        return f"{said} slash {spoken.cardinal(form.suffix)}" if form.suffix else said
    said = " point ".join(spoken.cardinal(part, british) for part in form.parts)
    if form.suffix:
        said += f" {pre_release(form.suffix)}"  # "rc2": ar see two
    return f"version {said}" if form.prefix else said


def _ip_part(part: str, british: bool) -> str:
    return (
        spoken.cardinal(part, british)
        if len(part) <= 2 and not (len(part) == 2 and part[0] == "0")
        else spoken.digits(part)
    )


@_say.register
def _(form: Keys, british: bool) -> str:
    names, presses = KEYPAD_KEYS_BRITISH if british else KEYPAD_KEYS, key_presses(form)
    return " ".join(
        names[run]
        if run in names
        else spoken.cardinal(run, british)
        if said_as_number(run, presses)
        else spoken.digits(run)
        for run in presses
    )


@_say.register
def _(form: Code, british: bool) -> str:
    if form.text in LONE_SIGNS:
        return (LONE_SIGNS_BRITISH if british else LONE_SIGNS)[form.text]  # "the # key": the pound key
    said = code(form, british, _speller())
    return f"number {said}" if form.number_sign else said


@cache
def _speller() -> Speller:
    """English's speller, and a vulgar fraction's character inside a code said as its fraction ("½$")."""
    return replace(ENGLISH, symbols={**ENGLISH.symbols, **{sign: say(vulgar(sign), False) for sign in VULGAR}})


@_say.register
def _(form: Roman, british: bool) -> str:
    return f"the {spoken.ordinal(form.value).capitalize()}" if form.ordinal else spoken.cardinal(form.value, british)


@_say.register
def _(form: Address, british: bool) -> str:
    number = spoken.paired(form.number, british) if form.number else ""  # "W 42nd St": no house number
    number += f" {spoken.LETTERS[form.letter]}" if form.letter else ""
    number = f"{number} " if number else ""
    before = f"{COMPASS[form.before]} " if form.before else ""
    names = re.sub(r"\d+(?:st|nd|rd|th)", lambda name: spoken.ordinal(name.group()[:-2], british), form.names)
    street = f" {STREET_TYPES[form.street]}" if form.street else ""  # "91 S. Broadway": no type
    said = f"{number}{before}{names}{street}"  # "W 57th St": West fifty-seventh Street
    return f"{said} {COMPASS[form.after]}" if form.after else said


@_say.register
def _(form: Word, british: bool) -> str:
    return form.text


@_say.register
def _(form: Said, british: bool) -> str:
    return form.text


@_say.register
def _(form: Letters, british: bool) -> str:
    return spoken.letters(form.text)


@_say.register
def _(form: Symbol, british: bool) -> str:
    return SYMBOLS.get(form.text, "")


@_say.register
def _(form: Joined, british: bool) -> str:
    said = [said for part in form.parts if (said := say(part, british))]
    return ("-" if form.hyphens else " ").join(said)
