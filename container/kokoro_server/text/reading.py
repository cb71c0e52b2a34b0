"""What of a text gets spoken, and how: normalized, filtered, then read with the lexicon into phonemes, each
span in its own language (``foreign``: a span SSML marks, or a run of another script).

espeak-ng reads emoji by name ("party popper") and, in English, any Chinese character as
"Chinese letter"; a voice agent should say neither: emoji and symbols are removed before G2P, by the rule
the client shares (``kokoro_core.speakable``), and a Chinese name is read by the Chinese reader.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from kokoro_core.lexicon import NO_LEXICON, Lexicon, unmasked
from kokoro_core.segmenter import WIDE_LETTERS
from kokoro_core.speakable import language_of, speakable

from .foreign import READ, ForeignScript, marked, segments
from .normalize import normalize

_WIDE = re.compile(f"[{WIDE_LETTERS}]")
# A Chinese or Japanese letter is said as a syllable or more, so chunks and pacing count it as WIDE_WEIGHT
# Latin letters: on the embedded model a Chinese character (zf_xiaobei) lasts as long as 3.7 to 4.3 letters
# of English (af_heart), a kana about 2.
WIDE_WEIGHT = 3


PHONEMES = "phonemes"  # a piece that is a lexicon's phonemes, taken as written


def said_text(text: str, language: str, normalized: bool = True, foreign: ForeignScript = READ) -> str:
    """What a voice of ``language`` says for ``text``: normalized (amounts, dates… in words), then speakable; a
    span in another language or script read by its own language's normalizer (``foreign``)."""
    return "".join(piece for piece, _ in said_pieces(text, language, normalized, NO_LEXICON, foreign))


def _said_piece(text: str, language: str, normalized: bool) -> str:
    # Normalized first: the "°" of "72°F" is a symbol that ``speakable`` would drop.
    return speakable(normalize(text, language) if normalized else text, language)


def said_pieces(
    text: str, language: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON, foreign: ForeignScript = READ
) -> Iterator[tuple[str, str]]:
    """What is said for ``text`` as (piece, the language it is read in, or ``PHONEMES``): ``lexicon`` entries
    first, then each span in its language (``foreign.segments``), normalized and speakable."""
    masked, phonemes = lexicon.masked(text)
    for segment, reader in segments(masked, language, foreign):
        for piece, is_phonemes in unmasked(_said_piece(segment, reader, normalized), phonemes):
            yield piece, PHONEMES if is_phonemes else reader


def said_shown(
    text: str, language: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON, foreign: ForeignScript = READ
) -> str:
    """What is said for ``text``, for people to read: a lexicon's phonemes between slashes, a span of another
    language between its marks (``foreign.marked``; ``foreign.unmarked`` removes them)."""
    shown = []
    for piece, reader in said_pieces(text, language, normalized, lexicon, foreign):
        if reader == PHONEMES:
            shown.append(f"/{piece}/")
        elif reader != language and piece.strip():
            shown.append(marked(piece, reader))
        else:
            shown.append(piece)
    return "".join(shown)


def said_phonemes(
    text: str,
    language: str,
    g2p: Callable[[str, str], str],
    normalized: bool = True,
    lexicon: Lexicon = NO_LEXICON,
    foreign: ForeignScript = READ,
) -> str:
    """The phonemes said for ``text``: ``g2p(piece, language)`` for each piece in its language, a lexicon's
    phonemes as written."""
    pieces = said_pieces(text, language, normalized, lexicon, foreign)
    parts = (piece if reader == PHONEMES else g2p(piece, reader) for piece, reader in pieces if piece.strip())
    return " ".join(" ".join(part.split()) for part in parts if part.strip())


def marked_g2p(text: str, language: str, g2p: Callable[[str, str], str]) -> str:
    """``g2p`` of a said text that holds marked spans (``said_shown``'s): each span in its language."""
    return " ".join(g2p(piece, reader) for piece, reader in segments(text, language, "skip") if piece.strip())


@dataclass(frozen=True)
class VoiceReading:
    """How a voice reads text (``kokoro_core.chunker.Reading``): the language of its voice, whether
    text is normalized, its lexicon, whether a span in another script is read. Chunks are planned by what it
    says."""

    language: str = "en-us"
    normalized: bool = True
    lexicon: Lexicon = NO_LEXICON
    foreign: ForeignScript = READ

    @classmethod
    def of(
        cls, voice: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON, foreign: ForeignScript = READ
    ) -> VoiceReading:
        """How ``voice`` reads text: in its voice's language, with these options."""
        return cls(language_of(voice), normalized, lexicon, foreign)

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
    return said_shown(text, reading.language, reading.normalized, reading.lexicon, reading.foreign)


ENGLISH = VoiceReading()
