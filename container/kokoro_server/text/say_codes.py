"""What is spelled rather than read: codes, telephone numbers, e-mail and web addresses, in any language.

A code is said as what it is, run by run: letters as a word where they read as one ("SAVE20": "save
twenty"), else by their names ("TKT": "tee kay tee"); a number of one or two digits as a number, a longer one
digit by digit (``reading="digits"``: every digit alone, as a PIN or a ZIP code is said); a dash or a space
as a pause; any other sign by its name ("/" slash, "." dot, "#" number). ``reading="paired"`` says numbers as
a room or a house is said ("1204": twelve oh four), ``"flight"`` an airline's letters then its number. So
whatever a code holds, what is said is words only. Each language gives its words in a ``Speller``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import groupby

from . import spoken
from .forms import Code, Electronic, Telephone
from .tokens import sayable
from .words_english import SYMBOLS

_BREAKS = frozenset(" -–—()[]{},;:'\"")  # said as a pause between the groups of a code
_HUNDREDS = frozenset({"800", "900"})  # said "eight hundred" at a number's start; 888, 877 digit by digit


@dataclass(frozen=True)
class Speller:
    """A language's words for spelling."""

    digit: Callable[[str], str]  # "7" -> "seven"
    number: Callable[[str], str]  # "12" -> "twelve"
    letter: Callable[[str], str]  # "A" -> "ay"
    paired: Callable[[str], str]  # "1204" -> "twelve oh four"
    symbols: Mapping[str, str]  # "/" -> "slash"
    sayable: Callable[[str], bool]  # whether a run of letters is said as a word
    address_signs: Mapping[str, str]  # "." -> "dot", "-" -> "dash" in an e-mail or web address
    hashtag: str = "hashtag"
    point: str | None = None  # a dot between digits in a code ("E11.9": point); None: said as the other signs
    plus: str = "plus"
    extension: str = "extension"
    hundred: Callable[[str], str] | None = None  # "800" -> "eight hundred" (American toll-free numbers)
    year: Callable[[str], str] | None = None  # "2026" -> "twenty twenty-six"; None: said as ``paired``
    short_words: frozenset[str] = frozenset()  # two letters said as a word at an address's start ("go.acme.com")
    # letters the language reads as a word of its own wherever they stand ("Dr": docteur), said so in a code too
    abbreviations: Mapping[str, str] = field(default_factory=dict)


ENGLISH = Speller(
    digit=lambda digit: spoken.DIGITS[int(digit)],
    number=spoken.cardinal,
    letter=lambda letter: spoken.LETTERS.get(letter.upper(), letter),
    paired=spoken.paired,
    symbols=SYMBOLS | {".": "dot", "#": "number"},
    sayable=sayable,
    address_signs={".": "dot", "-": "dash", "/": "slash", ":": "colon", "?": "question mark", "_": "underscore",
                   "+": "plus", "=": "equals", "&": "and", "#": "hash", "%": "percent", "~": "tilde", "@": "at"},
    hundred=lambda group: f"{spoken.cardinal(group[0])} hundred",
    year=spoken.year,
    point="point",
    short_words=frozenset("my go me we up do so no hi be to by of or".split()),
)  # fmt: skip


_PRE_RELEASE = re.compile(r"(?P<name>[A-Za-z]{1,5})\.?(?P<n>\d{0,3})")
_PRE_RELEASE_WORDS = frozenset({"alpha", "beta", "dev", "pre"})


def pre_release(suffix: str, speller: Speller = ENGLISH) -> str:
    """A version's pre-release: "beta.3" is beta three, "rc2" ar see two, "b" bee."""
    match = _PRE_RELEASE.fullmatch(suffix)
    if match is None:
        return code(Code(suffix.upper()), speller=speller)
    name = match["name"].lower()
    said = name if name in _PRE_RELEASE_WORDS else " ".join(speller.letter(letter) for letter in name.upper())
    return f"{said} {speller.number(match['n'])}" if match["n"] else said


