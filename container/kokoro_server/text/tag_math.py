"""What is typed as code or mathematics, by its shape: sums and settings ("10-4=6", "PORT=3000"), powers and
scientific notation ("2^10", "10⁸", "6.02×10^23"), terms of algebra ("x²", "πr²"), names from code
("max_retries"), a package at its version ("react@18.2.0"), an oil's grade ("5W-30"). Each is one bounded
pattern matched on the whole token (``tag_token.classify`` asks for them in its order).
"""

from __future__ import annotations

import re

from .forms import Code, Dotted, Form, Joined, Letters, Number, Power, Said, Symbol, Word, separated
from .locales import Locale
from .tag_shapes import plain_number, shaped

# A sum as written: numbers and operators, then "=" and its result ("10-4=6", "3 × 4 = 12"). The "=" decides
# that "-" is minus, not a range's "to", and "x" times, not "by".
_OPERAND = r"\d{1,7}(?:\.\d{1,4})?"


_SUM = re.compile(rf"{_OPERAND}(?:\s?[-−+*×x/÷]\s?{_OPERAND}){{1,4}}\s?=\s?\d{{1,9}}(?:\.\d{{1,4}})?")


_OPERATORS = {"-": "minus", "−": "minus", "+": "plus", "*": "times", "×": "times", "x": "times", "/": "divided by",
              "÷": "divided by"}  # fmt: skip


_PART = re.compile(r"\d{1,9}(?:\.\d{1,4})?|[-−+*×x/÷=]")


SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


_NUMBER = r"\d{1,7}(?:[.,]\d{1,4})?"


_POWER = re.compile(
    rf"(?:(?P<times>{_NUMBER})[×x·*]|(?P<sign>[×·]))?(?P<base>{_NUMBER})"
    rf"(?:\^(?P<exponent>[-−]?\d{{1,3}}|[a-z])|(?P<raised>[⁻⁺]?[{SUPERSCRIPTS}]{{1,3}}))"
)


def power(text: str, locale: Locale) -> Form | None:
    """ "2^10", "10^-3", "2^n", "10⁸", "10⁻³": a number to a power; "6.02×10^23", "3x10⁸": in scientific notation.
    Hindi's and Japanese's readers read it as written."""
    match = _POWER.fullmatch(text) if locale.habits.powers else None
    if match is None or ((match["times"] or match["sign"]) and not match["base"].startswith("10")):
        return None
    if "," in match.group() and not locale.decimal_comma:
        return None  # "1,000^2": a thousand's comma, not a decimal
    exponent: Number | Word
    if match["raised"]:
        written = match["raised"].translate(str.maketrans(SUPERSCRIPTS, "0123456789"))
        exponent = Number(written.lstrip("⁻⁺"), negative=written.startswith("⁻"))
    elif match["exponent"].isalpha():  # "back off for 2^n seconds": two to the power of n
        exponent = Word(match["exponent"])
    else:
        exponent = Number(match["exponent"].lstrip("-−"), negative=match["exponent"][0] in "-−")
    times = plain_number(match["times"].replace(",", ".")) if match["times"] else None
    said = Power(plain_number(match["base"].replace(",", ".")), exponent, raised=bool(match["raised"]), times=times)
    return Joined((Symbol("×"), said)) if match["sign"] else said  # "4.2 ×10⁵": the sign typed with the power


# "1.5e-6", "6.02e23", "3.0E8": scientific notation as calculators and code print it.
_E_NOTATION = re.compile(r"(?P<times>\d{1,3}(?:\.\d{1,6})?)(?P<e>[eE])(?P<exponent>[-+−]?\d{1,3})")


def e_notation(text: str, locale: Locale) -> Form | None:
    """ "1.5e-6": one point five times ten to the power of minus six; "12E34" without a point or a sign stays a
    code (a part, a seat)."""
    match = _E_NOTATION.fullmatch(text) if locale.habits.powers else None
    if match is None or (match["e"] == "E" and "." not in match["times"] and match["exponent"][0].isdigit()):
        return None
    exponent = Number(match["exponent"].lstrip("-+−"), negative=match["exponent"][0] in "-−")
    return Power(Number("10"), exponent, times=plain_number(match["times"]))


SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
_FORMULA = re.compile(rf"(?:[A-Z][a-z]?[{SUBSCRIPTS}]{{0,3}}){{1,8}}")


def formula(text: str) -> Form | None:
    """ "CO₂", "H₂O", "CH₄": a chemical formula, its elements' letters and the counts written below them (C O two)."""
    if not any(char in SUBSCRIPTS for char in text) or _FORMULA.fullmatch(text) is None:
        return None
    return Code(text.translate(str.maketrans(SUBSCRIPTS, "0123456789")))


