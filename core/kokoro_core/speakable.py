"""Whether a text holds anything a voice can say: the one rule of the client and the server.

The client skips a sentence with nothing to say instead of sending it; the server refuses such a text
before any work (``nothing_to_speak``); both ask ``has_speech``. A voice says letters and digits; an
English voice skips the letters of scripts espeak-ng would read as "<script> letter" (its digits are
still said); emoji and symbols are never said.
"""

from __future__ import annotations

import re

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
# A letter or digit a voice says (C-speed, so a long text is checked without a loop in Python).
_SAID_BY_ENGLISH = re.compile(f"(?![{FOREIGN_TO_ENGLISH}])[^\\W_]|(?=[{FOREIGN_TO_ENGLISH}])\\d")
_SAID = re.compile(r"[^\W_]")


def language_of(voice: str) -> str:
    """The espeak-ng language of a Kokoro voice (its first letter); American English if unknown."""
    return LANGUAGES.get(voice[:1], "en-us")


def has_speech(text: str, language: str | None = None) -> bool:
    """Whether a voice of ``language`` finds a letter or digit to say in ``text``; with no language (the
    voice is not known yet), whether any voice would."""
    said = _SAID_BY_ENGLISH if language is not None and language.startswith("en") else _SAID
    return said.search(text) is not None
