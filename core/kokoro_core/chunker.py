"""Synthesis chunks: the units the engine turns into audio, one model call each.

Chunks are measured by what the voice says, not by what was written (``Reading``): "$9,730.12" is
9 characters on the page and 59 said, and it is the said length that sets how long a chunk takes to
synthesize and to hear (the server's reading normalizes; ``AS_WRITTEN`` counts what is written). A
text is cut only where its two parts read as they do together, so no cut changes a reading ("order
58-1193" stays a code, "3 p.m. Thursday" keeps its sentence end).

Chunks end at sentence boundaries, where prosody is whole and a join falls on a pause, with three
refinements. The first chunk of an utterance is kept short, ending at its first clause boundary,
because the listener hears nothing until it is synthesized; a first sentence far over the first
chunk's size with no clause boundary in reach ("Your checking account balance is $1,284.50 as of
this morning.") is cut between words instead (``WORD_CUT_OVER``). After it, each chunk may be as long
as what the engine synthesizes while the audio planned ahead of it plays, at ``1 / GROWTH`` of real
time: consecutive sentences are packed into fewer model calls (each call also renders its own edge
silence), and a sentence far over that is cut at its last clause boundary in reach, or between
words. And a sentence too long for one call (Kokoro takes at most 510 phonemes, about one per said
character) is split at clause boundaries, then at word boundaries, into balanced pieces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Protocol

from .segmenter import split_sentences

MAX_CHUNK_CHARS = 320
FIRST_CHUNK_CHARS = 80
# The plan holds on engines that synthesize at 1 / GROWTH (0.625) of real time or faster: room over the
# 0.35-0.45 measured per chunk here (docs/bench/bench.md) for a busy machine. A chunk right after one
# of n said characters may be GROWTH * n long.
GROWTH = 1.6
MIN_FIRST_CHUNK_CHARS = 12
# A sentence this many times over its chunk's limit is cut between words when no clause boundary is in
# reach: a pause mid-sentence costs less than a stall, or seconds of silence before the reply.
WORD_CUT_OVER = 1.25
_CLAUSE = re.compile(r"(?<=[,;:—–])\s+")
_WORD = re.compile(r"\s+")


class Reading(Protocol):
    """How a voice reads text: the server's reading normalizes and applies the voice's lexicon
    (``kokoro_server.text.VoiceReading``)."""

    def size(self, text: str) -> int:
        """The length of ``text`` as said ("$5" is "five dollars": 12)."""
        ...

    def cuts_cleanly(self, before: str, after: str) -> bool:
        """Whether ``before`` and ``after``, said apart, say the same words as said together."""
        ...


class AsWritten:
    """Text said as written: every character counts, and any word boundary cuts cleanly."""

    def size(self, text: str) -> int:
        return len(text)

    def cuts_cleanly(self, before: str, after: str) -> bool:
        return True


AS_WRITTEN = AsWritten()


def _pieces(text: str, boundary: re.Pattern[str]) -> list[str]:
    return [piece for piece in boundary.split(text) if piece]


def _balanced(pieces: list[str], limit: int, reading: Reading) -> list[str]:
    """Join consecutive pieces into as few chunks as fit ``limit``, sized alike, cut only where clean."""
    sizes = [reading.size(piece) + 1 for piece in pieces]
    count = -(-sum(sizes) // limit)
    target = -(-sum(sizes) // count)
    chunks: list[str] = []
    size = 0
    for index, (piece, piece_size) in enumerate(zip(pieces, sizes, strict=True)):
        if chunks and (
            size + piece_size <= target or not reading.cuts_cleanly(" ".join(pieces[:index]), " ".join(pieces[index:]))
        ):
            chunks[-1] += " " + piece
            size += piece_size
        else:
            chunks.append(piece)
            size = piece_size
    return chunks


def split_long(sentence: str, limit: int = MAX_CHUNK_CHARS, reading: Reading = AS_WRITTEN) -> list[str]:
    """Split one sentence into chunks of at most ``limit`` said characters where possible."""
    if reading.size(sentence) <= limit:
        return [sentence]
    chunks: list[str] = []
    for clause in _balanced(_pieces(sentence, _CLAUSE), limit, reading):
        if reading.size(clause) <= limit:
            chunks.append(clause)
        else:
            words = _pieces(clause, _WORD)
            fits = max(map(reading.size, words)) <= limit
            chunks.extend(_balanced(words, limit, reading) if fits else [clause])
    return chunks


def _clean_cuts(sentence: str, bounds: Iterable[tuple[int, int]], limit: int, reading: Reading) -> Iterator[list[str]]:
    """The sentence cut at each boundary (start, end) in order, while the first part fits ``limit``.

    Only cuts that leave both parts worth a model call and that read cleanly (``Reading.cuts_cleanly``).
    """
    for start, end in bounds:
        size = reading.size(sentence[:start])
        if size > limit:
            return
        worth_a_call = min(size, reading.size(sentence[end:])) >= MIN_FIRST_CHUNK_CHARS
        if worth_a_call and reading.cuts_cleanly(sentence[:start], sentence[end:]):
            yield [sentence[:start], sentence[end:]]


def _head(sentence: str, limit: int, reading: Reading, earliest: bool, words_over: float) -> list[str]:
    """``sentence`` whole if it fits ``limit``, else cut in two: its head, and the rest.

    The head ends at a clause boundary in reach: the first one (``earliest``, for the earliest audio)
    or the last one (for the longest chunk that still fits). With none, a sentence more than
    ``words_over`` times the limit is cut at the last word boundary in reach instead, or if no word
    fits, at the first one past the shortest chunk worth a model call.
    """
    size = reading.size(sentence)
    if size <= limit:
        return [sentence]
    clauses = _clean_cuts(sentence, ((m.start(), m.end()) for m in _CLAUSE.finditer(sentence)), limit, reading)
    cut = next(clauses, None) if earliest else next(reversed([*clauses]), None)
    if cut is not None or size <= words_over * limit:
        return cut or [sentence]
    words = [(match.start(), match.end()) for match in _WORD.finditer(sentence)]
    cut = next(reversed([*_clean_cuts(sentence, words, limit, reading)]), None)
    return cut or next(_clean_cuts(sentence, words, size, reading), [sentence])


def _limit(ahead: float, max_chunk_chars: int) -> int:
    """How long the next chunk may be when the listener is ``ahead`` said characters from running out."""
    return min(max_chunk_chars, max(MIN_FIRST_CHUNK_CHARS, int(GROWTH * ahead)))


def plan_chunks(
    sentences: Iterable[str],
    first_chunk_chars: int = FIRST_CHUNK_CHARS,
    max_chunk_chars: int = MAX_CHUNK_CHARS,
    first_must_fit: bool = False,
    reading: Reading = AS_WRITTEN,
) -> Iterator[str]:
    """Chunks for an utterance's sentences, in order; blank sentences are skipped. Sizes count said characters.

    With ``first_must_fit`` (the listener is still hearing earlier audio, which the first chunk must
    follow without a gap), the first chunk is cut between words if no clause boundary is in reach.
    """
    first = True
    # How far ahead of the listener the plan is, in said characters: the first chunk all plays while
    # the second is synthesized, and each later chunk adds what plays while it is synthesized (a share
    # of 1 - 1/GROWTH of it), so a run of short sentences still grows into long chunks.
    ahead = 0.0
    current, limit = "", 0  # the chunk being packed, and how long it may grow
    for sentence in sentences:
        rest = " ".join(sentence.split())
        if rest and first:
            first = False
            words_over = 1.0 if first_must_fit else WORD_CUT_OVER
            head, *more = _head(rest, first_chunk_chars, reading, earliest=True, words_over=words_over)
            for piece in split_long(head, max_chunk_chars, reading):
                yield piece
                ahead += reading.size(piece) if not ahead else (1 - 1 / GROWTH) * reading.size(piece)
            rest = more[0] if more else ""
        while rest:
            if current and reading.size(f"{current} {rest}") <= limit:
                current, rest = f"{current} {rest}", ""
                break
            if current:
                yield current
                ahead += (1 - 1 / GROWTH) * reading.size(current)
            limit = _limit(ahead, max_chunk_chars)
            words_over = 1.0 if limit == max_chunk_chars else WORD_CUT_OVER
            current, *more = _head(rest, limit, reading, earliest=False, words_over=words_over)
            rest = more[0] if more else ""
    if current:
        yield current


def chunk_text(
    text: str,
    first_chunk_chars: int = FIRST_CHUNK_CHARS,
    max_chunk_chars: int = MAX_CHUNK_CHARS,
    first_must_fit: bool = False,
    reading: Reading = AS_WRITTEN,
) -> list[str]:
    """Chunks for a whole input text."""
    return list(plan_chunks(split_sentences(text), first_chunk_chars, max_chunk_chars, first_must_fit, reading))
