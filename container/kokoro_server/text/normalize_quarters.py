"""Quarters, halves and fiscal years as a business reply writes them: "Q3", "Q4 2025", "Q1'26", "FY2026",
"FY26", "H1 2025", "1H". Said as people say them in a meeting: "Q three", "Q four twenty twenty-five",
"fiscal year twenty twenty-six", "H one twenty twenty-five".

"H1" or "H2" alone may be a heading or a visa; only before a year or after "in", "for", "the" and the like
is it a half.
"""

from __future__ import annotations

import re

from . import spoken
from .normalize_rules import Rule

_YEAR = r"(?:\s(?P<year>(?:19|20)\d\d)\b|\s?['’](?P<short>\d\d)\b|\s(?P<fy>FY\s?(?:\d{4}|\d\d))\b)?"


# Words after which "H1" is a half of the year (each its own look-behind: look-behinds have a fixed width).
_AFTER_WORDS = "|".join(rf"(?<=\b{word} )" for word in "in for the of by during from to and our this last next".split())


def _year(match: re.Match[str], british: bool) -> str:
    if match["year"]:
        return " " + spoken.year(match["year"], british)
    if match["short"]:
        return " " + spoken.paired(match["short"], british)
    return " " + _fiscal_year(match["fy"], british) if match["fy"] else ""


def _fiscal_year(written: str, british: bool) -> str:
    digits = written[2:].strip()
    said = spoken.year(digits, british) if len(digits) == 4 else spoken.paired(digits, british)
    return f"fiscal year {said}"


def _period(match: re.Match[str], british: bool) -> str:
    return f"{match['letter']} {spoken.cardinal(match['n'])}{_year(match, british)}"


RULES: list[Rule] = [
    (re.compile(rf"\b(?P<letter>Q)(?P<n>[1-4])\b{_YEAR}"), _period),
    (re.compile(rf"\b(?P<n>[1-4])(?P<letter>Q)\b{_YEAR}"), _period),  # "1Q 2026", as some reports write it
    (
        re.compile(
            rf"(?:{_AFTER_WORDS}|(?=H[12]\s?(?:['’]\d\d|\d{{4}}|FY)))"
            rf"\b(?P<letter>H)(?P<n>[12])\b{_YEAR}",
            re.IGNORECASE,
        ),
        _period,
    ),
    (re.compile(r"\bFY\s?(?:\d{4}|\d\d)\b"), lambda match, british: _fiscal_year(match.group(), british)),
]
