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
character) is split at clause boundaries, then at word boundaries, into balanced pieces, and a word
longer than a call between two characters.

Every language is cut: Chinese and Japanese clauses end at ，、；： with no space after them, and
their words are cut between any two letters. Planning is linear in the text: sentences come bounded
in length (``sentence_limit``, cut as ``segmenter`` cuts run-on text), each decision reads only the
text it could cut (binary search over the cuts in reach), a cut's reading is checked on the words
around it, and at most ``CLEAN_CHECKS`` cuts that do not read cleanly are tried before a decision
gives up on that kind of cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Protocol

from .segmenter import MAX_SENTENCE_CHARS, WIDE_LETTERS, iter_sentences, whole_glyph

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
# Cuts that do not read cleanly one decision tries before it gives up on that kind of cut: text where
# every cut changes a reading (one long list of dates, say) costs no more than text where none does.
CLEAN_CHECKS = 8
# Characters either side of a cut that decide how it reads: the normalizer's rules look no further.
CONTEXT_CHARS = 96
# Sentences packed into one chunk hold at most this many times ``max_chunk_chars`` written characters
# (text said as nothing, emoji say, would otherwise pack without end).
PACKED_WRITTEN_OVER = 2
# Sentences the plan takes whole hold at most this many times ``max_chunk_chars`` written characters.
SENTENCE_OVER = 2
# Text without a boundary up to this long is one word, said whole however long it is said (an amount, a
# lexicon's word); longer, it is cut between characters when it is said longer than a chunk.
WORD_CHARS = 64
_CLAUSE = re.compile(r"(?<=[,;:—–])\s+|(?<=[，、；：])\s*|(?<=[,;:])(?=[^\W\d_])")
_WORD = re.compile(rf"\s+|(?<=[{WIDE_LETTERS}])(?=[{WIDE_LETTERS}])")

Span = tuple[int, int]  # a cut: the text before it ends at the first index, the text after starts at the second


class Reading(Protocol):
    """How a voice reads text: the server's reading normalizes and applies the voice's lexicon
    (``kokoro_server.text.reading.VoiceReading``)."""

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


def _spans(text: str, boundary: re.Pattern[str]) -> list[Span]:
    """Where ``boundary`` may cut ``text``, leaving text on both sides."""
    return [match.span() for match in boundary.finditer(text) if 0 < match.start() and match.end() < len(text)]


def reads_cleanly(text: str, cut: Span, reading: Reading) -> bool:
    """Whether cutting ``text`` at ``cut`` leaves its reading unchanged, judged on the words around the cut."""
    start, end = cut
    before, after = text[max(0, start - CONTEXT_CHARS) : start], text[end : end + CONTEXT_CHARS]
    # Windows begin and end at whole words, so that neither starts or ends inside a number or a name.
    if start > CONTEXT_CHARS and " " in before:
        before = before[before.index(" ") + 1 :]
    if len(text) - end > CONTEXT_CHARS and " " in after:
        after = after[: after.rindex(" ")]
    return reading.cuts_cleanly(before, after)


class _Cuts:
    """The cuts of one text at one kind of boundary, with the said size of the text before each."""

    def __init__(self, text: str, boundary: re.Pattern[str], reading: Reading) -> None:
        self.text, self.reading = text, reading
        self.spans = _spans(text, boundary)
        self._before: dict[int, int] = {}

    def size_before(self, index: int) -> int:
        if index not in self._before:
            self._before[index] = self.reading.size(self.text[: self.spans[index][0]])
        return self._before[index]

    def _fitting(self, limit: float) -> int:
        """How many cuts leave at most ``limit`` said before them (the text before grows with each)."""
        low, high = 0, len(self.spans)
        while low < high:
            middle = (low + high) // 2
            if self.size_before(middle) <= limit:
                low = middle + 1
            else:
                high = middle
        return low

    def _good(self, index: int, clean: bool = True) -> bool:
        """Both parts worth a model call, and (with ``clean``) the cut reads cleanly."""
        start, end = self.spans[index]
        if self.reading.size(self.text[end:]) < MIN_FIRST_CHUNK_CHARS:
            return False
        return not clean or reads_cleanly(self.text, (start, end), self.reading)

    def latest(self, limit: float, clean: bool = True) -> Span | None:
        """The last good cut that leaves at most ``limit`` before it; without ``clean``, one that may change
        a reading (text where no cut in reach reads cleanly is still cut, rather than left too long)."""
        fitting = self._fitting(limit)
        for index in range(fitting - 1, max(-1, fitting - 1 - CLEAN_CHECKS), -1):
            if self.size_before(index) < MIN_FIRST_CHUNK_CHARS:
                break
            if self._good(index, clean):
                return self.spans[index]
        return None

    def earliest(self, limit: float) -> Span | None:
        """The first good cut (at most ``limit`` before it)."""
        first = self._fitting(MIN_FIRST_CHUNK_CHARS - 1)
        for index in range(first, min(len(self.spans), first + CLEAN_CHECKS)):
            if self.size_before(index) > limit:
                break
            if self._good(index):
                return self.spans[index]
        return None


