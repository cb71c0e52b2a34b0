"""What Hindi and Japanese voices say for each form the tagger finds. Their readers say digits in their own
words (espeak-ng in Hindi; misaki's cutlet reader in Japanese, in kana), so numbers stay digits, written as the
reader reads them; what is said here are the signs and short forms around them, which the readers leave unsaid
or say wrongly: "₹500" is "500 रुपये", "50%" "50パーセント", "5-10" "5 से 10" / "5から10", "10k" "10 हज़ार" / "1万",
"km/h" "किलोमीटर प्रति घंटा" / "時速…キロ". A code's digits are spaced, so the reader says them one by one.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import cache, partial, singledispatch

from . import words_signs as words
from .forms import (
    VULGAR,
    Address,
    Code,
    Date,
    Decade,
    Dimensions,
    Dotted,
    Duration,
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
    Period,
    Range,
    Roman,
    Said,
    Scaled,
    Signed,
    Symbol,
    Telephone,
    Time,
    Times,
    Word,
    Year,
    vulgar,
)
from .say_codes import Speller, code, electronic, pre_release, telephone
from .tag_keypad import key_presses
from .tokens import sayable

_JAPANESE_MYRIADS = (("兆", 10**12), ("億", 10**8), ("万", 10**4))
_SCALE_VALUES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


def say(form: Form, language: str) -> str:
    """What a voice of ``language`` (hi, ja) says for ``form``."""
    return _say(form, language)


def verbalizer(language: str) -> Callable[[Form], str]:
    """``say`` for a voice of ``language`` ("hi", "ja")."""
    return partial(say, language=language)


def digits_of(number: Number) -> str:
    """The number as its reader reads it: digits without grouping ("1,500" -> "1500"), a decimal point."""
    sign = "-" if number.negative else ""
    whole = number.whole or "0"
    return f"{sign}{whole}.{number.fraction}" if number.fraction else f"{sign}{whole}"


def _joined(language: str, *parts: str) -> str:
    """Japanese is written without spaces, but where Latin letters or digits meet ("COVID 19"); Hindi with them."""
    said = ""
    for part in parts:
        if part:
            apart = language != "ja" or (
                said[-1:].isascii() and said[-1:].isalnum() and part[0].isascii() and part[0].isalnum()
            )
            said = f"{said} {part}" if said and apart else said + part
    return said


@singledispatch
def _say(form: Form, language: str) -> str:
    raise TypeError(f"no reading in {language} for {form!r}")


@_say.register
def _(form: Number, language: str) -> str:
    return digits_of(form)


@_say.register
def _(form: Ordinal, language: str) -> str:
    return f"第{form.value}" if language == "ja" else f"{form.value}वां"


@_say.register
def _(form: Fraction, language: str) -> str:
    whole = f"{form.whole}と" if form.whole and language == "ja" else f"{form.whole} " if form.whole else ""
    if language == "ja":
        return f"{whole}{form.bottom}分の{form.top}"
    return f"{whole}{form.top} बटा {form.bottom}"


@_say.register
def _(form: Scaled, language: str) -> str:
    if language == "ja":
        # Japanese counts by ten thousands: "10k" is "1万", "3.5M" "350万" (and the reader fails on ten digits).
        value = Decimal(digits_of(form.amount)) * _SCALE_VALUES[form.scale]
        for unit, size in _JAPANESE_MYRIADS:
            if value >= size:
                return f"{format((value / size).normalize(), 'f')}{unit}"
        return format(value.normalize(), "f")
    return f"{digits_of(form.amount)} {words.SCALES_SAID[form.scale]}"


@_say.register
def _(form: Money, language: str) -> str:
    name = words.CURRENCIES[language].get(form.currency, form.currency)
    return _joined(language, say(form.amount, language), name)


@_say.register
def _(form: Percent, language: str) -> str:
    return _joined(language, say(form.amount, language), words.PERCENT[language])


@_say.register
def _(form: Measure, language: str) -> str:
    amount = say(form.amount, language)
    if language == "ja" and form.unit == "km/h":
        return f"時速{amount}キロ"
    if language == "ja" and form.unit == "°F":
        return f"華氏{amount}度"
    return _joined(language, amount, words.UNITS[language][form.unit])


@_say.register
def _(form: Per, language: str) -> str:
    per = words.PER_SAID[language].format(words.PER_WORDS[language].get(form.unit, form.unit))
    return _joined(language, say(form.what, language), per)


@_say.register
def _(form: Times, language: str) -> str:
    return _joined(language, digits_of(form.amount), words.TIMES[language])


@_say.register
def _(form: Dimensions, language: str) -> str:
    sides = f" {words.BY[language]} ".join(digits_of(side) for side in form.sides)
    return _joined(language, sides, words.UNITS[language][form.unit]) if form.unit else sides


@_say.register
def _(form: FeetInches, language: str) -> str:
    return _joined(language, say(Measure(form.feet, "′"), language), say(Measure(form.inches, "″"), language))


@_say.register
def _(form: Range, language: str) -> str:
    low, high = form.low, form.high
    if isinstance(low, (Money, Percent, Measure)) and type(low) is type(high):
        low = low.amount
    return _joined(language, say(low, language), words.TO[language], say(high, language))


@_say.register
def _(form: Signed, language: str) -> str:
    what = say(form.what, language)
    if form.sign in ("~", "≈"):
        return f"{words.ABOUT[language]}{'' if language == 'ja' else ' '}{what}"
    said = words.COMPARED[language].get(form.sign, words.COMPARED[language][">"])
    return said.format(what)


@_say.register
def _(form: Date, language: str) -> str:
    if language == "ja":
        return "".join(
            f"{value}{sign}" for value, sign in ((form.year, "年"), (form.month, "月"), (form.day, "日")) if value
        )
    month = words.HINDI_MONTHS[form.month - 1] if form.month else None
    return " ".join(str(value) for value in (form.day, month, form.year) if value)


@_say.register
def _(form: Year, language: str) -> str:
    value = f"19{form.value}" if form.short and form.value >= "30" else f"20{form.value}" if form.short else form.value
    return f"{value}年" if language == "ja" else value


@_say.register
def _(form: Decade, language: str) -> str:
    decade = f"{form.century or '19'}{form.decade}"
    return f"{decade}年代" if language == "ja" else f"{decade} का दशक"


@_say.register
def _(form: Time, language: str) -> str:
    minutes = form.minute or 0
    if language == "ja":
        return f"{form.hour}時{minutes}分" if minutes else f"{form.hour}時"
    return f"{form.hour} बजकर {minutes} मिनट" if minutes else f"{form.hour} बजे"


@_say.register
def _(form: Duration, language: str) -> str:
    units = ("時間", "分", "秒") if language == "ja" else ("घंटे", "मिनट", "सेकंड")
    seconds = f"{form.seconds}.{form.fraction}" if form.fraction else form.seconds  # "1:29.708": 29.708秒
    values = (form.hours or 0, form.minutes, seconds)
    return " ".join(
        f"{value}{'' if language == 'ja' else ' '}{unit}" for value, unit in zip(values, units, strict=True) if value
    )


@_say.register
def _(form: Period, language: str) -> str:
    if form.letter == "FY":
        return f"{form.year}年度" if language == "ja" else f"वित्त वर्ष {form.year}"
    number, year = form.number or 1, form.year
    if language == "ja":
        if form.letter == "Q":
            return f"{year}年第{number}四半期" if year else f"第{number}四半期"
        return f"{year or ''}年{'上' if number == 1 else '下'}半期" if year else f"{'上' if number == 1 else '下'}半期"
    ordinals = "पहली दूसरी तीसरी चौथी".split()
    said = f"{ordinals[number - 1]} {'तिमाही' if form.letter == 'Q' else 'छमाही'}"
    return f"{year} की {said}" if year else said


@_say.register
def _(form: Telephone, language: str) -> str:
    return telephone(form, _speller(language))


@_say.register
def _(form: Electronic, language: str) -> str:
    return electronic(form, _speller(language))


@_say.register
def _(form: Dotted, language: str) -> str:
    said = words.POINT[language].join(form.parts) if language == "ja" else f" {words.POINT[language]} ".join(form.parts)
    if form.kind == "ip" and form.suffix:
        return f"{said} {words.SYMBOLS[language]['/']} {form.suffix}"
    return f"{said} {pre_release(form.suffix, _speller(language))}" if form.suffix else said


@_say.register
def _(form: Keys, language: str) -> str:
    return _joined(
        language, *(words.KEYPAD_KEYS[language].get(run, run) for run in key_presses(form))
    )  # digits: the reader's


@_say.register
def _(form: Code, language: str) -> str:
    said = code(form, speller=_speller(language))
    if form.number_sign:
        return f"{said}番" if language == "ja" else f"नंबर {said}"
    return said


@_say.register
def _(form: Roman, language: str) -> str:
    return str(form.value)


@_say.register
def _(form: Address, language: str) -> str:
    return f"{form.number} {form.names}"


@_say.register
def _(form: Word, language: str) -> str:
    return form.text


@_say.register
def _(form: Said, language: str) -> str:
    return form.text


@_say.register
def _(form: Letters, language: str) -> str:
    return " ".join(form.text)


@_say.register
def _(form: Symbol, language: str) -> str:
    return words.SYMBOLS[language].get(form.text, "")


@_say.register
def _(form: Joined, language: str) -> str:
    return _joined(language, *(say(part, language) for part in form.parts))


@cache
def _speller(language: str) -> Speller:
    return Speller(
        digit=lambda digit: str(int(digit)),
        number=lambda number: number,
        letter=lambda letter: letter.upper(),
        paired=lambda number: number,
        symbols=words.SYMBOLS[language] | {sign: say(vulgar(sign), language) for sign in VULGAR},
        sayable=sayable,
        address_signs=words.SYMBOLS[language],
        hashtag=words.HASHTAG[language],
        plus=words.SYMBOLS[language]["+"],
        extension=words.EXTENSION[language],
    )
