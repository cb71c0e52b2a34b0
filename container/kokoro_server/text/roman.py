"""Roman numerals: their value, and the English names and words after which one is read ("Henry VIII": the
Eighth; "Chapter IV": four). The rules that read them are ``tag_roman``'; a numeral is read only where it cannot
be a word or a letter ("I" the pronoun, "Malcolm X" and "Model X" stay as written)."""

from __future__ import annotations

import re

_NUMERAL = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
MAX_LETTERS = 9  # "LXXXVIII" is 8: longer runs of numeral letters are words or noise, not numbers


def value(numeral: str) -> int:
    """ "VIII" -> 8; a ValueError for what is not a well-formed numeral ("IIII", "VX", "")."""
    if not numeral or len(numeral) > MAX_LETTERS or not _NUMERAL.fullmatch(numeral):
        raise ValueError(numeral)
    total = 0
    for letter, following in zip(numeral, numeral[1:] + " ", strict=True):
        worth = _VALUES[letter]
        total += -worth if following != " " and _VALUES[following] > worth else worth
    return total


# Names that rulers and popes bear in English, said with an ordinal after them (not Malcolm: "Malcolm X").
RULERS = (
    "Henry Edward George William Elizabeth Charles James Richard Louis Mary Victoria John Paul Pius Benedict "
    "Leo Gregory Innocent Clement Alexander Frederick Philip Peter Catherine Ferdinand Isabella Napoleon "
    "Ramesses Ptolemy Constantine Nicholas Ivan Otto Anne Francis Urban Boniface Sixtus Felipe Carlos "
    "Alfonso Juan Harald Olaf Gustaf Carl Margrethe Willem Albert Baudouin Rainier Wilhelm Ludwig Umberto "
    "Vittorio Edmund Robert David Stephen Matilda Jane Harold"
).split()
# Titles before a ruler's name: "King Charles III", "Pope Leo XIV" whatever the name.
TITLES = "King Queen Pope Emperor Empress Tsar Czar Tsarina Prince Princess Duke Sultan Pharaoh Kaiser".split()
# Words that number a part, a war or an event: the numeral after them is said as a number.
PARTS = (
    "Chapter Part Volume Vol Book Act Scene Section Article Title Phase Stage Level Type Class Grade "
    "Episode Season War Bowl Olympiad Amendment Schedule Appendix Round Tier Mark Mk Gen Series Division "
    "Psalm Canto Movement Symphony Apollo Vatican"
).split()
