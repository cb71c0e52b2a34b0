"""Numbers as Spanish, French, Italian and Brazilian Portuguese write them ("1.500", "3,5", "1 500", and "3.5"
as agents often write it), and in their words (num2words; keyed by num2words' language code)."""

from __future__ import annotations

import re
from decimal import Decimal

from num2words import num2words

MAX_DIGITS = 15  # longer numbers are left as written (an account number, not an amount)
DECIMAL_WORD = {"es": "coma", "fr": "virgule", "it": "virgola", "pt_BR": "vírgula"}


def written_value(written: str) -> Decimal:
    """ "1.500" -> 1500, "3,5" -> 3.5, "3.5" -> 3.5; a ValueError past MAX_DIGITS digits."""
    if "," not in written and re.fullmatch(r"\d+\.\d{1,2}", written):
        return Decimal(written)  # a decimal point
    digits = re.sub(r"[.\u00a0\u202f ]", "", written).replace(",", ".")
    if len(digits.replace(".", "")) > MAX_DIGITS:
        raise ValueError(written)
    return Decimal(digits)


def number_words(number: Decimal | int, lang: str) -> str:
    """A number in the words of ``lang``: 1500 -> "mil quinientos", 3.5 -> "tres coma cinco"."""
    if isinstance(number, Decimal) and number == number.to_integral_value():
        number = int(number)
    if isinstance(number, int):
        return str(num2words(number, lang=lang)).replace(",", "")  # "mil, duzentos": no pause inside a number
    whole, _, decimals = format(number, "f").partition(".")
    # "3,05" is "tres coma cero cinco": the decimals are said digit by digit after a leading zero.
    said_decimals = (
        " ".join(str(num2words(int(d), lang=lang)) for d in decimals)
        if decimals.startswith("0")
        else str(num2words(int(decimals), lang=lang))
    )
    return f"{num2words(int(whole), lang=lang)} {DECIMAL_WORD[lang]} {said_decimals}"
