"""What a written span is: the classes the normalizer's tagger finds and each language's verbalizer says.

A span is one token or several ("$12.99/mo", "March 3rd, 2026", "(415) 555-0134"); its form holds what
was read from it, never how it is said: ``Money(Number("12", "99"), "USD")`` is "twelve dollars and ninety-nine
cents" to an English voice and "doce dólares con noventa y nueve centavos" to a Spanish one. Forms nest:
a range holds two quantities, a rate the quantity it divides. A span that no class reads whole is a
``Code`` (its letters, digits and signs said as what they are), never left as written.
"""

from __future__ import annotations

from dataclasses import dataclass

# The vulgar fractions as one character, and the fraction each writes.
VULGAR = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅛": "1/8", "⅜": "3/8",
          "⅝": "5/8", "⅞": "7/8", "⅙": "1/6", "⅚": "5/6"}  # fmt: skip


@dataclass(frozen=True)
class Number:
    """A cardinal or a decimal: digits without their grouping ("1,284.50" is whole "1284", fraction "50")."""

    whole: str  # "" for ".75"
    fraction: str | None = None  # the digits after the decimal mark
    negative: bool = False
    plus: bool = False  # written with a "+": "+5%"


@dataclass(frozen=True)
class Ordinal:
    value: str  # digits
    feminine: bool = False  # "2.ª"
    before_noun: bool = False  # Spanish "el 1.º día": el primer día


@dataclass(frozen=True)
class Fraction:
    top: str
    bottom: str
    whole: str | None = None  # a mixed number: "2 3/4"
    part: bool = False  # a part of what follows: "1/10 of the seats" is a tenth, never a score


def vulgar(sign: str, whole: str | None = None) -> Fraction:
    """The fraction a vulgar fraction's character writes, after its ``whole``: "¾" is three quarters, "1½" one and
    a half."""
    top, bottom = VULGAR[sign].split("/")
    return Fraction(top, bottom, whole)


@dataclass(frozen=True)
class Scaled:
    """A quantity times a named power of ten: "10k", "3.5M", "2.5 million"."""

    amount: Number
    scale: str  # "thousand", "million", "billion", "trillion"


@dataclass(frozen=True)
class Power:
    """A number to a power: "10⁸", "10^-3", "2^n"; with ``times``, a number in scientific notation
    ("3 × 10⁸", "6.02×10^23"). ``raised`` where the power is written as a superscript, whose 2 and 3 are said as a
    square and a cube ("10²")."""

    base: Number
    exponent: Number | Word
    raised: bool = False
    times: Number | None = None


Quantity = Number | Fraction | Scaled | Power


@dataclass(frozen=True)
class Money:
    amount: Quantity
    currency: str  # an ISO 4217 code
    cents: bool = False  # written in the hundredth: "75¢", "99p"
    sign: str = ""  # as written ("US$" is said "US dollars")
    before_noun: bool = False  # "a $20 gift card": said as a modifier, "a twenty-dollar gift card"


@dataclass(frozen=True)
class Percent:
    amount: Quantity


@dataclass(frozen=True)
class Measure:
    amount: Quantity
    unit: str  # a key of the language's unit table
    before_noun: bool = False  # "a 10 mg tablet": the unit said as a modifier, singular


@dataclass(frozen=True)
class Per:
    """A rate: what is counted per unit ("$29/month", "4.5%/yr", "5 mg/kg", "beats/min")."""

    what: Form
    unit: str  # a key of the language's unit table, or a word as written


@dataclass(frozen=True)
class Times:
    """A multiplier: "2x faster", "x2"; ``letter`` when said as the letter ("a 10x engineer")."""

    amount: Number
    letter: bool = False


@dataclass(frozen=True)
class Dimensions:
    sides: tuple[Number, ...]  # "1920x1080", "5 x 7"
    unit: str | None = None  # "10' x 12'": in feet
    before_noun: bool = False  # "a 10' x 12' room": a ten-by-twelve-foot room
    plural: bool = False  # "2x4s": two by fours (boards of that size)


@dataclass(frozen=True)
class FeetInches:
    """A height or a length in feet and inches: "5'4\"", "6 ft 1 in"."""

    feet: Number
    inches: Number


@dataclass(frozen=True)
class Range:
    low: Form
    high: Form
    between: bool = False  # after "between" ("entre", "tra"): "two and four", not "two to four"


@dataclass(frozen=True)
class Signed:
    """A quantity after a sign that qualifies it: "~$30" (about), "<5" (under), "≥ 18", "5+" (plus)."""

    sign: str  # "~", "≈", "<", ">", "≤", "≥", "+" (after)
    what: Form


@dataclass(frozen=True)
class Date:
    year: str | None
    month: int | None
    day: int | None
    day_first: bool = False  # said "the third of April" (British, or written that way)


