"""The parts of an American address, each read as a person says it: a house number and its street ("123 Main
St.", "W 42nd St.", "91 S. Broadway"), a unit ("Apt 4B"), a floor ("3rd Fl"), a numbered road ("County Rd 12"),
a post-office box, a state and its ZIP code ("IL 62704"). ``tag_cues_english.english_rules`` calls these rules at their
words; a house number starts ``ADDRESS``, ``COMPASS_STREET`` and ``FLOOR``, and a capitalized word ``STREET``.
"""

from __future__ import annotations

import re

from .forms import Address, Code, Form, Joined, Ordinal, Said
from .span_rule import Reading, Span, pattern_rule
from .words_english import ADDRESS_UNITS, COMPASS, NUMBERED_ROADS, STATES, STREET_TYPES


def post_office_box(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Said("P O Box"), Code(match["code"], "digits")))


def _floor(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "4th Fl.", "12th Flr": the fourth floor."""
    return Joined((Ordinal(match["n"]), Said("floor")))


def _address(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "123 Main St.", "55 W 3rd ave", "W 42nd St." (a street without its number): the street type in
    full whatever its case."""
    groups = match.groupdict()
    before = match["before"].rstrip(".") if match["before"] else None
    after = match["after"].strip().rstrip(".") if groups.get("after") else None
    names = " ".join(match["names"].split())
    street = match["type"] if match["type"] in STREET_TYPES else match["type"].capitalize()
    return Address(groups.get("number") or "", groups.get("letter"), before, names, street, after)


def address_unit(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Said(ADDRESS_UNITS[match["word"]]), Code(match["n"] + (match["letter"] or ""), "paired")))


def numbered_road(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Said(NUMBERED_ROADS[match["word"]]), Code(match["n"] + (match["letter"] or ""), "paired")))


def zip_code(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    parts: list[Form] = [Said(STATES[match["state"]]), Code(match["zip"], "digits")]
    if match["plus4"]:
        parts.append(Code(f"-{match['plus4']}", "digits"))
    return Joined(tuple(parts))


def state_after_city(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "Austin, TX", "Cambridge, MA.": a state's code after its city and a comma, said as its name."""
    city = reading.tokens[index - 1] if index > 0 else None
    if city is None or not city.trail.endswith(",") or not city.core[:1].isupper() or not city.core.isalpha():
        return None
    return Said(STATES[match["state"]])


# State codes that are also words or letters people write in capitals ("Sure, OK.", "Hey, HI!")
WORDLIKE_STATES = frozenset({"OK", "IN", "OR", "ME", "HI", "OH", "ID", "AS", "DC"})


def street_or_saint(reading: Reading, index: int) -> Span | None:
    """ "Main St." is a street; "St. Louis" a saint; "Oak Dr." a drive ("Dr. Patel" is left to the table)."""
    token = reading.tokens[index]
    if token.core not in ("St.", "Dr.", "St", "Dr"):
        return None
    before, after = reading.core(index - 1), reading.tokens[index + 1].text if index + 1 < len(reading.tokens) else ""
    named = bool(re.fullmatch(r"[A-Z][a-z]+", before)) and not _starts_sentence(reading, index - 1)
    if token.core.startswith("Dr"):
        return (
            Span(index, index, Said("Drive"), dot="end")
            if named and (not after or after[:1].islower() or after[:1] in ",;")
            else None
        )
    if named or _ordinal_name(before) or (not after[:1].isupper() and token.core == "St."):
        return Span(index, index, Said("Street"))
    if not after[:1].isupper():
        return None  # a bare "St" neither after a name nor before one: letters of a code, perhaps
    return Span(index, index, Said("Saint"), dot="never")


def _ordinal_name(word: str) -> bool:
    return re.fullmatch(r"\d{1,3}(?:st|nd|rd|th)", word) is not None  # "5th", "42nd": a numbered street


# The short forms of street types that "St" and "Dr" do not share a spelling with: "5th Ave", "Elm Blvd"
SHORT_TYPES = {short for short, full in STREET_TYPES.items() if short != full and short not in ("St", "Dr")}


def street_type(reading: Reading, index: int) -> Span | None:
    """A street type's short form after the street's name, a numbered one ("5th Ave and 42nd St.") or a
    capitalized word that does not start the sentence ("on Elm Blvd"); not a code's letters ("Sq 4")."""
    short = reading.tokens[index].core.rstrip(".")
    before = reading.core(index - 1)
    if short not in SHORT_TYPES:
        return None
    named = re.fullmatch(r"[A-Z][a-z]+", before) is not None and not _starts_sentence(reading, index - 1)
    if not named and not _ordinal_name(before):
        return None
    return Span(index, index, Said(STREET_TYPES[short]))


def _starts_sentence(reading: Reading, index: int) -> bool:
    return index <= 0 or reading.tokens[index - 1].text.endswith((".", "!", "?"))


_COMPASS = "|".join(sorted(COMPASS, key=len, reverse=True))


# Street types as written, their short forms in lower case too ("9 Orchard blvd"); not "way" or "loop", words
WRITTEN_TYPES = "|".join(
    sorted({*STREET_TYPES, *(short.lower() for short in STREET_TYPES if len(short) <= 4 and short != "Way")},
           key=len, reverse=True)
)  # fmt: skip


# "Main", "O'Farrell", "5th": a street's name, letters only (a code is no name)
_NAME = r"(?:[A-Z][^\W\d_'’-]*(?:['’-][^\W\d_]+)*|\d{1,3}(?:st|nd|rd|th))"


FLOOR = pattern_rule(r"(?P<n>\d{1,3})(?:st|nd|rd|th)\s+(?:Fl|Flr|Floor)\b\.?", _floor)


ADDRESS = pattern_rule(
    rf"(?P<number>\d{{1,5}})(?P<letter>[A-Z])?\s+(?:(?P<before>(?:{_COMPASS})\.?)\s+)?"
    rf"(?P<names>(?:{_NAME}\s+){{1,3}})(?P<type>{WRITTEN_TYPES})\b\.?(?P<after>\s+(?:{_COMPASS})\b\.?)?",
    _address,
)


def _compass_street(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Address(match["number"], None, match["before"].rstrip("."), match["names"], "", None)


# A house number and a compass point before a street named without a type: "91 S. Broadway"
COMPASS_STREET = pattern_rule(
    rf"(?P<number>\d{{1,5}})\s+(?P<before>(?-i:[NSEW]|NE|NW|SE|SW)\.?)\s+(?P<names>[A-Z][a-z]{{2,}})"
    rf"(?=[,;)]|\.?$|\s+(?:#|{'|'.join(ADDRESS_UNITS)})\b)",  # where an address goes on: not "5 E Coli samples"
    _compass_street,
)


# A compass point before a named street, no house number: "W 42nd St.", "N Main St"
STREET = pattern_rule(
    rf"(?P<before>(?:{_COMPASS})\.?)\s+(?P<names>(?:{_NAME}\s+){{1,3}})(?P<type>{WRITTEN_TYPES})\b\.?", _address
)
