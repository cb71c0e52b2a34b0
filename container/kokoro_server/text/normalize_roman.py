"""Roman numerals after names and in titles: "Henry VIII" (the Eighth), "Elizabeth II", "John Paul II",
"King Charles III", "World War II" (two), "WWII", "Chapter IV", "Super Bowl LVIII", "Rocky III".

A numeral is read only where it cannot be a word or a letter: after a ruler's name or a ruler's title (said
as an ordinal: "the Eighth"), after a word that numbers a part ("Chapter", "Part", "War", "Bowl"; said as
a number), or, two letters or more of I, V and X, after another capitalized word ("Rocky III"). "I" the
pronoun, "Malcolm X" and "Model X" stay as written. ``value`` is shared with the other languages' rules.
"""

from __future__ import annotations

import re

from . import spoken
from .normalize_rules import Rule

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

# Capitalized words that name nothing: "The IV line", "Your VIP pass" are not numbered titles.
_NOT_NAMES = (
    "(?:The|A|An|My|Your|His|Her|Its|Our|Their|This|That|These|Those|In|On|At|By|For|Of|To|And|Or|With|No|Get|Need)"
)
_RULER = rf"\b(?:{'|'.join(RULERS)})|\b(?:{'|'.join(TITLES)})\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?"
_AFTER = r"\b(?![\w'’-])"  # the numeral ends the word: "LVIII," but not "Xbox" or "IV-drip"


def _ruler(match: re.Match[str], british: bool) -> str:
    return f"{match['name']} the {spoken.ordinal(value(match['numeral'])).capitalize()}"


def _numbered(match: re.Match[str], british: bool) -> str:
    return f"{match['name']} {spoken.cardinal(value(match['numeral']), british)}"


RULES: list[Rule] = [
    (
        re.compile(r"\bWW(?P<numeral>I{1,2})\b"),
        lambda match, british: f"World War {spoken.cardinal(len(match['numeral'])).capitalize()}",
    ),
    (re.compile(rf"(?P<name>{_RULER})\s+(?P<numeral>[IVXLC]{{1,{MAX_LETTERS}}}){_AFTER}"), _ruler),
    (
        re.compile(rf"(?P<name>\b(?:{'|'.join(PARTS)})\.?)\s+(?P<numeral>[IVXLCDM]{{1,{MAX_LETTERS}}}){_AFTER}"),
        _numbered,
    ),
    (
        re.compile(rf"(?P<name>\b(?!{_NOT_NAMES}\b)[A-Z][\w'’]*[a-z])\s+(?P<numeral>[IVX]{{2,{MAX_LETTERS}}}){_AFTER}"),
        _numbered,
    ),
]