def runs(text: str) -> Iterator[tuple[str, str]]:
    """``text`` as runs of one kind: ("letters", "SN"), ("digits", "77"), ("space", " "), ("sign", "-"); each
    sign is a run of its own."""
    for kind, chars in groupby(text, _kind):
        if kind == "sign":
            yield from ((kind, char) for char in chars)
        else:
            yield kind, "".join(chars)


def _kind(char: str) -> str:
    if char.isalpha() or unicodedata.category(char) in ("Mn", "Mc"):  # Devanagari's vowel signs are a word's
        return "letters"
    if char.isdecimal():
        return "digits"
    return "space" if char.isspace() else "sign"


def digits(text: str, speller: Speller) -> str:
    return " ".join(speller.digit(str(int(c))) for c in text if c.isdecimal())


def letters(text: str, speller: Speller) -> str:
    return " ".join(speller.letter(c) for c in text)


def spelled(text: str, speller: Speller = ENGLISH, reading: str = "spelled") -> str:
    """``text`` said run by run (see the module's docstring); groups apart by a comma. A code of digits alone
    ("58-1193") is said digit by digit."""
    if reading == "spelled" and not any(c.isalpha() for c in text):
        reading = "digits"
    groups: list[list[str]] = [[]]
    previous, word_before = "", False
    for (kind, run), following in zip(runs(text), [*list(runs(text))[1:], ("", "")], strict=True):
        # "SAVE20", "WELCOME10": a word's number at a code's end is said as a number, even after "code"
        promo = kind == "digits" and word_before and not following[0] and len(run) <= 2 and run[0] != "0"
        word_before = kind == "letters" and len(run) >= 4 and speller.sayable(run)
        if run == "." and previous == "digits" and following[0] == "digits" and speller.point:
            groups[-1].append(speller.point)  # "E11.9": ee eleven point nine
            previous = kind
            continue
        previous = kind
        if kind == "space" or run in _BREAKS:
            if groups[-1]:
                groups.append([])
        elif kind == "digits":
            groups[-1].append(speller.number(run) if promo else _number_run(run, speller, reading))
        elif kind == "letters":
            said_run = speller.abbreviations.get(run) or (run if speller.sayable(run) else letters(run, speller))
            groups[-1].append(said_run)
        elif said := speller.symbols.get(run, ""):
            groups[-1].append(said)
    return ", ".join(" ".join(group) for group in groups if group)


def _number_run(run: str, speller: Speller, reading: str) -> str:
    if reading == "paired":
        return speller.paired(run)
    if reading == "spelled" and len(run) <= 2 and not (len(run) == 2 and run[0] == "0"):
        return speller.number(run)
    return digits(run, speller)


def code(form: Code, british: bool = False, speller: Speller = ENGLISH) -> str:
    if form.reading == "flight":
        return _flight(form.text, speller)
    if form.reading == "paired":
        said = re.sub(r"[A-Za-z]", lambda letter: f" {speller.letter(letter.group())} ", form.text.replace("-", " "))
        said = re.sub(r"\d+", lambda number: f" {speller.paired(number.group())} ", said)
        return " ".join(said.split())
    return spelled(form.text, speller, form.reading)


def _flight(text: str, speller: Speller) -> str:
    match = re.fullmatch(r"(?P<airline>[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?(?P<digits>\d{1,4})", text)
    if match is None:
        return spelled(text, speller)
    airline, number = match["airline"], match["digits"]
    said_airline = letters(airline, speller) if airline.isalpha() else spelled(airline, speller, "digits")
    if len(number) >= 3 and number[0] != "0":
        said = speller.paired(number)  # "2214": twenty-two fourteen, "2207": twenty-two oh seven, "286": two eighty-six
    else:
        said = speller.number(number) if number[0] != "0" else digits(number, speller)
    return f"{said_airline} {said}"


