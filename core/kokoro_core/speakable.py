"""What of a text a voice can say, and whether it holds anything: the one rule of the client and the server.

A voice says letters, digits and punctuation; an English voice skips the letters of scripts espeak-ng
would read as "<script> letter" (their digits are still said); emoji and symbols are never said
(``speakable``). The client skips a sentence with nothing to say instead of sending it; the server refuses
such a text before any work (``nothing_to_speak``); both ask ``has_speech``, which agrees with ``speakable``.
"""

from __future__ import annotations

import re
import unicodedata

# Kokoro voice names start with a letter for the language; espeak-ng speaks each of them.
LANGUAGES = {
    "a": "en-us",
    "b": "en-gb",
    "e": "es",
    "f": "fr-fr",
    "h": "hi",
    "i": "it",
    "j": "ja",
    "p": "pt-br",
    "z": "cmn",
}

# Scripts an English espeak-ng voice reads as "<script> letter" instead of a word: Chinese, Japanese,
# Korean, Arabic, Hebrew, Devanagari and Thai (their Unicode blocks, half-width forms included).
FOREIGN_TO_ENGLISH = (
    "\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\u0900-\u097f\u0e00-\u0e7f\u1100-\u11ff"
    "\u2e80-\u2fdf\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua8e0-\ua8ff"
    "\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufb1d-\ufdff\ufe70-\ufeff\uff66-\uffdc\U00020000-\U0003134f"
)
_FOREIGN = re.compile(f"[{FOREIGN_TO_ENGLISH}]")
_INVISIBLE = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3"}  # joiners and emoji presentation selectors
# A letter or digit a voice says (C-speed, so a long text is checked without a loop in Python).
_SAID_BY_ENGLISH = re.compile(f"(?![{FOREIGN_TO_ENGLISH}])[^\\W_]|(?=[{FOREIGN_TO_ENGLISH}])\\d")
# Scripts whose own language's reader the server has (Chinese characters, kana, Devanagari): an English voice
# reads a span in them with that reader unless asked to skip it (``foreign_script``).
HAN_KANA = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
DEVANAGARI = "\u0900-\u097f\ua8e0-\ua8ff"
READ_BY_THEIR_READERS = HAN_KANA + DEVANAGARI
_SAID_BY_ENGLISH_AND_READERS = re.compile(
    f"(?![{FOREIGN_TO_ENGLISH}])[^\\W_]|[{READ_BY_THEIR_READERS}]|(?=[{FOREIGN_TO_ENGLISH}])\\d"
)
_SAID = re.compile(r"[^\W_]")


def language_of(voice: str) -> str:
    """The espeak-ng language of a Kokoro voice (its first letter); American English if unknown."""
    return LANGUAGES.get(voice.lstrip()[:1], "en-us")


def has_speech(text: str, language: str | None = None, foreign_script: str = "read") -> bool:
    """Whether a voice of ``language`` finds a letter or digit to say in ``text``; with no language (the
    voice is not known yet), whether any voice would. An English voice reads Chinese, Japanese and Devanagari
    letters with their own readers (``foreign_script="read"``) or skips them (``"skip"``)."""
    if language is None or not language.startswith("en"):
        return _SAID.search(text) is not None
    said = _SAID_BY_ENGLISH_AND_READERS if foreign_script == "read" else _SAID_BY_ENGLISH
    return said.search(text) is not None


def speakable(text: str, language: str) -> str:
    """``text`` without emoji, symbols and (for English) letters of other scripts; control characters
    become spaces."""
    english = language.startswith("en")
    cleaned = (" " if unicodedata.category(c) == "Cc" else c for c in text)
    return "".join(c for c in cleaned if _kept(c, english))


def _kept(char: str, english: bool) -> bool:
    if char in _INVISIBLE or unicodedata.category(char) in ("So", "Sk", "Cs", "Co", "Cn"):
        return False
    return not (english and char.isalpha() and _FOREIGN.match(char))
