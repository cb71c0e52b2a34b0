"""Words for numbers, digits and letters, as an English speaker says them (number words from num2words).

American English says "one hundred five"; British English "one hundred and five". Neither says the
commas num2words puts between groups, which would become pauses.
"""

from __future__ import annotations

from decimal import Decimal

from num2words import num2words

DIGITS = "zero one two three four five six seven eight nine".split()
# Letter names, so that "A" in a code is not read as the article "a".
LETTER_NAMES = (
    "ay bee see dee ee eff gee aitch eye jay kay el em en oh pee cue ar ess tee you vee double-you ex why zee"
)
LETTERS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", LETTER_NAMES.split(), strict=True))


def _tidy(words: str, british: bool) -> str:
    words = words.replace(",", "")
    return words if british else words.replace(" and ", " ")


MAX_CARDINAL_DIGITS = 15  # past a quadrillion nobody says a number in words: it is read digit by digit


def cardinal(number: int | str, british: bool = False) -> str:
    """ "1284" -> "one thousand two hundred eighty-four"; a leading minus is said as "minus"."""
    text = str(number).lstrip("-")
    if len(text) > MAX_CARDINAL_DIGITS:
        return ("minus " if str(number).startswith("-") else "") + digits(text)
    return _tidy(num2words(int(number)), british)


def ordinal(number: int | str, british: bool = False) -> str:
    return _tidy(num2words(int(number), to="ordinal"), british)


def decimal(text: str, british: bool = False) -> str:
    """ "3.05" -> "three point zero five": the digits after the point one by one, as people read them."""
    whole, _, fraction = text.partition(".")
    if not whole and fraction:
        return f"point {digits(fraction)}"  # ".312": point three one two
    words = cardinal(whole or "0", british)
    return f"{words} point {digits(fraction)}" if fraction else words


def number(text: str, british: bool = False) -> str:
    """A written number, with or without thousands separators and a decimal part."""
    plain = text.replace(",", "")
    return decimal(plain, british) if "." in plain else cardinal(plain, british)


def year(text: str, british: bool = False) -> str:
    """ "2026" -> "twenty twenty-six", "1905" -> "nineteen oh-five", "2005" -> "two thousand five"."""
    value = int(text)
    if 2000 <= value <= 2009 or value % 1000 == 0:
        return cardinal(value, british)
    return _tidy(num2words(value, to="year"), british)


def digits(text: str) -> str:
    """Each digit on its own: "0199" -> "zero one nine nine"."""
    return " ".join(DIGITS[int(c)] for c in text if c.isdigit())


def letters(text: str) -> str:
    """Each letter by its name: "EST" -> "ee ess tee"."""
    return " ".join(LETTERS.get(c.upper(), c) for c in text if not c.isspace())


def characters(code: str) -> str:
    """A code read character by character ("58-1193" -> "five eight, one one nine three"); dashes pause."""
    groups = [g for g in code.replace("–", "-").replace(" ", "-").split("-") if g]
    return ", ".join(" ".join(DIGITS[int(c)] if c.isdigit() else LETTERS.get(c.upper(), c) for c in g) for g in groups)


def amount(value: Decimal, british: bool = False) -> str:
    """A whole or fractional quantity: "1.5" -> "one point five", "2" -> "two"."""
    text = format(value.normalize(), "f")
    return decimal(text, british) if "." in text else cardinal(text, british)


def paired(text: str, british: bool = False) -> str:
    """A house, room or suite number as people say it: "450" -> "four fifty", "1204" -> "twelve oh four",
    "105" -> "one oh five", "200" -> "two hundred"; two digits or fewer as a number, five or more digit by digit."""
    if len(text) <= 2 and not text.startswith("0") or text == "0":
        return cardinal(text, british)
    if len(text) > 4 or text.startswith("0"):
        return digits(text)
    head, tail = text[:-2], text[-2:]
    if tail == "00":
        return cardinal(text, british) if text.endswith("000") else f"{cardinal(head, british)} hundred"
    said_tail = f"oh {cardinal(tail[1])}" if tail.startswith("0") else cardinal(tail)
    return f"{cardinal(head, british)} {said_tail}"


def plural(said: str) -> str:
    """A number's plural, as a noun: "four" -> "fours", "six" -> "sixes", "twenty" -> "twenties"."""
    return said[:-1] + "ies" if said.endswith("y") else said + "es" if said.endswith("x") else said + "s"