def telephone(form: Telephone, speller: Speller = ENGLISH) -> str:
    """Each group of the number digit by digit, groups apart by a comma; an American 800 or 900 prefix as
    "eight hundred"."""
    groups = list(form.groups)
    said: list[str] = []
    if form.plus and groups:
        said.append(f"{speller.plus} {digits(groups.pop(0), speller)}")
    for index, group in enumerate(groups):
        toll_free = speller.hundred is not None and group in _HUNDREDS and index <= 1
        said.append(speller.hundred(group) if toll_free and speller.hundred else digits(group, speller))
    words = ", ".join(said)
    if form.extension:
        words += f", {speller.extension} {digits(form.extension, speller)}"
    return words


def electronic(form: Electronic, speller: Speller = ENGLISH) -> str:
    """An address said sign by sign: "jane.doe@mail.example.org" is "jane dot doe at mail dot example dot org";
    a web address without its scheme and "www."."""
    text = form.text
    if form.kind == "hashtag":
        return f"{speller.hashtag} {_dotted(text[1:], speller, numbers=True)}"
    at = speller.address_signs["@"]
    if form.kind == "handle":
        return f"{at} {_dotted(text[1:], speller, numbers=True)}"
    if form.kind == "email":
        local, _, domain = text.partition("@")
        return f"{_dotted(local, speller)} {at} {_dotted(domain, speller, host=True)}"
    text = re.sub(r"^(?:https?|ftp)://", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^www\.", "", text, flags=re.IGNORECASE)
    host, _, path = text.partition("/")
    said = _dotted(host, speller, host=True)
    if path.strip("/"):
        said += f" {speller.address_signs['/']} {_dotted(path.rstrip('/'), speller)}"
    return said


_WORD_DOMAINS = frozenset({"co", "me"})  # two-letter top-level domains said as words ("dot co"); "dot U S"


_YEAR = re.compile(r"(?:19|20)\d\d")
_CAMEL = re.compile(r"(?<=[a-z]{2})(?=[A-Z])|(?<=[A-Z][a-z])(?=[A-Z][a-z])")  # "DaysOfCode"; not "iPhone"


def _tag_number(run: str, speller: Speller, first: bool = False) -> str:
    """A number in a hashtag or a handle, said as it is meant: "#Launch2026" a year, "#Top10" ten, "#100DaysOfCode"
    a hundred (a tag's first run counts what follows); a longer run or one with a leading zero digit by digit
    ("@bob_007")."""
    if _YEAR.fullmatch(run):
        return (speller.year or speller.paired)(run)
    counted = len(run) <= (4 if first else 2) and run[0] != "0"
    return speller.number(run) if counted else digits(run, speller)


def _dotted(text: str, speller: Speller, host: bool = False, numbers: bool = False) -> str:
    """An address's labels, signs and digits said in turn; with ``numbers`` (a hashtag, a handle), its numbers
    as numbers."""
    said = []
    pieces = list(runs(text))
    for number, (kind, run) in enumerate(pieces):
        if kind == "digits":
            said.append(_tag_number(run, speller, first=number == 0) if numbers else digits(run, speller))
        elif kind == "letters":
            # "aa.com", "hp.com": letters; "go.acme.com", "my-site.com": a word
            short_first = host and number == 0 and len(run) <= 2 and run.lower() not in speller.short_words
            country = host and number == len(pieces) - 1 and len(run) == 2 and run.lower() not in _WORD_DOMAINS
            # "dmv.ca.gov", "health.ny.gov": a state's code before its government's domain
            state = host and len(run) == 2 and [run for _, run in pieces[number + 1 :]] == [".", "gov"]
            readable = _readable_label(run, speller) and not short_first and not country and not state
            if numbers and readable:
                run = _CAMEL.sub(" ", run)  # "#BlackFriday": Black Friday
            said.append(run if readable else letters(run, speller))
        elif kind == "sign" and (name := speller.address_signs.get(run) or speller.symbols.get(run, "")):
            said.append(name)
    return " ".join(said)


def _readable_label(run: str, speller: Speller) -> bool:
    """A label of an address said as a word: any in lower case ("example", "co") but two or three letters
    without a vowel ("nz"); in capitals, as a code's letters are."""
    if run.islower():
        return len(run) > 3 or any(vowel in run for vowel in "aeiouy")
    return speller.sayable(run)
