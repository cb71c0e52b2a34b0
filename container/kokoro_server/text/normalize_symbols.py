"""Signs said by what is around them: "~$30" (about), "≈" (approximately), "<5" (under), "C++", "C#",
"R&D", "AT&T", "@handle", "#general", "5+ years", "+5%", "2 + 2 = 4", "Disney+".

``BEFORE_PHONES`` runs before phone numbers and e-mail addresses are said, ``AFTER_PHONES`` after ("+1 555…"
is a phone number, not "plus one"). A sign that nothing around explains is left for the rules after
("&" alone is "and", "#3" "number three").
"""

from __future__ import annotations

import re

from . import spoken
from .normalize_rules import Rule


def _letters(text: str) -> str:
    return " ".join(spoken.LETTERS[c] for c in text)


def _initials_and(match: re.Match[str], british: bool) -> str:
    # "R&D", "AT&T", "Q&A": said as letters either side of "and".
    return f"{_letters(match['left'])} and {_letters(match['right'])}"


def _handle(match: re.Match[str], british: bool) -> str:
    # "@maria_dev": at maria underscore dev, as a handle is spelled out to someone typing it.
    return "at " + match["handle"].replace("_", " underscore ").strip()


_COMPARISONS = {"<": "under", ">": "over", "≤": "at most", "≥": "at least", "<=": "at most", ">=": "at least"}

BEFORE_PHONES: list[Rule] = [
    # "~$30", "~5 min", "(~30%)": about. A tilde not before a number (a path, "~~~") is left alone.
    (re.compile(r"(?<![\w~])~\s?(?=[$€£¥]?\d)"), lambda match, british: "about "),
    # "cost ≈ $30": is approximately; "(≈ 3 hours)": approximately.
    (re.compile(r"(?<=\w )≈\s?"), lambda match, british: "is approximately "),
    (re.compile(r"≈\s?"), lambda match, british: "approximately "),
    (
        re.compile(r"(?<![<>≤≥=\w])(?P<sign><=|>=|[<>≤≥])\s?(?=[$€£¥]?\d)"),
        lambda match, british: _COMPARISONS[match["sign"]] + " ",
    ),
    (re.compile(r"\b(?P<letter>[A-Z])\+\+(?![\w+])"), lambda match, british: f"{match['letter']} plus plus"),
    (re.compile(r"\b(?P<letter>[A-G])#(?![\w#])"), lambda match, british: f"{match['letter']} sharp"),
    (re.compile(r"(?<![\w&])(?P<left>[A-Z]{1,3})\s?&\s?(?P<right>[A-Z]{1,3})(?![\w&])"), _initials_and),
]

AFTER_PHONES: list[Rule] = [
    # "@handle", "meet @ noon": at. E-mail addresses were said before.
    (re.compile(r"(?<![\w@])@(?P<handle>[A-Za-z_]\w{0,63})"), _handle),
    (re.compile(r"(?<=\s)@(?=\s)"), lambda match, british: "at"),
    (re.compile(r"(?<![\w#])#(?=[A-Za-z]\w*)"), lambda match, british: "hashtag "),
    # "5+ years": five plus years; "+5%": plus five percent; "Disney+", "A+": plus.
    (re.compile(r"(?<![\w.])(?P<value>\d{1,9})\+(?![\w+])"), lambda match, british: f"{match['value']} plus"),
    (re.compile(r"(?<![\w+])\+(?=\d)"), lambda match, british: "plus "),
    (re.compile(r"(?<=\w)\+(?![\w+])"), lambda match, british: " plus"),
    (re.compile(r"(?<=\s)\+(?=\s)"), lambda match, british: "plus"),
    (re.compile(r"(?<=[\w)] )=(?= [\w($€£-])"), lambda match, british: "equals"),
]