def _balanced(text: str, boundary: re.Pattern[str], limit: int, reading: Reading) -> list[str]:
    """``text`` cut at ``boundary`` into as few chunks as fit ``limit``, sized alike; a cut that would change
    a reading is moved to the next boundary while the chunk still fits."""
    cuts = _spans(text, boundary)
    pieces = list(zip([0, *(end for _, end in cuts)], [*(start for start, _ in cuts), len(text)], strict=True))
    sizes = [reading.size(text[start:end]) + 1 for start, end in pieces]
    count = -(-sum(sizes) // limit)
    target = -(-sum(sizes) // count)
    chunks: list[list[int]] = []
    size, unclean = 0, 0
    for index, ((start, end), piece_size) in enumerate(zip(pieces, sizes, strict=True)):
        if chunks and size + piece_size <= target:
            chunks[-1][1] = end
            size += piece_size
        elif (
            chunks
            and unclean < CLEAN_CHECKS
            and size + piece_size <= limit  # a cut that changes a reading beats a chunk over the limit
            and not reads_cleanly(text, cuts[index - 1], reading)
        ):
            unclean += 1
            chunks[-1][1] = end
            size += piece_size
        else:
            chunks.append([start, end])
            size = piece_size
    return [text[start:end] for start, end in chunks]


def _fitting_head(text: str, limit: int, reading: Reading) -> int:
    """Where to cut ``text``, which has no boundary: after the longest head of at most ``limit`` said (one
    glyph at least, never inside one)."""
    low, high = 1, len(text) - 1  # by binary search: the cost grows with the log of the text
    while low < high:
        middle = (low + high + 1) // 2
        if reading.size(text[:middle]) <= limit:
            low = middle
        else:
            high = middle - 1
    return whole_glyph(text, low)


def _unbroken(text: str, limit: int, longest: int, reading: Reading) -> bool:
    """Whether text with no boundary left is cut between characters: it is longer than its chunk even as
    written ("a" * 400, a long code), or said longer than any chunk may be and too long for one word (a
    long URL), or said far longer (a number of hundreds of digits). A word said long ("$9,730.12", a
    lexicon's respelling) stays whole."""
    if len(text) > limit:
        return True
    said = reading.size(text)
    return said > longest and (len(text) > WORD_CHARS or said > PACKED_WRITTEN_OVER * longest)


def _between_characters(text: str, limit: int, reading: Reading) -> list[str]:
    """``text`` with no boundary left, cut between characters into pieces of at most ``limit`` said."""
    pieces = []
    while len(text) > 1 and reading.size(text) > limit:
        cut = _fitting_head(text, limit, reading)
        pieces.append(text[:cut])
        text = text[cut:]
    return [*pieces, text]


def split_long(sentence: str, limit: int = MAX_CHUNK_CHARS, reading: Reading = AS_WRITTEN) -> list[str]:
    """Split one sentence into chunks of at most ``limit`` said characters where possible."""
    if reading.size(sentence) <= limit:
        return [sentence]
    chunks: list[str] = []
    for clause in _balanced(sentence, _CLAUSE, limit, reading):
        if reading.size(clause) <= limit:
            chunks.append(clause)
            continue
        for piece in _balanced(clause, _WORD, limit, reading):
            unbroken = _unbroken(piece, limit, limit, reading)
            chunks.extend(_between_characters(piece, limit, reading) if unbroken else [piece])
    return chunks


def _head(
    text: str, limit: int, longest: int, reading: Reading, earliest: bool, words_over: float
) -> tuple[str, str, str] | None:
    """``text`` cut in two, its head and the rest (with what stood between them: a space or nothing), or
    None to keep it whole: it fits ``limit``, or no cut is in reach.

    The head ends at a clause boundary in reach: the first one (``earliest``, for the earliest audio)
    or the last one (for the longest chunk that still fits). With none, a text more than
    ``words_over`` times the limit is cut at the last word boundary in reach instead, or if no word
    fits, at the first one past the shortest chunk worth a model call; and where no cut in reach reads
    cleanly ("on Sat. on Sat. …"), at the last word boundary in reach all the same.
    """
    size = reading.size(text)
    if size <= limit:
        return None
    clauses = _Cuts(text, _CLAUSE, reading)
    cut = clauses.earliest(limit) if earliest else clauses.latest(limit)
    if cut is None:
        if size <= words_over * limit and size <= longest:
            return None
        words = _Cuts(text, _WORD, reading)
        cut = words.latest(limit) or words.earliest(size) or words.latest(limit, clean=False)
        if cut is None:
            if _WORD.search(text) or len(text) < 2 or not _unbroken(text, limit, longest, reading):
                return None
            head = _fitting_head(text, limit, reading)
            return text[:head], "", text[head:]
    start, end = cut
    return text[:start], " " if end > start else "", text[end:]


def _limit(ahead: float, max_chunk_chars: int) -> int:
    """How long the next chunk may be when the listener is ``ahead`` said characters from running out."""
    return min(max_chunk_chars, max(MIN_FIRST_CHUNK_CHARS, int(GROWTH * ahead)))


def sentence_limit(max_chunk_chars: int) -> int:
    """The longest sentence, in written characters, the plan takes whole: a bound on its work, far enough
    over a chunk that the plan, not the segmenter, decides where a long sentence is cut."""
    return max(MAX_SENTENCE_CHARS, SENTENCE_OVER * max_chunk_chars)


def _bounded(sentences: Iterable[str], max_chars: int) -> Iterator[str]:
    """Sentences no longer than ``max_chars`` written: a longer one is cut as the segmenter cuts run-on text."""
    for sentence in sentences:
        yield from iter_sentences(sentence, max_chars) if len(sentence) > max_chars else (sentence,)


def plan_chunks(
    sentences: Iterable[str],
    first_chunk_chars: int = FIRST_CHUNK_CHARS,
    max_chunk_chars: int = MAX_CHUNK_CHARS,
    first_must_fit: bool = False,
    reading: Reading = AS_WRITTEN,
) -> Iterator[str]:
    """Chunks for an utterance's sentences, in order, each planned when asked for; blank sentences are
    skipped. Sizes count said characters.

    With ``first_must_fit`` (the listener is still hearing earlier audio, which the first chunk must
    follow without a gap), the first chunk is cut between words if no clause boundary is in reach.
    """
    first = True
    # How far ahead of the listener the plan is, in said characters: the first chunk all plays while
    # the second is synthesized, and each later chunk adds what plays while it is synthesized (a share
    # of 1 - 1/GROWTH of it), so a run of short sentences still grows into long chunks.
    ahead = 0.0
    current, limit = "", 0  # the chunk being packed, and how long it may grow
    join = ""  # what stands between ``current`` and the text after it: a space, or nothing (Chinese, a cut word)
    longest_packed = PACKED_WRITTEN_OVER * max_chunk_chars
    for sentence in _bounded(sentences, sentence_limit(max_chunk_chars)):
        rest = " ".join(sentence.split())
        if not rest:
            continue
        if first:
            first = False
            words_over = 1.0 if first_must_fit else WORD_CUT_OVER
            cut = _head(rest, first_chunk_chars, max_chunk_chars, reading, earliest=True, words_over=words_over)
            head, _, rest = cut or (rest, "", "")
            for piece in split_long(head, max_chunk_chars, reading):
                yield piece
                ahead += reading.size(piece) if not ahead else (1 - 1 / GROWTH) * reading.size(piece)
        while rest:
            packed = f"{current}{join}{rest}"
            if current and len(packed) <= longest_packed and reading.size(packed) <= limit:
                current, rest = packed, ""
                break
            if current:
                yield current
                ahead += (1 - 1 / GROWTH) * reading.size(current)
            limit = _limit(ahead, max_chunk_chars)
            words_over = 1.0 if limit == max_chunk_chars else WORD_CUT_OVER
            cut = _head(rest, limit, max_chunk_chars, reading, earliest=False, words_over=words_over)
            current, join, rest = cut or (rest, "", "")
        join = " " if sentence[-1:].isspace() else ""
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
    return list(iter_chunks(text, first_chunk_chars, max_chunk_chars, first_must_fit, reading))


def iter_chunks(
    text: str,
    first_chunk_chars: int = FIRST_CHUNK_CHARS,
    max_chunk_chars: int = MAX_CHUNK_CHARS,
    first_must_fit: bool = False,
    reading: Reading = AS_WRITTEN,
) -> Iterator[str]:
    """Chunks for a whole input text, each planned when asked for: the first costs only its sentence."""
    sentences = iter_sentences(text, sentence_limit(max_chunk_chars))
    return plan_chunks(sentences, first_chunk_chars, max_chunk_chars, first_must_fit, reading)
