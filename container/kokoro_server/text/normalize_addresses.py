"""Street addresses as people say them: "123 Main St." is "one twenty-three Main Street", "450 N. State
St." "four fifty North State Street", "1600 Pennsylvania Ave NW" "sixteen hundred Pennsylvania Avenue
Northwest", "Apt 4B" "apartment four B", "Suite 200" "suite two hundred", "Springfield, IL 62704"
"Springfield, Illinois six two seven zero four".

"St." is Street after a street's name and Saint before a name ("St. Louis"); "Dr." is Drive only in an
address (a house number before it), Doctor elsewhere (the abbreviation rule after).
"""

from __future__ import annotations

import re

from . import spoken
from .normalize_rules import Rule

STREET_TYPES = {
    "St": "Street", "Ave": "Avenue", "Av": "Avenue", "Blvd": "Boulevard", "Rd": "Road", "Ln": "Lane",
    "Ct": "Court", "Dr": "Drive", "Pl": "Place", "Pkwy": "Parkway", "Hwy": "Highway", "Ter": "Terrace",
    "Cir": "Circle", "Sq": "Square", "Way": "Way", "Street": "Street", "Avenue": "Avenue", "Road": "Road",
    "Drive": "Drive", "Lane": "Lane", "Boulevard": "Boulevard", "Court": "Court", "Place": "Place",
}  # fmt: skip
COMPASS = {
    "N": "North", "S": "South", "E": "East", "W": "West",
    "NE": "Northeast", "NW": "Northwest", "SE": "Southeast", "SW": "Southwest",
}  # fmt: skip
UNITS = {"Apt": "apartment", "Apartment": "apartment", "Suite": "suite", "Ste": "suite", "Unit": "unit",
         "Bldg": "building", "Building": "building", "Fl": "floor", "Floor": "floor"}  # fmt: skip
STATES = {
    code: name.replace("_", " ")
    for code, name in (
        pair.split("=")
        for pair in (
            "AL=Alabama AK=Alaska AZ=Arizona AR=Arkansas CA=California CO=Colorado CT=Connecticut DE=Delaware "
            "FL=Florida GA=Georgia HI=Hawaii ID=Idaho IL=Illinois IN=Indiana IA=Iowa KS=Kansas KY=Kentucky "
            "LA=Louisiana ME=Maine MD=Maryland MA=Massachusetts MI=Michigan MN=Minnesota MS=Mississippi "
            "MO=Missouri MT=Montana NE=Nebraska NV=Nevada NH=New_Hampshire NJ=New_Jersey NM=New_Mexico "
            "NY=New_York NC=North_Carolina ND=North_Dakota OH=Ohio OK=Oklahoma OR=Oregon PA=Pennsylvania "
            "RI=Rhode_Island SC=South_Carolina SD=South_Dakota TN=Tennessee TX=Texas UT=Utah VT=Vermont "
            "VA=Virginia WA=Washington WV=West_Virginia WI=Wisconsin WY=Wyoming DC=D_C"
        ).split()
    )
}

_COMPASS = "|".join(sorted(COMPASS, key=len, reverse=True))
_TYPES = "|".join(sorted(STREET_TYPES, key=len, reverse=True))
_NAME = r"(?:[A-Z][\w'’-]*|\d{1,3}(?:st|nd|rd|th))"  # "Main", "O'Farrell", "5th"
# How far back the Saint-or-Street rule looks for a sentence's end: bounded, so many matches cost linear time.
_CONTEXT = 64
_SENTENCE_END = re.compile(r"[.!?]\s+\Z")


def _compass(written: str | None) -> str:
    return f"{COMPASS[written.rstrip('.')]} " if written else ""


def _address(match: re.Match[str], british: bool) -> str:
    names = " ".join(match["names"].split())
    number = spoken.paired(match["number"], british) + (
        f" {spoken.LETTERS[match['letter']]}" if match["letter"] else ""
    )
    said = f"{number} {_compass(match['before'])}{names} {STREET_TYPES[match['type']]}"
    if match["after"]:
        said += " " + COMPASS[match["after"].strip().rstrip(".")]
    # The abbreviation's dot may also end the sentence: keep a full stop where it does.
    return said + "." if match.group().endswith(".") and match["end"] is not None else said


def _unit(match: re.Match[str], british: bool) -> str:
    letter = f" {spoken.LETTERS[match['letter']]}" if match["letter"] else ""
    return f"{UNITS[match['word']]} {spoken.paired(match['n'], british)}{letter}"


def _zip(match: re.Match[str], british: bool) -> str:
    extra = f", {spoken.digits(match['plus4'])}" if match["plus4"] else ""
    return f"{STATES[match['state']]} {spoken.digits(match['zip'])}{extra}"


def _street_or_saint(match: re.Match[str], british: bool) -> str:
    before = match.group("before") or ""
    capital_after = match.group("capital_after") is not None
    at_end = match.group("last") is not None
    start = match.start()  # the name before "St." is a sentence's first word: at the start, or after its end
    first_word = before and (not start or _SENTENCE_END.search(match.string, max(0, start - _CONTEXT), start))
    if before and not first_word:  # "Main St." is a street; a capital after it starts the next sentence
        return f"{before}Street{'.' if capital_after or at_end else ''}"
    if capital_after:  # "Visit St. Louis": the sentence's first word does not name a street
        return f"{before}Saint"
    return f"{before}Street{'.' if at_end else ''}"


RULES: list[Rule] = [
    (
        re.compile(
            rf"(?<![\w.,-])(?P<number>\d{{1,5}})(?P<letter>[A-Z])?\s+(?:(?P<before>(?:{_COMPASS})\.?)\s+)?"
            rf"(?P<names>(?:{_NAME}\s+){{1,3}})(?P<type>{_TYPES})\b\.?"
            rf"(?P<after>\s+(?:{_COMPASS})\b\.?)?(?P<end>(?=\s*$)|(?=\s+(?!(?:{'|'.join(UNITS)})\b)[A-Z]))?"
        ),
        _address,
    ),
    (
        re.compile(rf"\b(?P<word>{'|'.join(UNITS)})\.?\s?#?\s?(?P<n>\d{{1,5}})(?P<letter>[A-Z])?(?![\w-])"),
        _unit,
    ),
    (re.compile(rf"\b(?P<state>{'|'.join(STATES)}),?\s+(?P<zip>\d{{5}})(?:-(?P<plus4>\d{{4}}))?(?![\w-])"), _zip),
]

# After the rules that read numbers: "St." between words; "Oak Dr. after the light" is a street ("Dr. Patel",
# a name after it, is left to the abbreviation rule: Doctor).
DRIVE: Rule = (
    re.compile(r"(?P<name>\b[A-Z][a-z]+ )Dr\.(?=\s+[a-z]|[,;]|(?P<last>\s*\Z))"),
    lambda match, british: f"{match['name']}Drive{'.' if match['last'] is not None else ''}",
)
STREET_OR_SAINT: Rule = (
    re.compile(r"(?P<before>\b[A-Z][a-z]+\s+)?\bSt\.(?P<capital_after>(?=\s+[A-Z]))?(?P<last>(?=\s*\Z))?"),
    _street_or_saint,
)