_VARIABLE_POWER = re.compile(r"(?P<letter>[A-Za-z]{1,3})(?P<sign>[²³])")


_IDENTIFIER = re.compile(r"[A-Za-z]+(?:_[A-Za-z]+)+")


_PI_TERM = re.compile(r"(?P<k>\d{1,3})?π(?P<letter>[A-Za-z])?(?P<sign>[²³])?")


def pi_term(text: str, locale: Locale) -> Form | None:
    """ "πr²", "2πr": pi in a term of algebra ("pi greco" in Italian)."""
    match = _PI_TERM.fullmatch(text) if "π" in text and locale.habits.powers else None
    if match is None or text == "π":
        return None  # Hindi's and Japanese's readers read "πr²" as written
    parts: list[Form] = [Number(match["k"])] if match["k"] else []
    parts.append(Said(locale.habits.pi))
    if match["letter"]:
        parts.append(Word(match["letter"]))
    if match["sign"]:
        parts.append(Symbol(match["sign"]))
    return Joined(tuple(parts))


def variable_power(text: str, locale: Locale) -> Form | None:
    """ "x²", "b³", "mc²": letters squared or cubed, as algebra writes them, each letter said; "m²" alone stays a
    unit's. Hindi's and Japanese's readers read them as written."""
    match = _VARIABLE_POWER.fullmatch(text) if locale.habits.powers else None
    if match is None or locale.unit(text) is not None:
        return None
    letters = match["letter"]
    return Joined((Word(letters) if len(letters) == 1 else Letters(letters), Symbol(match["sign"])))


_VISCOSITY = re.compile(r"(?P<winter>0|5|10|15|20|25)W-?(?P<hot>\d{2})")


def viscosity(text: str) -> Form | None:
    """ "5W-30": a motor oil's grade, its winter number, the letter and its hot number ("five W thirty")."""
    match = _VISCOSITY.fullmatch(text)
    return Joined((Number(match["winter"]), Letters("W"), Number(match["hot"]))) if match else None


def identifier(text: str) -> Form | None:
    """ "max_retries", "MAX_VALUE": a name from code, said with its underscores, as a user would type it."""
    if _IDENTIFIER.fullmatch(text) is None:
        return None
    return separated(Symbol("_"), [Word(word) for word in text.split("_")])


_ASSIGNMENT = re.compile(r"(?P<key>[A-Za-z][A-Za-z0-9_]{0,40})=(?P<value>\d{1,9}(?:\.\d{1,6})?)")


# The parts of a setting's name whose value is a code, read digit by digit ("USER_ID=12345", "orderId=8812").
_CODE_KEY_PARTS = frozenset("id pin code zip phone tel key token hash otp order account acct ref sku serial".split())


def assignment(text: str) -> Form | None:
    """ "PORT=3000", "max_retries=5": a setting and its number, said as a number ("PORT equals three thousand");
    an identifier's or a code's value stays a code."""
    match = _ASSIGNMENT.fullmatch(text)
    parts = re.split(r"_|(?<=[a-z])(?=[A-Z])", match["key"]) if match else []
    if match is None or any(part.lower() in _CODE_KEY_PARTS for part in parts):
        return None
    written = match["key"]
    key = identifier(written) or (Word(written) if written.isalpha() and not written.isupper() else Code(written))
    whole, _, fraction = match["value"].partition(".")
    return Joined((key, Symbol("="), Number(whole, fraction or None)))


def package_version(text: str) -> Form | None:
    """ "react@18.2.0", "lodash@4.17.21": a package pinned to its version, as a package manager writes it."""
    name, at, version = text.rpartition("@")
    if not at or not re.fullmatch(r"@?[a-z][a-z0-9._/-]{0,60}", name) or name.endswith("."):
        return None
    form = shaped(version)
    return (
        Joined((Word(name) if name.isalpha() else Code(name), Symbol("@"), form)) if isinstance(form, Dotted) else None
    )


def arithmetic(text: str, locale: Locale) -> Form | None:
    """ "10-4=6", "5 - 3 = 2": a sum said with its operators' names (English only)."""
    if not locale.habits.sums or _SUM.fullmatch(text) is None:
        return None
    parts: list[Form] = []
    for part in _PART.findall(text):
        if part[0].isdigit():
            whole, _, fraction = part.partition(".")
            parts.append(Number(whole, fraction or None))
        else:
            parts.append(Said("equals" if part == "=" else _OPERATORS[part]))
    return Joined(tuple(parts))
