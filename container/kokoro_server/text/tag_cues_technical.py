"""English rules for technical and legal text: a variable compared with a number ("x ≤ 5": x is less than or
equal to five), a web server's status ("a 503 error": five oh three), a part of a law or a contract before its
number ("Art. 15", "Sec. 3(b)"). As in ``tag_cues``, each rule starts at its word and keeps the word as written.
"""

from __future__ import annotations

import re

from .forms import Code, Dotted, Form, Joined, Letters, Number, Said, Word
from .span_rule import Reading, Rule, pattern_rule
from .words_english import COMPARISONS, NUMBERED_PARTS, UNITS

_UNIT_NAMES = "|".join(re.escape(unit) for unit in sorted(UNITS, key=len, reverse=True))


def _before(match: re.Match[str], group: str) -> Word:
    return Word(" ".join(match.string[match.start() : match.start(group)].split()))  # "returns a"


def _compared(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    number = re.sub("−", "-", match["n"])
    whole, _, fraction = number.lstrip("-").partition(".")
    amount = Number(whole, fraction or None, negative=number.startswith("-"))
    return Joined((Word(match["var"]), Said(COMPARISONS[match["sign"]]), amount))


def _status(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    if int(match["code"]) not in _STATUSES:
        return None  # "a 250 page report", "a 450 mile range": counts, not a server's status
    return Joined((_before(match, "code"), Code(match["code"], "paired")))


_STATUSES = frozenset({100, 101, 200, 201, 202, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 402, 403, 404, 405,
                       406, 408, 409, 410, 411, 412, 413, 414, 415, 416, 418, 422, 425, 426, 428, 429, 431, 451, 500,
                       501, 502, 503, 504, 505, 507, 508, 511})  # fmt: skip


# "a 503 error", "the 301 redirect": a web server's status before the word that names it
STATUS = pattern_rule(r"(?P<code>[1-5]\d\d)(?=\s(?i:error|status|response|redirect)\b)", _status)


def _numbered_part(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "Art. 15", "Sec. 4.12": Article fifteen, Section four point twelve (a section's parts, not a decimal)."""
    parts = tuple(match["n"].split("."))
    number: Form = Dotted(parts, "version") if len(parts) > 1 else Number(match["n"])
    sub = match["sub"]
    said = (Said(NUMBERED_PARTS[match["part"]]), number)
    if sub:  # "Sec. 3(b)": section three b
        return Joined((*said, Letters(sub) if sub.isalpha() else Number(sub)))
    return Joined(said)


def _form_number(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "Form 1040", "§ 1983", "Section 1031": a form's or a statute's number of four digits, said in pairs as
    people name them ("ten forty", "nineteen eighty-three"), with its letters ("1099-NEC"). A form is named with a
    capital ("they form 1234 groups" is the verb)."""
    word = match["word"]
    said: list[Form] = [Said("section") if word == "§" else Word(word), Code(match["n"], "paired")]
    if match["suffix"]:
        said.append(Letters(match["suffix"]))
    return Joined(tuple(said))


def technical_rules() -> dict[str, tuple[Rule, ...]]:
    """The rules above that start at a word, by the word in lower case."""
    rules: dict[str, list[Rule]] = {}

    def add(words: str | list[str], rule: Rule) -> None:
        for word in words.split("|") if isinstance(words, str) else words:
            rules.setdefault(word.lower().rstrip("."), []).append(rule)

    add(  # "x ≤ 5": a variable compared with a number, as algebra says it
        list("abcdefghijklmnopqrstuvwxyz"),
        pattern_rule(
            r"(?P<var>(?![IaA]\b)[A-Za-z]) ?(?P<sign>[<>≤≥≠]|<=|>=|!=) ?(?P<n>[-−]?\d{1,9}(?:\.\d{1,6})?)"
            rf"(?![\w.,]\d|\s?(?:°|%|(?:{_UNIT_NAMES})\b))",  # "T > 30 °C", "t > 100 ms": a measure, read as one
            _compared,
        ),
    )
    add(  # "it returns a 404": a web server's status, said as its digits
        "returns|returned|return|throws|threw|gives|gave|got|get|gets|hit|hits|shows|showed|sends|sent",
        pattern_rule(r"(?P<verb>[A-Za-z]+) an? (?P<code>[45]\d\d)(?![\w-]|[.,]\d)", _status),
    )
    add(
        [f"{part}." for part in NUMBERED_PARTS],
        pattern_rule(
            rf"(?P<part>{'|'.join(NUMBERED_PARTS)})\.\s?(?P<n>\d{{1,4}}(?:\.\d{{1,3}}){{0,3}})"
            rf"(?:\((?P<sub>[a-z]|\d{{1,2}})\))?(?![\w-])",
            _numbered_part,
        ),
    )
    add(
        "form|§|section",
        pattern_rule(
            r"(?P<word>Form|§|(?i:section))\s?(?P<n>[1-9]\d{3})(?:-(?P<suffix>[A-Z]{1,4}))?(?![\w-]|[.,]\d)",
            _form_number,
        ),
    )
    return {word: tuple(found) for word, found in rules.items()}
