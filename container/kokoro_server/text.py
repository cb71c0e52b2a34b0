"""What of a text gets spoken: characters a voice cannot say are removed before G2P.

espeak-ng reads emoji by name ("party popper") and, in English, any Chinese character as
"Chinese letter"; a voice agent should say neither. Control characters become spaces.
"""

from __future__ import annotations

import unicodedata

from .normalize import normalize

# Scripts an English espeak-ng voice reads as "<script> letter" instead of a word.
_FOREIGN_TO_ENGLISH = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "ARABIC", "HEBREW", "DEVANAGARI", "THAI")
_INVISIBLE = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3"}  # joiners and emoji presentation selectors


def _keep(char: str, english: bool) -> bool:
    category = unicodedata.category(char)
    if char in _INVISIBLE or category in ("So", "Sk", "Cs", "Co", "Cn"):
        return False
    if english and char.isalpha() and not char.isascii():
        return not unicodedata.name(char, "").startswith(_FOREIGN_TO_ENGLISH)
    return True


def speakable(text: str, language: str) -> str:
    """``text`` without emoji, symbols and (for English) characters of other scripts."""
    english = language.startswith("en")
    cleaned = (" " if unicodedata.category(c) == "Cc" else c for c in text)
    return "".join(c for c in cleaned if _keep(c, english))


def said_text(text: str, language: str, normalized: bool = True) -> str:
    """What a voice of ``language`` says for ``text``: normalized (amounts, dates… in words), then speakable.

    Normalized first: the "°" of "72°F" is a symbol that ``speakable`` would drop.
    """
    return speakable(normalize(text, language) if normalized else text, language)
