"""The signs around numbers that a language's own reader leaves unsaid, in its words: for Hindi (espeak-ng
says its digits but not "₹") and Japanese (misaki says its numbers in kana but not "%").

    "कीमत ₹500 है।" → "कीमत 500 रुपये है।"     "割引は50%です。" → "割引は50パーセントです。"

Each rule is one linear pass; the digits stay for the reader to say.
"""

from __future__ import annotations

import re

_NUMBER = r"\d{1,15}(?:[.,]\d{1,6})*"
# language → (pattern, replacement)
RULES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "hi": (
        (re.compile(rf"(?:₹|Rs\.?|INR)\s?(?P<n>{_NUMBER})"), r"\g<n> रुपये"),
        (re.compile(rf"(?P<n>{_NUMBER})\s?%"), r"\g<n> प्रतिशत"),
    ),
    "ja": (
        (re.compile(rf"(?P<n>{_NUMBER})\s?[%％]"), r"\g<n>パーセント"),
        (re.compile(rf"[¥￥]\s?(?P<n>{_NUMBER})"), r"\g<n>円"),
    ),
}


def normalize_signs(text: str, language: str) -> str:
    """``text`` with its currency and percent signs in the words of ``language`` (hi, ja); others unchanged."""
    for pattern, replacement in RULES.get(language, ()):
        text = pattern.sub(replacement, text)
    return text