@dataclass(frozen=True)
class Year:
    value: str  # four digits, or two after an apostrophe ("'69": short)
    short: bool = False


@dataclass(frozen=True)
class Decade:
    decade: str  # "90"
    century: str | None = None  # "19"
    after_article: bool = False  # Spanish "los 1980s": said "los años ochenta" without a second article


@dataclass(frozen=True)
class Time:
    hour: int
    minute: int | None = None
    second: int | None = None
    meridiem: str | None = None  # "am" or "pm"
    zone: str | None = None  # "EST"
    twenty_four: bool = False  # written with a leading zero or past 12: "09:00", "14:30"
    hundreds: bool = False  # written in four digits ("1500 UTC", "0900 hours"): said as written, "fifteen hundred"


@dataclass(frozen=True)
class Duration:
    """How long, written as a clock is ("finished in 21:34", "took 2:05:33"): minutes and seconds, or hours,
    minutes and seconds."""

    hours: int | None
    minutes: int
    seconds: int
    fraction: str | None = None  # tenths of a second and less: "1:59.4"


@dataclass(frozen=True)
class Period:
    """A quarter or half of a year, or a fiscal year: "Q3 2025", "H1", "FY2026"."""

    letter: str  # "Q", "H", or "FY" for a fiscal year
    number: int | None
    year: str | None = None  # four digits, or two ("Q1'26")


@dataclass(frozen=True)
class Telephone:
    groups: tuple[str, ...]  # digit groups as written
    plus: bool = False
    extension: str | None = None


@dataclass(frozen=True)
class Electronic:
    """An e-mail or web address, a handle or a hashtag, said sign by sign ("dot", "at", "slash")."""

    text: str
    kind: str  # "email", "url", "handle", "hashtag"


@dataclass(frozen=True)
class Dotted:
    """Numbers joined by dots that are not a decimal: a version ("v2.4.1") or an IP address."""

    parts: tuple[str, ...]
    kind: str  # "version" or "ip"
    prefix: str = ""  # "v"
    suffix: str = ""  # a version's pre-release ("4.0.0-rc2": rc2, "10.0.3b": b), an address's mask ("/8": 8)


@dataclass(frozen=True)
class Keys:
    """Keys pressed on a telephone's keypad: a service code ("*67", "*#06#", "#31#"), as written."""

    text: str


@dataclass(frozen=True)
class Code:
    """Letters, digits and signs said as what they are. ``reading``: "spelled" (letters by name, short
    numbers as numbers, longer groups digit by digit), "digits" (every digit alone: a PIN, a ZIP code), "paired"
    (as a room or a house is said: "twelve oh four"), "flight" ("UA 238": the airline, then the number)."""

    text: str
    reading: str = "spelled"
    number_sign: bool = False  # written after "#": said "number"


@dataclass(frozen=True)
class Roman:
    value: int
    ordinal: bool  # "Henry VIII": the Eighth; "Chapter IV": four


@dataclass(frozen=True)
class Address:
    number: str  # "" for a street named without one ("W 42nd St.")
    letter: str | None
    before: str | None  # a compass point's key: "N", "SW"
    names: str
    street: str  # a key of the street types; "" for a street named without one ("S. Broadway")
    after: str | None


@dataclass(frozen=True)
class Word:
    """Words said as written (a plain word, a name)."""

    text: str


@dataclass(frozen=True)
class Said:
    """Words in the voice's language that the tagger already chose (an abbreviation's, a weekday's)."""

    text: str


@dataclass(frozen=True)
class Letters:
    """Letters said one by one: an initialism ("R&D"'s R and D)."""

    text: str


@dataclass(frozen=True)
class Symbol:
    """A sign said by its name: "&" (and), "+" (plus), "=" (equals), "@" (at)."""

    text: str


@dataclass(frozen=True)
class Joined:
    """Forms said one after another: "3-day" (a number, a word), "C++", "2+2=4"; ``hyphens`` keeps the
    hyphens of a compound between its words ("three-day")."""

    parts: tuple[Form, ...]
    hyphens: bool = False


Form = (
    Number | Ordinal | Fraction | Scaled | Power | Money | Percent | Measure | Per | Times | Dimensions | FeetInches
    | Range | Signed | Date | Year | Decade | Time | Duration | Period | Telephone | Electronic | Dotted | Keys | Code
    | Roman | Address | Word | Said | Letters | Symbol | Joined
)  # fmt: skip


def separated(separator: Form, parts: list[Form]) -> Joined:
    """``parts`` said with ``separator`` between each two: "max_retries" (an underscore), "25/50/25" (a slash)."""
    said: list[Form] = []
    for part in parts:
        said += [separator, part] if said else [part]
    return Joined(tuple(said))
