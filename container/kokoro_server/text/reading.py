"""What of a text gets spoken: characters a voice cannot say are removed before G2P.

espeak-ng reads emoji by name ("party popper") and, in English, any Chinese character as
"Chinese letter"; a voice agent should say neither. Control characters become spaces.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from kokoro_core.lexicon import NO_LEXICON, Lexicon, unmasked
from kokoro_core.segmenter import WIDE_LETTERS

from .normalize import normalize

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


def language_of(voice: str) -> str:
    """The espeak-ng language of a Kokoro voice (its first letter); American English if unknown."""
    return LANGUAGES.get(voice[:1], "en-us")


# Scripts an English espeak-ng voice reads as "<script> letter" instead of a word: Chinese, Japanese,
# Korean, Arabic, Hebrew, Devanagari and Thai (their Unicode blocks, half-width forms included).
_FOREIGN_TO_ENGLISH = (
    "\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\u0900-\u097f\u0e00-\u0e7f\u1100-\u11ff"
    "\u2e80-\u2fdf\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua8e0-\ua8ff"
    "\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufb1d-\ufdff\ufe70-\ufeff\uff66-\uffdc\U00020000-\U0003134f"
)
_FOREIGN = re.compile(f"[{_FOREIGN_TO_ENGLISH}]")
# A letter or digit a voice says (C-speed, so a long text is checked without a loop in Python).
_SAID_ALNUM = {
    True: re.compile(f"(?![{_FOREIGN_TO_ENGLISH}])[^\\W_]|(?=[{_FOREIGN_TO_ENGLISH}])\\d"),
    False: re.compile(r"[^\W_]"),
}
_INVISIBLE = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3"}  # joiners and emoji presentation selectors
_WIDE = re.compile(f"[{WIDE_LETTERS}]")
# A Chinese or Japanese letter is said as a syllable or more, so chunks and pacing count it as WIDE_WEIGHT
# Latin letters: on the embedded model a Chinese character (zf_xiaobei) lasts as long as 3.7 to 4.3 letters
# of English (af_heart), a kana about 2.
WIDE_WEIGHT = 3


def _keep(char: str, english: bool) -> bool:
    category = unicodedata.category(char)
    if char in _INVISIBLE or category in ("So", "Sk", "Cs", "Co", "Cn"):
        return False
    return not (english and char.isalpha() and _FOREIGN.match(char))


def speakable(text: str, language: str) -> str:
    """``text`` without emoji, symbols and (for English) characters of other scripts."""
    english = language.startswith("en")
    cleaned = (" " if unicodedata.category(c) == "Cc" else c for c in text)
    return "".join(c for c in cleaned if _keep(c, english))


def has_speakable(text: str, language: str) -> bool:
    """Whether a voice of ``language`` finds a letter or digit to say in ``text`` (as ``speakable`` keeps)."""
    return _SAID_ALNUM[language.startswith("en")].search(text) is not None


def said_text(text: str, language: str, normalized: bool = True) -> str:
    """What a voice of ``language`` says for ``text``: normalized (amounts, dates… in words), then speakable.

    Normalized first: the "°" of "72°F" is a symbol that ``speakable`` would drop.
    """
    return speakable(normalize(text, language) if normalized else text, language)


def said_pieces(
    text: str, language: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON
) -> Iterator[tuple[str, bool]]:
    """What is said for ``text`` as (piece, is_phonemes): ``lexicon`` entries first, then ``said_text``."""
    masked, phonemes = lexicon.masked(text)
    return unmasked(said_text(masked, language, normalized), phonemes)


def said_shown(text: str, language: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON) -> str:
    """What is said for ``text``, for people to read: a lexicon's phonemes between slashes."""
    pieces = said_pieces(text, language, normalized, lexicon)
    return "".join(f"/{piece}/" if is_phonemes else piece for piece, is_phonemes in pieces)


def said_phonemes(
    text: str,
    language: str,
    g2p: Callable[[str, str], str],
    normalized: bool = True,
    lexicon: Lexicon = NO_LEXICON,
) -> str:
    """The phonemes said for ``text``: ``g2p(text, language)`` for text, a lexicon's phonemes as written."""
    pieces = said_pieces(text, language, normalized, lexicon)
    parts = (piece if is_phonemes else g2p(piece, language) for piece, is_phonemes in pieces if piece.strip())
    return " ".join(" ".join(part.split()) for part in parts if part.strip())


@dataclass(frozen=True)
class VoiceReading:
    """How a voice reads text (``kokoro_core.chunker.Reading``): the language of its voice, whether
    text is normalized, its lexicon. Chunks are planned by what it says."""

    language: str = "en-us"
    normalized: bool = True
    lexicon: Lexicon = NO_LEXICON

    def said(self, text: str) -> str:
        """``text`` as said, a lexicon's phonemes between slashes."""
        return _said(text, self)

    def size(self, text: str) -> int:
        said = self.said(text)
        return len(said) + (WIDE_WEIGHT - 1) * len(_WIDE.findall(said))

    def cuts_cleanly(self, before: str, after: str) -> bool:
        # A lexicon's phrase is never parted, nor an amount, a date or a code from its context.
        return f"{self.said(before)} {self.said(after)}".split() == self.said(f"{before} {after}").split()


@lru_cache(maxsize=4096)
def _said(text: str, reading: VoiceReading) -> str:
    return said_shown(text, reading.language, reading.normalized, reading.lexicon)


ENGLISH = VoiceReading()
