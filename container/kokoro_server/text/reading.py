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

from kokoro_core.edited import NO_EDITS, Edits
from kokoro_core.lexicon import NO_LEXICON, Lexicon, unmasked_spans
from kokoro_core.segmenter import WIDE_LETTERS
from kokoro_core.speakable import language_of, speakable

from .foreign import READ, ForeignScript, marked, segments
from .normalize import Piece, normalized_pieces

_WIDE = re.compile(f"[{WIDE_LETTERS}]")
# A Chinese or Japanese letter is said as a syllable or more, so chunks and pacing count it as WIDE_WEIGHT
# Latin letters: on the embedded model a Chinese character (zf_xiaobei) lasts as long as 3.7 to 4.3 letters
# of English (af_heart), a kana about 2.
WIDE_WEIGHT = 3


PHONEMES = "phonemes"  # a piece that is a lexicon's phonemes, taken as written


def weight(char: str) -> int:
    """What a said character counts for in sizes: a Chinese or Japanese letter ``WIDE_WEIGHT``, any other one."""
    return WIDE_WEIGHT if _WIDE.match(char) else 1


def said_text(text: str, language: str, normalized: bool = True, foreign: ForeignScript = READ) -> str:
    """What a voice of ``language`` says for ``text``: normalized (amounts, dates… in words), then speakable; a
    span in another language or script read by its own language's normalizer (``foreign``)."""
    return "".join(piece for piece, _ in said_pieces(text, language, normalized, NO_LEXICON, foreign))


Source = tuple[int, int]  # the (start, end) of the written text a said character says


@dataclass(frozen=True)
class SaidPart:
    """A part of what is said for a text, in one reader's language (or a lexicon's phonemes), with the written
    text each of its characters says (``sources``, one per character)."""

    said: str
    reader: str  # a language, or PHONEMES
    sources: tuple[Source, ...]


def said_parts(
    text: str, language: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON, foreign: ForeignScript = READ
) -> list[SaidPart]:
    """What is said for ``text``, part by part: ``lexicon`` entries first, then each span in its language
    (``foreign.segments``), normalized and speakable; each character traced to what it says in ``text``. The
    text is read once: everything said about it (``said_pieces``, ``said_shown``, word timing) comes from here."""
    masked, phonemes, masking = lexicon.masked_edits(text)
    parts: list[SaidPart] = []
    position = 0
    for segment, reader in segments(masked, language, foreign):
        offset = masked.find(segment, position)  # segments are the masked text in order, less its marks
        position = offset + len(segment)
        said, sources = _said_segment(segment, reader, normalized)
        for piece, is_phonemes, start, end in unmasked_spans(said, phonemes):
            traced = [_written(masking, offset + a, offset + b) for a, b in sources[start:end]]
            if is_phonemes:
                whole = (min(a for a, _ in traced), max(b for _, b in traced)) if traced else (0, 0)
                parts.append(SaidPart(piece, PHONEMES, (whole,) * len(piece)))
            else:
                parts.append(SaidPart(piece, reader, tuple(traced)))
    return parts


def _said_segment(segment: str, reader: str, normalized: bool) -> tuple[str, list[Source]]:
    """What is said for a segment of one language, and per character the segment's text it says."""
    if normalized:
        pieces, edits = normalized_pieces(segment, reader)
    else:
        pieces, edits = [Piece(0, len(segment), segment, whole=False)], NO_EDITS
    said: list[str] = []
    sources: list[Source] = []
    for piece in pieces:
        # Normalized first: the "°" of "72°F" is a symbol that ``speakable`` would drop.
        spoken = speakable(piece.said, reader)
        said.append(spoken)
        if piece.whole:
            sources += [(edits.original(piece.start), edits.original(piece.end))] * len(spoken)
        elif spoken == piece.said:
            sources += [edits.source(index) for index in range(piece.start, piece.end)]
        else:  # emoji and symbols taken away, character by character
            kept = (
                index for index in range(piece.start, piece.end) if speakable(piece.said[index - piece.start], reader)
            )
            sources += [edits.source(index) for index in kept]
    return "".join(said), sources


def _written(masking: Edits, start: int, end: int) -> Source:
    """The written text that masked text from ``start`` to ``end`` says (a respelling says its word)."""
    if end <= start:
        return masking.original(start), masking.original(start)
    return masking.source(start)[0], masking.source(end - 1)[1]


def said_pieces(
    text: str, language: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON, foreign: ForeignScript = READ
) -> Iterator[tuple[str, str]]:
    """What is said for ``text`` as (piece, the language it is read in, or ``PHONEMES``) (``said_parts``)."""
    for part in said_parts(text, language, normalized, lexicon, foreign):
        yield part.said, part.reader


def said_shown(
    text: str, language: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON, foreign: ForeignScript = READ
) -> str:
    """What is said for ``text``, for people to read: a lexicon's phonemes between slashes, a span of another
    language between its marks (``foreign.marked``; ``foreign.unmarked`` removes them)."""
    return shown_with_sources(said_parts(text, language, normalized, lexicon, foreign), language)[0]


def shown_with_sources(parts: list[SaidPart], language: str) -> tuple[str, list[Source]]:
    """``said_shown`` of a text's parts, and per character the written text it says (a mark says what its span
    says)."""
    shown: list[str] = []
    sources: list[Source] = []
    for part in parts:
        whole = (part.sources[0][0], part.sources[-1][1]) if part.sources else (0, 0)
        if part.reader == PHONEMES:
            shown.append(f"/{part.said}/")
            sources += [whole, *part.sources, whole]
        elif part.reader != language and part.said.strip():
            framed = marked(part.said, part.reader)
            before = framed.index(part.said) if part.said else 0
            shown.append(framed)
            sources += [whole] * before + list(part.sources) + [whole] * (len(framed) - before - len(part.said))
        else:
            shown.append(part.said)
            sources += part.sources
    return "".join(shown), sources


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
    return phonemes_of(said_parts(text, language, normalized, lexicon, foreign), g2p)


def phonemes_of(parts: list[SaidPart], g2p: Callable[[str, str], str]) -> str:
    """The phonemes said for a text's parts: ``g2p(piece, language)`` for each in its language, a lexicon's
    phonemes as written."""
    said = (
        part.said if part.reader == PHONEMES else g2p(part.said, part.reader) for part in parts if part.said.strip()
    )
    return " ".join(" ".join(phonemes.split()) for phonemes in said if phonemes.strip())


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

    def parts(self, text: str) -> list[SaidPart]:
        """What is said for ``text``, part by part, each character traced to what it says (``said_parts``)."""
        return said_parts(text, self.language, self.normalized, self.lexicon, self.foreign)

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
