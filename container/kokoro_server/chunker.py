"""Synthesis chunks: the units the engine turns into audio, one model call each.

Chunks end at sentence boundaries, where prosody is whole and a join falls on a pause, with
three refinements. The first chunk of an utterance is kept short, split at its first clause
boundary, because the listener hears nothing until it is synthesized. After it, chunks grow:
each may be up to twice as long as the one before (``GROWTH``), so consecutive sentences are
packed into fewer model calls (each call also renders its own edge silence) while every chunk is
planned to be synthesized before the one before it has finished playing, on any engine faster than
half real time (planned in characters: the audio per character varies, so near half real time this
is an estimate); a sentence longer than that is cut at its clause boundaries. And a sentence too long
for one call (Kokoro takes at most 510 phonemes; English runs about 1.3 phonemes per character)
is split at clause boundaries, then at word boundaries, into balanced pieces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .segmenter import split_sentences

MAX_CHUNK_CHARS = 320
FIRST_CHUNK_CHARS = 80
GROWTH = 2  # a chunk may be this many times as long as the one before it
MIN_FIRST_CHUNK_CHARS = 12
_CLAUSE = re.compile(r"(?<=[,;:—–])\s+")
_WORD = re.compile(r"\s+")


def _pieces(text: str, boundary: re.Pattern[str]) -> list[str]:
    return [piece for piece in boundary.split(text) if piece]


def _balanced(pieces: list[str], limit: int) -> list[str]:
    """Join consecutive pieces into as few chunks as fit ``limit``, sized alike."""
    total = sum(len(piece) + 1 for piece in pieces)
    count = -(-total // limit)
    target = -(-total // count)
    chunks: list[str] = []
    for piece in pieces:
        if chunks and len(chunks[-1]) + 1 + len(piece) <= target:
            chunks[-1] += " " + piece
        else:
            chunks.append(piece)
    return chunks


def split_long(sentence: str, limit: int = MAX_CHUNK_CHARS) -> list[str]:
    """Split one sentence into chunks of at most ``limit`` characters where possible."""
    if len(sentence) <= limit:
        return [sentence]
    chunks: list[str] = []
    for clause in _balanced(_pieces(sentence, _CLAUSE), limit):
        if len(clause) <= limit:
            chunks.append(clause)
        else:
            words = _pieces(clause, _WORD)
            chunks.extend(_balanced(words, limit) if max(map(len, words)) <= limit else [clause])
    return chunks


def _split_at_clauses(sentence: str, limit: int, max_chunk_chars: int) -> list[str]:
    """Split a sentence over ``limit`` at clause boundaries only; words are split only past ``max_chunk_chars``."""
    if len(sentence) <= limit:
        return [sentence]
    chunks: list[str] = []
    for clause in _balanced(_pieces(sentence, _CLAUSE), limit):
        chunks.extend(split_long(clause, max_chunk_chars) if len(clause) > max_chunk_chars else [clause])
    return chunks


def _short_first(sentence: str, first_limit: int, must_fit: bool) -> list[str]:
    """Split off the first clause when the first sentence is long, so audio starts early.

    With ``must_fit`` (the listener is still hearing earlier audio, which this chunk must follow
    without a gap), a sentence with no clause boundary in reach is cut between words instead.
    """
    if len(sentence) <= first_limit:
        return [sentence]
    for match in _CLAUSE.finditer(sentence):
        if MIN_FIRST_CHUNK_CHARS <= match.start() <= first_limit:
            return [sentence[: match.start()], sentence[match.end() :]]
        if match.start() > first_limit:
            break
    if not must_fit:
        return [sentence]
    # The last word boundary in reach, else the first past the shortest chunk worth a model call.
    cut = sentence.rfind(" ", MIN_FIRST_CHUNK_CHARS, first_limit + 1)
    cut = cut if cut > 0 else sentence.find(" ", MIN_FIRST_CHUNK_CHARS)
    return [sentence[:cut], sentence[cut + 1 :]] if cut > 0 else [sentence]


def _limit(previous: int, first_chunk_chars: int, max_chunk_chars: int) -> int:
    return min(max_chunk_chars, max(first_chunk_chars, GROWTH * previous))


def plan_chunks(
    sentences: Iterable[str],
    first_chunk_chars: int = FIRST_CHUNK_CHARS,
    max_chunk_chars: int = MAX_CHUNK_CHARS,
    first_must_fit: bool = False,
) -> Iterator[str]:
    """Chunks for an utterance's sentences, in order; blank sentences are skipped."""
    first = True
    previous = 0  # length of the chunk yielded last
    current, limit = "", 0  # the chunk being packed, and how long it may grow
    for sentence in sentences:
        text = " ".join(sentence.split())
        if not text:
            continue
        units = _short_first(text, first_chunk_chars, first_must_fit) if first else [text]
        for unit in units:
            if first:
                first = False
                for piece in split_long(unit, max_chunk_chars):
                    yield piece
                    previous = len(piece)
                continue
            if current and len(current) + 1 + len(unit) <= limit:
                current += " " + unit
                continue
            if current:
                yield current
                previous = len(current)
            # After a first chunk cut to fit the audio before it, growth starts from that chunk itself.
            floor = MIN_FIRST_CHUNK_CHARS if first_must_fit else first_chunk_chars
            limit = _limit(previous, floor, max_chunk_chars)
            *pieces, current = _split_at_clauses(unit, limit, max_chunk_chars)
            for piece in pieces:
                yield piece
                previous = len(piece)
    if current:
        yield current


def chunk_text(
    text: str,
    first_chunk_chars: int = FIRST_CHUNK_CHARS,
    max_chunk_chars: int = MAX_CHUNK_CHARS,
    first_must_fit: bool = False,
) -> list[str]:
    """Chunks for a whole input text."""
    return list(plan_chunks(split_sentences(text), first_chunk_chars, max_chunk_chars, first_must_fit))
