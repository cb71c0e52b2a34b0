"""Keys pressed on a telephone's keypad: "Dial *67", "*#06#", "#31#" (the token's core, ``tokens.KEYPAD``)."""

from __future__ import annotations

import re

from .forms import Keys
from .tokens import KEYPAD

_RUN = re.compile(r"\d+|[*#]")


def keypad(core: str) -> Keys | None:
    """ "*67", "*#06#", "#31#": a service code, its keys said as pressed."""
    return Keys(core) if KEYPAD.fullmatch(core) else None


def key_presses(keys: Keys) -> list[str]:
    """The keys' runs in order: each "*" and "#", and each run of digits ("*#06#": "*", "#", "06", "#")."""
    return _RUN.findall(keys.text)


def said_as_number(digits: str, presses: list[str]) -> bool:
    """Whether a run of digits among a code's ``presses`` is said as a number: the two digits of a star code
    ("*67": star sixty-seven, as telephone companies name them); any other run digit by digit ("*#06#", "*611")."""
    return len(digits) == 2 and digits[0] != "0" and len(presses) == 2
