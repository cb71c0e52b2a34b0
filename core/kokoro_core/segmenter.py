"""Sentence segmentation for whole texts and for token streams: one implementation for both.

The server splits a whole input; the client feeds an agent's tokens as they arrive and sends
each sentence the moment it is complete. Segments concatenate back to exactly the input: no
character is lost or moved (the whitespace after a sentence belongs to that sentence).

A sentence ends at . ! ? or an ellipsis (plus closing quotes or brackets) followed by
whitespace and a plausible sentence start, at a paragraph break, or at a line break that
starts a list item or a capitalised line. Dots inside tokens (decimals, money, IP addresses,
URLs, "a.m") never end a sentence because no whitespace follows them; titles (Dr., Mr.),
initials, list numbers ("1.") and "e.g." never do; "a.m.", "p.m.", "etc." do only before a
capital letter. Deciding needs the first character after the whitespace, so a stream holds a
finished sentence back until that character (or the end of the stream) arrives.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_WHITESPACE = re.compile(r"\s+")
_CLOSERS = "\"'”’»)]}"
_OPENERS = "\"'“‘«([{¿¡"
_TERMINATORS = ".!?…"
_LIST_ITEM = re.compile(r"(?:[-*•–]\s|\d{1,3}[.)]\s|[a-zA-Z][.)]\s)")
# Characters after the whitespace needed to judge it ("1. " starts a list item, "1.5" does not).
_LOOKAHEAD = 4
_CONTEXT = 64  # characters before the whitespace that the rules look at (the last word, a list number)
_LIST_NUMBER = re.compile(r"^\s*(?:\d{1,3}|[a-zA-Z])\.$")

# Words that, followed by a period, never end a sentence: they always lead on to a name or number.
_NEVER_FINAL = frozenset(
    "dr mr mrs ms mx prof sr jr st mt ft no nos vs fig figs gen col capt lt sgt rev hon pres gov sen rep "
    "e.g eg i.e ie cf approx ca viz op vol pp p ch sec art dept est".split()
)
# Abbreviations that often end a sentence: a break only when a capitalised word follows.
_MAYBE_FINAL = frozenset(
    "a.m p.m am pm etc inc ltd co corp llc bros jan feb mar apr jun jul aug sep sept oct nov dec "
    "u.s u.k u.n e.u a.d b.c ph.d m.d b.a m.a".split()
)


def _starts_sentence(rest: str) -> bool:
    """Whether text right after the whitespace looks like the start of a sentence."""
    stripped = rest.lstrip(_OPENERS)
    if not stripped:
        return bool(rest)  # only an opening quote so far: a quoted sentence
    first = stripped[0]
    return first.isupper() or first.isdigit() or not first.isalpha()


def _is_break(before: str, space: str, after: str) -> bool:
    """Whether a sentence ends at the whitespace ``space`` between ``before`` and ``after``."""
    newlines = space.count("\n")
    if newlines >= 2:
        return True
    if newlines == 1 and (_LIST_ITEM.match(after) or after[:1].isupper()):
        return True
    token = before[before.rfind(" ") + 1 :].rsplit("\n", 1)[-1]
    core = token.rstrip(_CLOSERS)
    if not core or core[-1] not in _TERMINATORS:
        return False
    next_letter = after.lstrip(_OPENERS)[:1]
    if core.endswith(("…", "..")):
        return _starts_sentence(after)  # a trailing-off ellipsis ends a sentence only before a new one
    if core[-1] in "!?":
        return not next_letter.islower()  # "Really?" she asked.
    word = core[:-1].lstrip(_OPENERS).lower()
    if word in _NEVER_FINAL or _LIST_NUMBER.match(before.rsplit("\n", 1)[-1]) or (len(word) == 1 and word.isalpha()):
        return False
    if word in _MAYBE_FINAL or "." in word:
        return next_letter.isupper()
    return _starts_sentence(after)


class SentenceSegmenter:
    """Incremental segmenter: ``push`` text as it arrives, ``flush`` at the end of the stream."""

    def __init__(self) -> None:
        self._buffer = ""
        self._scanned = 0  # whitespace runs before this offset were already judged not to be breaks

    def push(self, text: str) -> list[str]:
        """Add text; return the sentences it completed (each with its trailing whitespace)."""
        self._buffer += text
        return list(self._complete(final=False))

    def flush(self) -> list[str]:
        """End of stream: return what is left, as sentences."""
        sentences = list(self._complete(final=True))
        if self._buffer:
            sentences.append(self._buffer)
        self._buffer, self._scanned = "", 0
        return sentences

    def take(self, length: int) -> str:
        """Release the first ``length`` pending characters early (a first clause, say)."""
        taken, self._buffer, self._scanned = self._buffer[:length], self._buffer[length:], 0
        return taken

    @property
    def pending(self) -> str:
        """Text received but not yet returned as a sentence."""
        return self._buffer

    def _complete(self, final: bool) -> Iterator[str]:
        while True:
            end = self._next_break(final)
            if end is None:
                return
            sentence, self._buffer, self._scanned = self._buffer[:end], self._buffer[end:], 0
            yield sentence

    def _next_break(self, final: bool) -> int | None:
        buffer = self._buffer
        for match in _WHITESPACE.finditer(buffer, self._scanned):
            start, end = match.span()
            if end == len(buffer) or (not final and len(buffer) - end < _LOOKAHEAD):
                return None  # what follows decides; at the very end the rest is one sentence anyway
            if start > 0 and _is_break(buffer[max(0, start - _CONTEXT) : start], match.group(), buffer[end : end + 8]):
                return end
            self._scanned = end
        return None


def split_sentences(text: str) -> list[str]:
    """Split a whole text into sentences; ``"".join(result) == text``."""
    segmenter = SentenceSegmenter()
    return segmenter.push(text) + segmenter.flush()


def sentences_from_stream(tokens: Iterable[str]) -> Iterator[str]:
    """Sentences of a token stream, each yielded as soon as it is known to be complete."""
    segmenter = SentenceSegmenter()
    for token in tokens:
        yield from segmenter.push(token)
    yield from segmenter.flush()
