"""Synthesis chunks: the units the engine turns into audio, one model call each.

A sentence is the natural unit: prosody is whole and a join between sentences falls on a
pause. Two exceptions. A sentence too long for one call (Kokoro takes at most 510 phonemes;
English runs about 1.3 phonemes per character) is split at clause boundaries, then at word
boundaries, into balanced pieces. And the first chunk of an utterance is kept short, split at
its first clause boundary, because the listener hears nothing until it is synthesized.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .segmenter import split_sentences

MAX_CHUNK_CHARS = 320
FIRST_CHUNK_CHARS = 80
_MIN_FIRST_CHARS = 12
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


def _short_first(sentence: str, first_limit: int) -> list[str]:
    """Split off the first clause when the first sentence is long, so audio starts early."""
    if len(sentence) <= first_limit:
        return [sentence]
    for match in _CLAUSE.finditer(sentence):
        if _MIN_FIRST_CHARS <= match.start() <= first_limit:
            return [sentence[: match.start()], sentence[match.end() :]]
        if match.start() > first_limit:
            break
    return [sentence]


def plan_chunks(
    sentences: Iterable[str], first_chunk_chars: int = FIRST_CHUNK_CHARS, max_chunk_chars: int = MAX_CHUNK_CHARS
) -> Iterator[str]:
    """Chunks for an utterance's sentences, in order; blank sentences are skipped."""
    first = True
    for sentence in sentences:
        text = " ".join(sentence.split())
        if not text:
            continue
        parts = _short_first(text, first_chunk_chars) if first else [text]
        first = False
        for part in parts:
            yield from split_long(part, max_chunk_chars)


def chunk_text(
    text: str, first_chunk_chars: int = FIRST_CHUNK_CHARS, max_chunk_chars: int = MAX_CHUNK_CHARS
) -> list[str]:
    """Chunks for a whole input text."""
    return list(plan_chunks(split_sentences(text), first_chunk_chars, max_chunk_chars))
