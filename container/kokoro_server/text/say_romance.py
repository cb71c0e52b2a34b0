"""What Spanish, French, Italian and Brazilian Portuguese voices say for each form the tagger finds, in their
words (num2words says the numbers): "1.500 €" is "mil quinientos euros", "12/03/2026" "doce de marzo de dos
mil veintiséis", "15:30" "quince y treinta" ("quinze heures trente"), "Q3 2025" "tercer trimestre de dos mil
veinticinco", "Enrique VIII" "Enrique octavo".

espeak-ng, which reads these languages, takes "1.500" for a sentence's end and leaves "€" unsaid; here every
form becomes words. ``say(form, lang)`` takes num2words' language code (es, fr, it, pt_BR).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial, singledispatch

from num2words import num2words

from . import say_romance_calendar as calendar
from . import words_romance as words
from . import words_romance_cues as romance_cues
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
from .locales import ROMANCE
from .say_codes import Speller, code, digits, electronic, pre_release, telephone
from .spoken_romance import (
    HALVES,
    before_masculine_noun,
    cardinal,
    count_before_noun,
    digit,
    in_feminine,
    number_words,
)
from .tag_keypad import key_presses, said_as_number
from .tokens import sayable

_SCALE_KEYS = {"thousand": "k", "million": "M", "billion": "B", "trillion": "T"}


def say(form: Form, lang: str) -> str:
    """What a voice of ``lang`` (num2words' code: es, fr, it, pt_BR) says for ``form``."""
    return _say(form, lang)


def verbalizer(language: str) -> Callable[[Form], str]:
    """``say`` for a voice of ``language`` ("es", "fr-fr", "it", "pt-br")."""
    return partial(say, lang=ROMANCE[language])


@singledispatch
def _say(form: Form, lang: str) -> str:
    raise TypeError(f"no reading in {lang} for {form!r}")


@_say.register
def _(form: Number, lang: str) -> str:
    return number_words(form, lang)


@_say.register
def _(form: Ordinal, lang: str) -> str:
    said = str(num2words(int(form.value), lang=lang, to="ordinal"))
    if form.feminine and lang in ("es", "pt_BR", "it"):
        said = re.sub(r"o\b", "a", said)  # "2.ª": segunda
    elif form.before_noun and lang == "es" and said.endswith(("primero", "tercero")):
        said = said[:-1]  # "el primer día"
    return said


@_say.register
def _(form: Fraction, lang: str) -> str:
    top, bottom = form.top, int(form.bottom)
    whole = f"{cardinal(form.whole, lang)} {words.AND[lang]} " if form.whole else ""
    if (top, bottom) == ("1", 2):
        return f"{whole}{_HALF[lang]}" if whole else _A_HALF[lang]
    if form.whole is None and "." not in top and bottom and float(top) > bottom:
        return f"{cardinal(top, lang)} {words.OVER[lang]} {cardinal(bottom, lang)}"  # "128/82": a reading, not a part
    if "." in top or bottom == 0 or float(top) >= bottom or bottom not in words.FRACTIONS[lang]:
        integer, _, decimals = top.partition(".")  # "1.5/2": uno coma cinco sobre dos
        said_top = number_words(Number(integer, decimals or None), lang)
        return f"{whole}{said_top} {_OUT_OF[lang]} {cardinal(bottom, lang)}"
    one, many = words.FRACTIONS[lang][bottom]
    return f"{whole}{words.ONE[lang]} {one}" if top == "1" else f"{whole}{cardinal(top, lang)} {many}"


_HALF = {"es": "medio", "fr": "demi", "it": "mezzo", "pt_BR": "meio"}
_A_HALF = {"es": "un medio", "fr": "un demi", "it": "un mezzo", "pt_BR": "um meio"}
_OUT_OF = {"es": "de", "fr": "sur", "it": "su", "pt_BR": "de"}


@_say.register
def _(form: Power, lang: str) -> str:
    times = f"{say(form.times, lang)} {words.SYMBOLS[lang]['×']} " if form.times else ""
    exponent = form.exponent
    if form.raised and isinstance(exponent, Number) and not exponent.negative and exponent.whole in ("2", "3"):
        return f"{times}{say(form.base, lang)} {words.SYMBOLS[lang]['²' if exponent.whole == '2' else '³']}"
    return f"{times}{say(form.base, lang)} {words.POWER[lang]} {say(exponent, lang)}"


@_say.register
def _(form: Scaled, lang: str) -> str:
    return _scaled(form, lang)


def _scaled(form: Scaled, lang: str, currency: str | None = None) -> str:
    one, many = words.SCALES[lang][_SCALE_KEYS.get(form.scale, "B")]
    amount = form.amount
    said = one if amount.whole == "1" and not amount.fraction else f"{number_words(amount, lang)} {many}"
    if lang == "it" and many == "mila":
        said = said.replace(" mila", "mila")  # "diecimila": Italian writes thousands in one word
    if currency is None:
        return said
    if form.scale == "thousand":
        return f"{said} {currency}"
    if lang == "fr" and currency[0] in "aeiouéh":
        return f"{said} d'{currency}"  # "millions d'euros"
    return f"{said} {words.OF[lang]} {currency}"


@_say.register
def _(form: Money, lang: str) -> str:
    one, many, cent, cents = words.CURRENCIES[lang].get(form.currency) or words.CURRENCIES[lang]["USD"]
    amount = form.amount
    if isinstance(amount, Scaled):
        return _scaled(amount, lang, many)
    if not isinstance(amount, Number):
        return f"{say(amount, lang)} {many}"
    if amount.fraction is not None and len(amount.fraction) > 2:
        return f"{number_words(amount, lang)} {many}"
    sign = f"{words.MINUS[lang]} " if amount.negative else ""
    whole, hundredths = int(amount.whole or "0"), int((amount.fraction or "0").ljust(2, "0"))
    if whole and whole % 1_000_000 == 0 and not hundredths:  # "12 000 000 €": douze millions d'euros
        return sign + _scaled(Scaled(Number(str(whole // 1_000_000)), "million"), lang, many)
    said = f"{before_masculine_noun(whole, lang)} {one if whole == 1 else many}" if whole or not hundredths else ""
    if hundredths:
        cents_said = f"{before_masculine_noun(hundredths, lang)} {cent if hundredths == 1 else cents}"
        said = f"{said} {words.JOIN[lang]} {cents_said}" if said else cents_said
    return sign + said


@_say.register
def _(form: Percent, lang: str) -> str:
    return f"{say(form.amount, lang)} {words.PERCENT[lang]}"


@_say.register
def _(form: Measure, lang: str) -> str:
    one, many = words.UNIT_WORDS[lang][form.unit]
    amount = form.amount
    if isinstance(amount, Number) and amount.whole == "1" and amount.fraction is None and not amount.negative:
        return one  # "un kilómetro": the singular carries its own article-number
    if isinstance(amount, Scaled):
        return _scaled(amount, lang, many)  # "tres millones de kilómetros"
    if isinstance(amount, Fraction) and amount.bottom and "." not in amount.top:
        return _part_of_unit(amount, one, many, lang)
    said = say(amount, lang)
    if one.split(" ", 1)[0] in ("una", "uma", "une") and isinstance(amount, Number) and amount.fraction is None:
        said = in_feminine(said, lang)  # "22 h": vinte e duas horas
    elif lang == "es" and isinstance(amount, Number) and amount.fraction is None:
        said = re.sub(r"uno$", "ún" if said.endswith("veintiuno") else "un", said)  # "veintiún kilómetros"
    return f"{said} {many}"


def _part_of_unit(amount: Fraction, one: str, many: str, lang: str) -> str:
    """A part of a unit: "½ kg" medio kilo, "1 ½ h" una hora y media, "¾ l" tres cuartos de litro."""
    article, _, unit = one.partition(" ") if " " in one else ("", "", one.removeprefix("un'"))
    feminine = article in ("una", "uma", "une") or one.startswith("un'")
    if one.startswith("un'"):
        article, unit = "una", one[3:]
    half = amount.top == "1" and amount.bottom == "2"
    if half and amount.whole:
        whole = int(amount.whole)
        counted = one if whole == 1 else f"{count_before_noun(amount.whole, unit, feminine, lang)} {many}"
        half_said = HALVES[lang][feminine].split()[-1] + ("e" if lang == "fr" and feminine else "")
        return f"{counted} {words.AND[lang]} {half_said}"  # "dos horas y media", "une heure et demie"
    if amount.whole or int(amount.top) >= int(amount.bottom):
        return f"{say(amount, lang)} {many}"
    if half:
        return f"{HALVES[lang][feminine]}{'-' if lang == 'fr' else ' '}{unit}"  # "media hora", "un demi-litre"
    joiner = "d'" if lang == "fr" and unit[:1] in "aeiouéh" else f"{words.OF[lang]} "
    return f"{say(amount, lang)} {joiner}{unit}"  # "tres cuartos de litro", "un quart d'heure"


@_say.register
def _(form: Per, lang: str) -> str:
    phrase = words.PER_WORDS[lang].get(form.unit)
    if phrase is None:
        unit = words.UNIT_WORDS[lang].get(form.unit, (form.unit,))[0].split(" ", 1)[-1]  # "un kilo": kilo
        phrase = f"{words.BY[lang]} {unit}"  # "por usuario", "par utilisateur"
    return f"{say(form.what, lang)} {phrase}"


@_say.register
def _(form: Times, lang: str) -> str:
    amount = form.amount
    if amount.whole == "1" and amount.fraction is None:
        return {"es": "una vez", "fr": "une fois", "it": "una volta", "pt_BR": "uma vez"}[lang]
    said = number_words(amount, lang)
    if lang in ("pt_BR", "es"):  # "vezes", "veces" are feminine: duas vezes, veintiuna veces
        said = in_feminine(said, lang)
    return f"{said} {words.TIMES[lang]}"


@_say.register
def _(form: Dimensions, lang: str) -> str:
    sides = f" {words.BY[lang]} ".join(number_words(side, lang) for side in form.sides)
    return f"{sides} {words.UNIT_WORDS[lang][form.unit][1]}" if form.unit else sides


@_say.register
def _(form: FeetInches, lang: str) -> str:
    feet, inches = Measure(form.feet, "′"), Measure(form.inches, "″")
    return f"{say(feet, lang)} {words.AND[lang]} {say(inches, lang)}"


@_say.register
def _(form: Range, lang: str) -> str:
    low, high = form.low, form.high
    cents = isinstance(low, Money) and isinstance(low.amount, Number) and low.amount.fraction is not None
    if isinstance(low, (Money, Percent, Measure)) and type(low) is type(high) and not cents:
        low = low.amount  # "10-20 %": diez a veinte por ciento; "1,50-2,75 €" is said whole on both sides
    return f"{say(low, lang)} {words.AND[lang] if form.between else words.TO[lang]} {say(high, lang)}"


@_say.register
def _(form: Signed, lang: str) -> str:
    what = say(form.what, lang)
    if form.sign in ("~", "≈"):
        return f"{words.ABOUT[lang]} {what}"
    if form.sign in ("<", "≤", "<="):
        return f"{words.LESS_THAN[lang]} {what}"
    if form.sign == "±":
        return f"{words.PLUS[lang]} {words.MINUS[lang]} {what}"
    return f"{words.MORE_THAN[lang]} {what}"  # ">", "≥", and "5+": más de cinco


for _form, _reading in calendar.READINGS.items():
    _say.register(_form, _reading)


@_say.register
def _(form: Telephone, lang: str) -> str:
    if lang == "fr" and len(form.groups) > 2 and all(len(group) == 2 for group in form.groups):
        pairs = ", ".join(digits(g, _speller(lang)) if g.startswith("0") else cardinal(g, lang) for g in form.groups)
        return f"{words.PLUS[lang]} {pairs}" if form.plus else pairs  # "01 23 45 67 89": said in pairs
    if lang == "pt_BR" and not form.plus and len(form.groups) > 2 and re.fullmatch(r"[1-9]\d", form.groups[0]):
        rest = telephone(Telephone(form.groups[1:], extension=form.extension), _speller(lang))
        return f"{cardinal(form.groups[0], lang)}, {rest}"  # "(11) 3456-7890": the area code is "onze"
    return telephone(form, _speller(lang))


@_say.register
def _(form: Electronic, lang: str) -> str:
    return electronic(form, _speller(lang))


@_say.register
def _(form: Dotted, lang: str) -> str:
    if form.kind == "ip":
        said = f" {words.POINT[lang]} ".join(
            cardinal(part, lang) if len(part) <= 2 and part[:1] != "0" or part == "0" else digits(part, _speller(lang))
            for part in form.parts
        )
        return f"{said} {words.ADDRESS_SIGNS[lang]['/']} {cardinal(form.suffix, lang)}" if form.suffix else said
    said = f" {words.POINT[lang]} ".join(cardinal(part, lang) for part in form.parts)
    said = f"{said} {pre_release(form.suffix, _speller(lang))}" if form.suffix else said
    return f"{romance_cues.VERSION_WORDS[lang].split('|')[0]} {said}" if form.prefix else said  # "v2": versión dos


@_say.register
def _(form: Keys, lang: str) -> str:
    names, presses = words.KEYPAD_KEYS[lang], key_presses(form)
    return " ".join(
        names[run]
        if run in names
        else cardinal(run, lang)
        if said_as_number(run, presses)
        else digits(run, _speller(lang))
        for run in presses
    )


@_say.register
def _(form: Code, lang: str) -> str:
    if form.text in words.LONE_SIGNS[lang]:
        return words.LONE_SIGNS[lang][form.text]
    said = code(form, speller=_speller(lang))
    return f"{words.NUMBER_SIGN[lang]} {said}" if form.number_sign else said


@_say.register
def _(form: Roman, lang: str) -> str:
    if not form.ordinal:
        return cardinal(form.value, lang)
    return str(num2words(form.value, lang=lang, to="ordinal"))


@_say.register
def _(form: Address, lang: str) -> str:
    return f"{cardinal(form.number, lang)} {form.names}"


@_say.register
def _(form: Word, lang: str) -> str:
    return form.text


@_say.register
def _(form: Said, lang: str) -> str:
    return form.text


@_say.register
def _(form: Letters, lang: str) -> str:
    return " ".join(form.text)


@_say.register
def _(form: Symbol, lang: str) -> str:
    return words.SYMBOLS[lang].get(form.text, "")


@_say.register
def _(form: Joined, lang: str) -> str:
    said = [said for part in form.parts if (said := say(part, lang))]
    return ("-" if form.hyphens else " ").join(said)


@cache
def _speller(lang: str) -> Speller:
    return Speller(
        digit=lambda character: digit(character, lang),
        number=lambda number: cardinal(number, lang),
        letter=lambda letter: letter.upper(),  # espeak-ng says a capital alone by its name
        paired=lambda number: cardinal(number, lang),
        symbols=words.SYMBOLS[lang] | {sign: say(vulgar(sign), lang) for sign in VULGAR},
        sayable=sayable,
        address_signs=words.ADDRESS_SIGNS[lang],
        plus=words.PLUS[lang],
        extension=words.EXTENSION[lang],
        point=words.POINT[lang],
        abbreviations={
            written: said
            for written, said in (words.ADDRESS_WORDS[lang] | words.ABBREVIATIONS[lang]).items()
            if written.isalpha()
        },
    )
