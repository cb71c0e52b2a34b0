"""How numbers are said in Spanish, French, Italian and Brazilian Portuguese (num2words' words): cardinals and
decimals, a count agreeing with the noun after it ("veintiuna semanas", "un euro"), an ordinal before its noun
("tercer trimestre"). The Romance verbalizer (``say_romance``) and the Romance cue rules say numbers with these.
"""

from __future__ import annotations

import re

from num2words import num2words

from . import words_romance as words
from .forms import Number

MAX_DIGITS = 15  # longer numbers are said digit by digit (an account number, not an amount)


def cardinal(number: int | str, lang: str) -> str:
    """A whole number in words, without the commas num2words puts between groups ("mil, duzentos")."""
    text = str(number).lstrip("-")
    if len(text) > MAX_DIGITS:
        return " ".join(digit(c, lang) for c in text)
    said = str(num2words(int(text), lang=lang)).replace(",", "")
    return said.replace("dicotto", "diciotto") if lang == "it" else said  # num2words elides "centodiciotto"


def digit(character: str, lang: str) -> str:
    return str(num2words(int(character), lang=lang))


def number_words(number: Number, lang: str) -> str:
    """ "3,5" -> "tres coma cinco", "3,05" -> "tres coma cero cinco": after a leading zero, the decimals
    digit by digit."""
    sign = f"{words.MINUS[lang]} " if number.negative else f"{words.PLUS[lang]} " if number.plus else ""
    whole = number.whole or "0"
    if number.fraction is None:
        if len(whole) > 1 and whole.startswith("0"):
            return sign + " ".join(digit(c, lang) for c in whole)
        return sign + cardinal(whole, lang)
    fraction = number.fraction
    if fraction.startswith("0") or len(fraction) > MAX_DIGITS:
        said = " ".join(digit(c, lang) for c in fraction)
    else:
        said = cardinal(fraction, lang)
    return f"{sign}{cardinal(whole, lang)} {words.DECIMAL_WORD[lang]} {said}"


def before_masculine_noun(number: int, lang: str) -> str:
    """A count before a masculine noun: Spanish and Italian shorten a final "uno" ("un euro", "veintiún
    dólares", "ventun euro" is not written: Italian keeps "ventuno euro")."""
    said = cardinal(number, lang)
    if lang == "es":
        return re.sub(r"veintiuno$", "veintiún", re.sub(r"\buno$", "un", said))
    if lang == "it" and said == "uno":
        return "un"
    return said


_FEMININE_ENDS = {
    "es": ((r"uno$", "una"), (r"\bun$", "una")),
    "fr": ((r"\bun$", "une"),),
    "it": (),
    "pt_BR": ((r"\bum$", "uma"), (r"\bdois$", "duas")),
}


def in_feminine(said: str, lang: str) -> str:
    """A number's last word agreeing with a feminine noun after it: "vinte e duas", "veintiuna", "vingt et une"."""
    for pattern, ending in _FEMININE_ENDS[lang]:
        said = re.sub(pattern, ending, said)
    return said


def count_before_noun(count: str, noun: str, feminine: bool, lang: str) -> str:
    """A whole count ("21", "1.200") or a half ("½") agreeing with the noun after it: "veintiuna semanas",
    "doscientas personas", "duas xícaras", "vingt et une pages", "una compressa", "un comprimido", "media taza"."""
    if count in ("½", "1/2"):
        return HALVES[lang][feminine]
    number = int(count.replace(".", "").replace("\u202f", "").replace(" ", ""))
    said = cardinal(number, lang)
    if lang == "it":
        if number != 1:
            return said
        if feminine:
            return "un'" if noun[:1].lower() in "aeiouàèéìòù" else "una"
        return "uno" if re.match(r"(?i)s[^aeiou]|z|gn|ps|x|y|pn", noun) else "un"
    if not feminine:
        return before_masculine_noun(number, lang)
    said = in_feminine(said, lang)
    if lang in ("es", "pt_BR") and number < 1_000_000:
        said = re.sub(r"entos\b", "entas", said)  # "doscientas personas", "trezentas pessoas"
    return said


HALVES = {"es": ("medio", "media"), "fr": ("un demi", "une demi"), "it": ("mezzo", "mezza"), "pt_BR": ("meio", "meia")}


def ordinal_before_noun(number: int, lang: str) -> str:
    said = str(num2words(number, lang=lang, to="ordinal"))
    return said[:-1] if lang == "es" and said.endswith(("primero", "tercero")) else said  # tercer trimestre
