"""Multipliers, sizes and magnitude suffixes: "2x faster", "a 10x engineer", "1920x1080", "10k steps",
"3.5M users", "1.2B parameters". ("$2.5B" is money, said by the money rule.)

A listener hears "two times faster", "a ten x engineer", "nineteen twenty by ten eighty"... "k" is always
a thousand after a number; "M", "B" and "T" are a million, a billion and a trillion only where they
cannot be a letter: after a decimal ("3.5M") or before a word in lower case that counts ("10M users"); "4B"
alone or before "is", "on"… is a flat or a seat, said as a number and a letter by the rules after.
"""

from __future__ import annotations

import re

from . import spoken
from .normalize_rules import Rule

_VALUE = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,15}(?:\.\d{1,6})?"
# Words that follow a flat or a seat ("4B is free", "4B on the left"), never a count ("10M users").
_FUNCTION_WORDS = (
    "(?:is|was|are|were|and|or|on|in|at|to|of|for|with|will|can|has|had|have|be|the|a|an|it|by|from|as|if|so"
    "|but|not|no|please|here|there|now|today|next|first|instead|too|again)"
)
SCALES = {"k": "thousand", "K": "thousand", "M": "million", "B": "billion", "bn": "billion", "T": "trillion"}


def _dimensions(match: re.Match[str], british: bool) -> str:
    sides = re.split(r"\s?[x×]\s?", match.group())
    return " by ".join(_side(side, british) for side in sides)


def _side(text: str, british: bool) -> str:
    if re.fullmatch(r"[1-9]\d[1-9]0|[1-9]\d[1-9]\d", text):  # "1920", "1080": a screen size is said in pairs
        return spoken.paired(text, british)
    return spoken.number(text, british)


def _times(match: re.Match[str], british: bool) -> str:
    value = spoken.number(match["value"], british)
    # "a 10x engineer": before a noun the letter is said; "2x faster", "3x a day": times.
    return f"{match['article']}{value} x" if match["article"] else f"{value} times"


def _magnitude(match: re.Match[str], british: bool) -> str:
    return f"{spoken.number(match['value'], british)} {SCALES[match['scale']]}"


RULES: list[Rule] = [
    (re.compile(rf"(?<![\w.])(?:{_VALUE})(?:\s?[x×]\s?(?:{_VALUE})){{1,3}}(?![\w×]|\.\d)"), _dimensions),
    (
        re.compile(rf"(?P<article>\b(?:[Aa]n?|[Tt]he)\s+)?(?<![\w.])(?P<value>{_VALUE})\s?[x×](?![\w×])"),
        _times,
    ),
    (re.compile(rf"(?<![\w.])(?P<value>{_VALUE})(?P<scale>[kK]|bn)(?!\w)"), _magnitude),
    (
        re.compile(
            rf"(?<![\w.])(?P<value>\d{{1,3}}\.\d{{1,3}}|\d{{1,3}}(?=[MBT]\s+(?!{_FUNCTION_WORDS}\b)[a-z]))(?P<scale>[MBT])(?![\w'’])"
        ),
        _magnitude,
    ),
]
