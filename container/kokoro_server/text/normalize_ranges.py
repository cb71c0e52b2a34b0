"""Ranges whose unit is written once, after the second number: "65-70°F", "10–20%", "3-5 GB", "2-3x",
"$10-20", "9am-5pm", "9:00-17:00". A listener hears "sixty-five to seventy degrees Fahrenheit": the dash is
said "to", and the unit is left for the rules after, which say it once.

Only a dash between two numbers followed by a unit, a sign or a clock time is a range here; "58-1193" (a
code) and "555-1234" (a phone number) have none and are left to the rules that read them.
"""

from __future__ import annotations

import re

from .normalize_rules import Rule
from .normalize_words import UNITS

_UNIT_NAMES = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_VALUE = r"\d{1,9}(?:[.,]\d{1,6})?"
_DASH = r"\s?[-–—]\s?"
_MERIDIEM = r"\s?(?:[ap]\.m\.|[ap]m\b)"
_CLOCK = r"\d{1,2}(?::[0-5]\d)?"

RULES: list[Rule] = [
    # "$10-20", "$10-$20", "$1-2M": "ten to twenty dollars", the currency said once, after the second amount.
    (
        re.compile(rf"(?<![\w.,])(?P<symbol>US\$|[$€£¥])(?P<low>{_VALUE}){_DASH}(?:(?P=symbol))?(?=\d)"),
        lambda match, british: f"{match['low']} to {match['symbol']}",
    ),
    # "9am-5pm", "9-5pm", "9:00-17:00", "9:30am-noon" : each side stays a time for the clock rules.
    (
        re.compile(
            rf"(?<![\w.,:])(?P<low>{_CLOCK}(?:{_MERIDIEM})?){_DASH}(?=(?:{_CLOCK}{_MERIDIEM}|\d{{1,2}}:[0-5]\d)(?![\d:]))",
            re.IGNORECASE,
        ),
        lambda match, british: f"{match['low']} to ",
    ),
    # "65-70°F", "10–20%", "3-5 GB", "2-3x", "10-15k": said "to", the unit after the second number.
    (
        re.compile(
            rf"(?<![\w.,-])(?P<low>{_VALUE}){_DASH}(?=\d{{1,9}}(?:[.,]\d{{1,6}})?(?:\s?(?:%|°|(?:{_UNIT_NAMES})(?![\w/]))|[xX×kKMB]\b))"
        ),
        lambda match, british: f"{match['low']} to ",
    ),
]
