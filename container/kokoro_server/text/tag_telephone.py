"""Telephone numbers, one home for the class: a token read whole ("1-800-555-0199", "(555)123-4567",
"+44-20-7946-0958", a vanity number "1-800-FLOWERS") and a number written in groups apart ("(415) 555-0134",
"+44 20 7946 0958", with its extension), and the shapes only one country writes ("(11) 3456-7890" in Brazil,
"612 34 56 78" in Spain). ``tag_token.classify`` asks for the first; ``tag_spans`` holds the rule that reads the
second at a number, and ``tag_cues_romance`` the national ones of its languages.
"""

from __future__ import annotations

import re

from .forms import Form, Joined, Telephone, Word
from .span_rule import Reading, Rule, pattern_rule

_PHONE = re.compile(
    r"(?P<plus>\+)?(?:(?P<country>\d{1,3})[-.]|(?P<country2>\d{1,3})(?=\())?(?:\((?P<area1>\d{3})\)|(?P<area2>\d{3}))[-.]?"
    r"(?P<exchange>\d{3})[-.](?P<line>\d{4})"
    r"|(?P<local>[2-9]\d{2}-\d{4})"
    r"|(?P<intl>\+\d{1,3}(?:[-.]\d{1,4}){2,5})"
)


# A toll-free number spelled as words ("1-800-FLOWERS", "1-888-GET-HELP"): the word is said, not its letters.
_VANITY = re.compile(r"(?P<one>1-)?(?P<prefix>8(?:00|33|44|55|66|77|88))-(?P<word>[A-Z]{2,10}(?:-[A-Z]{1,10}){0,3})")


def telephone(core: str) -> Form | None:
    if (vanity := _VANITY.fullmatch(core)) is not None and sum(c.isalpha() for c in vanity["word"]) >= 4:
        number = Telephone(("1", vanity["prefix"]) if vanity["one"] else (vanity["prefix"],))
        return Joined((number, Word(vanity["word"].lower().replace("-", " "))))
    match = _PHONE.fullmatch(core)
    if match is None:
        return None
    groups = tuple(re.findall(r"\d+", core))
    return Telephone(groups, plus=core.startswith("+"))


# Telephone numbers in groups: "(415) 555-0134", "+44 20 7946 0958", "1 800 555 0199", "0161 496 0000",
# with an extension: "ext. 12", "x 7", ", extension 3021".
_EXTENSION = r"(?:,?\s{0,2}(?:x|ext\.?|extension)\s{0,2}(?P<ext>\d{1,6}))?"


PHONE = (
    r"(?P<number>\+\d{1,3}(?:[\s.-]{1,2}\(?\d{1,5}\)?){1,5}"
    r"|(?:1[\s.-])?\(\d{3}\)\s?\d{3}[\s.-]\d{4}|(?:1\s)?\d{3}\s\d{3}\s\d{4}|0\d{1,4}\s\d{3,4}\s\d{3,4}|0\d{3,4}\s\d{6,7}"
    r"|\(0?\d{2}\)\s?\d{4,5}[\s.-]\d{4})" + _EXTENSION  # "02 1234 5678", "(11) 98765-4321"
)


def spaced_phone(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    groups = tuple(re.findall(r"\d+", match["number"]))
    if sum(map(len, groups)) < 7:
        return None
    return Telephone(groups, plus=match["number"].startswith("+"), extension=match["ext"])


# By country (ISO 3166): the telephone numbers only that country writes so.
NATIONAL_PHONES: dict[str, tuple[Rule, ...]] = {
    # "(11) 3456-7890", "98765-4321": a Brazilian number, its area code in brackets; not "2020-2024"
    "BR": (
        pattern_rule(
            r"(?:\((?P<area>\d{2})\)\s?(?P<a>9?\d{4})|(?P<a2>9\d{4}))-(?P<b>\d{4})",
            lambda m, r, i: Telephone(tuple(group for group in (m["area"], m["a"] or m["a2"], m["b"]) if group)),
            opens="(",
        ),
    ),
    # "900 123 456", "612 34 56 78": a Spanish telephone number, nine digits in groups
    "ES": (
        pattern_rule(
            r"(?P<number>[6789]\d{2}(?: \d{3} \d{3}| \d{2} \d{2} \d{2}))",
            lambda m, r, i: Telephone(tuple(m["number"].split())),
        ),
    ),
}
