"""How an English rule of the normalizer is written and applied: a pattern, and a function that says what it
matched for an American (``british=False``) or a British voice.

Each rule replaces only what it matched, once over the text: linear in its length. What a rule cannot say
(a form too long or malformed for it) is left as written, for the next rule or for G2P.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import partial

# A sentence's end follows: a rule whose short form ends in a dot keeps it as the full stop there.
SENTENCE_ENDS = r"(?P<end>(?=\s*$)|(?=\s+(?-i:[A-Z])|\s+[\"“]))?"
Say = Callable[[re.Match[str], bool], str]
Rule = tuple[re.Pattern[str], Say]


def apply(rules: Iterable[Rule], text: str, british: bool) -> str:
    """``text`` with every rule applied in order."""
    for pattern, say in rules:
        text = pattern.sub(partial(_say_or_keep, say, british), text)
    return text


def _say_or_keep(say: Say, british: bool, match: re.Match[str]) -> str:
    try:
        return say(match, british)
    except (ArithmeticError, ValueError, KeyError):
        return match.group()  # a form no rule can say (a 5000-digit number): left as written
