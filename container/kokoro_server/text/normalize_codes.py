"""Short numbers that are not amounts: one-time codes, extensions, rooms, gates and seats.

- A code to type is said digit by digit, in its groups: "verification code 583 201" is "five eight three,
  two zero one", "PIN 0420" "zero four two zero" (single codes after "order", "PIN"… are the code rule's).
- An extension likewise: "ext. 204", "x204" after "at" or "dial" ("extension two zero four").
- A place people walk to is said as they say it aloud: "room 1204" is "room twelve oh four", "gate B12"
  "gate B twelve", "seat 14C" "seat fourteen C", "platform 9" "platform nine".
"""

from __future__ import annotations

import re

from . import spoken
from .normalize_rules import Rule
from .normalize_words import UNITS

CODE_NAMES = (
    r"(?:verification|security|access|confirmation|one-time|one time|login|sign-in|2FA)\s+code|OTP|passcode|PIN|code"
)
PLACES = (
    "room|gate|seat|platform|terminal|table|track|pier|aisle|row|bus|route|stop|door|dock|bay|ward|bed|locker"
    "|cabin|berth|stand|hall|lot|level"
)
_UNIT_NAMES = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))  # "the route is 12 km"
_EXTENSION_AFTER = "|".join(rf"(?<=\b{word} )" for word in ("at", "dial", "call", "or", "press", "to"))


def _grouped_code(match: re.Match[str], british: bool) -> str:
    groups = re.split(r"[\s-]", match["code"])
    return f"{match['word']}{match['between']}{', '.join(spoken.digits(group) for group in groups)}"


def _place(match: re.Match[str], british: bool) -> str:
    code = match["code"]
    said = re.sub(r"[A-Z]", lambda letter: f" {spoken.LETTERS[letter.group()]} ", code)
    said = re.sub(r"\d+", lambda number: f" {spoken.paired(number.group(), british)} ", said)
    return f"{match['word']}{match['between']}{' '.join(said.split())}"


RULES: list[Rule] = [
    (
        re.compile(
            rf"\b(?P<word>(?i:{CODE_NAMES}))(?P<between>(?:\s+(?:is|was))?\s*:?\s*)"
            r"(?P<code>\d{2,4}(?:[ -]\d{2,4}){1,3})(?![\w-]|[.,]\d)"
        ),
        _grouped_code,
    ),
    (
        re.compile(r"\b(?P<word>(?i:ext\.?|extension))\s?(?P<n>\d{1,6})\b"),
        lambda match, british: f"extension {spoken.digits(match['n'])}",
    ),
    (
        re.compile(rf"(?:{_EXTENSION_AFTER})x(?P<n>\d{{2,6}})\b"),
        lambda match, british: f"extension {spoken.digits(match['n'])}",
    ),
    (
        re.compile(
            rf"\b(?P<word>(?i:{PLACES}))(?P<between>\s+(?:(?i:number|no\.|#)\s*)?(?:is\s+)?)"
            rf"(?P<code>[A-Z]{{0,2}}\d{{1,4}}[A-Z]?)(?![\w-]|[.,]\d|\s?(?:{_UNIT_NAMES})\b)"
        ),
        _place,
    ),
]
