"""What of a text gets spoken, and how: normalized, filtered, then read with the lexicon into phonemes.

espeak-ng reads emoji by name ("party popper") and, in English, any Chinese character as
"Chinese letter"; a voice agent should say neither: such characters are removed before G2P, by the rule
the client shares (``kokoro_core.speakable``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from kokoro_core.lexicon import NO_LEXICON, Lexicon, unmasked
from kokoro_core.segmenter import WIDE_LETTERS
from kokoro_core.speakable import speakable

from .normalize import normalize

_WIDE = re.compile(f"[{WIDE_LETTERS}]")
# A Chinese or Japanese letter is said as a syllable or more, so chunks and pacing count it as WIDE_WEIGHT
# Latin letters: on the embedded model a Chinese character (zf_xiaobei) lasts as long as 3.7 to 4.3 letters
# of English (af_heart), a kana about 2.
WIDE_WEIGHT = 3


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
