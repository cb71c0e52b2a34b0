"""Sentence segmentation for whole texts and for token streams: one implementation for both.

The server splits a whole input; the client feeds an agent's tokens as they arrive and sends
each sentence the moment it is complete. Segments concatenate back to exactly the input: no
character is lost or moved (the whitespace after a sentence belongs to that sentence).

A sentence ends at . ! ? । or an ellipsis (plus closing quotes or brackets) followed by
whitespace and a plausible sentence start, at a paragraph break, or at a line break that
starts a list item or a capitalised line. Dots inside tokens (decimals, money, IP addresses,
URLs, "a.m") never end a sentence because no whitespace follows them; titles (Dr., Mr.),
initials, list numbers ("1.") and "e.g." never do; "a.m.", "p.m.", "etc." do only before a
capital letter. Chinese and Japanese need no whitespace: 。！？ end a sentence where they stand,
and so does . ! ? right before a Chinese or Japanese character. Deciding needs the characters
after the break, so a stream holds a finished sentence back until they (or the end of the stream)
arrive.

No sentence is longer than ``max_chars``: text that runs on without a break (a reply of clauses
joined by commas, an unpunctuated paragraph, a token with no spaces) is cut at the last clause
end in reach, else at the last space, else between two characters. The cut depends only on the
``max_chars`` characters it ends, so a stream cuts where the whole text does, and every piece of
work on a text (here, in the chunk planner, in synthesis) is bounded by this length.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

MAX_SENTENCE_CHARS = 320
# Chinese, Japanese and Korean letters (a regex class body): no spaces between words, and each is said
# as a syllable or more, several times as long as a Latin letter.
WIDE_LETTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\uff66-\uff9f"
_CLOSERS = "\"'”’»)]}」』）】〕〉》"
_OPENERS = "\"'“‘«([{¿¡「『（【"
_TERMINATORS = ".!?…।॥"
_WIDE_TERMINATORS = "。！？｡"
_WIDE_CLAUSE_ENDS = "，、；："
# Where a sentence may end: a whitespace run (judged by ``_is_break``), a Chinese or Japanese full stop
# with its closing quotes and any whitespace, or . ! ? right before a Chinese or Japanese letter.
_CANDIDATE = re.compile(rf"\s+|[{_WIDE_TERMINATORS}][{re.escape(_CLOSERS)}]*\s*|(?<=[.!?])(?=[{WIDE_LETTERS}])")
_WIDE_TERMINATOR_RUN = re.compile(rf"[{_WIDE_TERMINATORS}]")
_LIST_ITEM = re.compile(r"(?:[-*•–]\s|\d{1,3}[.)]\s|[a-zA-Z][.)]\s)")
# Characters after the whitespace needed to judge it ("1. " starts a list item, "1.5" does not).
_LOOKAHEAD = 4
_CONTEXT = 64  # characters before the whitespace that the rules look at (the last word, a list number)
_LIST_NUMBER = re.compile(r"^\s*(?:\d{1,3}|[a-zA-Z])\.$")
# Where a sentence too long for ``max_chars`` is cut, best first: after a clause or sentence mark (with
# the whitespace after it), then after any whitespace or between two wide letters.
_FORCED_CLAUSE = re.compile(
    rf"(?:[,;:—–]|[.!?…।]+)[{re.escape(_CLOSERS)}]*\s+"
    rf"|[{_WIDE_CLAUSE_ENDS}{_WIDE_TERMINATORS}][{re.escape(_CLOSERS)}]*\s*"
    r"|[,;:](?=[^\W\d_])"  # a clause mark glued to the next word ("word,word")
)
_FORCED_WORD = re.compile(rf"\s+|(?<=[{WIDE_LETTERS}])(?=[{WIDE_LETTERS}])")
_JOINERS = frozenset("\u200d\ufe0e\ufe0f\u20e3")  # parts of one glyph: never cut before them

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


def _capital_or_caseless(char: str) -> bool:
    """A capital letter, or a letter of a script without case (Chinese, Devanagari, Arabic…)."""
    return char.isupper() or (char.isalpha() and not char.islower())


def _starts_sentence(rest: str) -> bool:
    """Whether text right after the whitespace looks like the start of a sentence."""
    stripped = rest.lstrip(_OPENERS)
    if not stripped:
        return bool(rest)  # only an opening quote so far: a quoted sentence
    first = stripped[0]
    return _capital_or_caseless(first) or first.isdigit() or not first.isalpha()


def _is_break(before: str, space: str, after: str) -> bool:
    """Whether a sentence ends at the whitespace ``space`` between ``before`` and ``after``."""
    newlines = space.count("\n")
    if newlines >= 2:
        return True
    if newlines == 1 and (_LIST_ITEM.match(after) or _capital_or_caseless(after[:1])):
        return True
    token = before[before.rfind(" ") + 1 :].rsplit("\n", 1)[-1]
    core = token.rstrip(_CLOSERS)
    if not core or core[-1] not in _TERMINATORS:
        return False
    next_letter = after.lstrip(_OPENERS)[:1]
    if core.endswith(("…", "..")):
        return _starts_sentence(after)  # a trailing-off ellipsis ends a sentence only before a new one
    if core[-1] in "!?।॥":
        return not next_letter.islower()  # "Really?" she asked.
    word = core[:-1].lstrip(_OPENERS).lower()
    if word in _NEVER_FINAL or _LIST_NUMBER.match(before.rsplit("\n", 1)[-1]) or (len(word) == 1 and word.isalpha()):
        return False
    if word in _MAYBE_FINAL or "." in word:
        return _capital_or_caseless(next_letter)
    return _starts_sentence(after)


def whole_glyph(window: str, cut: int) -> int:
    """``cut`` moved back, if need be, so that it does not part a letter from its accents or an emoji
    from its modifiers."""
    while cut > 1 and (
        unicodedata.combining(window[cut]) or window[cut] in _JOINERS or window[cut - 1] == "\u200d"
        or "\U0001f3fb" <= window[cut] <= "\U0001f3ff"
    ):  # fmt: skip
        cut -= 1
    return cut


def forced_cut(window: str, max_chars: int) -> int:
    """Where to cut text that has no sentence break in its first ``max_chars`` characters.

    ``window`` holds those characters and the one after them (which tells whether the text may be cut
    right at ``max_chars``). The cut is after the last clause mark in the second half, else after the
    last space there, else at the last of either anywhere, else between two characters at the limit.
    """
    cuts: list[list[int]] = []
    for boundary in (_FORCED_CLAUSE, _FORCED_WORD):
        ends = [match.end() for match in boundary.finditer(window, 1) if 0 < match.end() <= max_chars]
        cuts.append(ends)
        if ends and ends[-1] >= max_chars // 2:
            return ends[-1]
    anywhere = max((ends[-1] for ends in cuts if ends), default=0)
    if anywhere:
        return anywhere
    return whole_glyph(window, max_chars) if len(window) > max_chars else max_chars


class SentenceSegmenter:
    """Incremental segmenter: ``push`` text as it arrives, ``flush`` at the end of the stream."""

    def __init__(self, max_chars: int = MAX_SENTENCE_CHARS) -> None:
        if max_chars < 2:
            raise ValueError(f"max_chars {max_chars!r} is too small; give 2 or more")
        self.max_chars = max_chars
        self._buffer = ""
        self._start = 0  # the pending text starts here; what is before it was returned
        self._scanned = 0  # break candidates before this offset were already judged not to be breaks

    def push(self, text: str) -> list[str]:
        """Add text; return the sentences it completed (each with its trailing whitespace)."""
        if self._start:  # keep only the pending text, so a long stream is not copied over and over
            self._buffer, self._scanned, self._start = self._buffer[self._start :], self._scanned - self._start, 0
        self._buffer += text
        return list(self._complete(final=False))

    def flush(self) -> list[str]:
        """End of stream: return what is left, as sentences."""
        sentences = list(self._complete(final=True))
        if rest := self._buffer[self._start :]:
            sentences.append(rest)
        self._buffer, self._start, self._scanned = "", 0, 0
        return sentences

    def take(self, length: int) -> str:
        """Release the first ``length`` pending characters early (a first clause, say)."""
        taken = self._buffer[self._start : self._start + length]
        self._start += len(taken)
        self._scanned = self._start
        return taken

    @property
    def pending(self) -> str:
        """Text received but not yet returned as a sentence."""
        return self._buffer[self._start :]

    def _complete(self, final: bool) -> Iterator[str]:
        while (end := self._next_end(final)) is not None:
            sentence = self._buffer[self._start : end]
            self._start = self._scanned = end
            yield sentence

    def _next_end(self, final: bool) -> int | None:
        buffer, start = self._buffer, self._start
        limit = start + self.max_chars
        for match in _CANDIDATE.finditer(buffer, max(self._scanned, start), limit + 1):
            begin, end = match.span()
            if end > limit:
                break  # a sentence ending here or later would be too long
            if end == len(buffer):
                if final:
                    break  # at the very end the rest is one sentence anyway
                return None  # what follows decides
            if not final and len(buffer) - end < _LOOKAHEAD:
                return None
            if begin > start and self._breaks(match):
                return end
            self._scanned = end
        pending = len(buffer) - start
        if pending > self.max_chars and (final or pending >= self.max_chars + _LOOKAHEAD):
            return start + forced_cut(buffer[start : limit + 1], self.max_chars)
        return None

    def _breaks(self, match: re.Match[str]) -> bool:
        begin, end = match.span()
        if begin == end or _WIDE_TERMINATOR_RUN.match(match.group()):
            return True  # a Chinese or Japanese full stop, or . ! ? right before a Chinese letter
        buffer = self._buffer
        return _is_break(buffer[max(self._start, begin - _CONTEXT) : begin], match.group(), buffer[end : end + 8])


def iter_sentences(text: str, max_chars: int = MAX_SENTENCE_CHARS) -> Iterator[str]:
    """The sentences of a whole text, one at a time: each costs work in proportion to its own length."""
    segmenter = SentenceSegmenter(max_chars)
    segmenter._buffer = text
    yield from segmenter._complete(final=True)
    if rest := segmenter.pending:
        yield rest


def split_sentences(text: str, max_chars: int = MAX_SENTENCE_CHARS) -> list[str]:
    """Split a whole text into sentences; ``"".join(result) == text``."""
    return list(iter_sentences(text, max_chars))


def sentences_from_stream(tokens: Iterable[str], max_chars: int = MAX_SENTENCE_CHARS) -> Iterator[str]:
    """Sentences of a token stream, each yielded as soon as it is known to be complete."""
    segmenter = SentenceSegmenter(max_chars)
    for token in tokens:
        yield from segmenter.push(token)
    yield from segmenter.flush()


# A character of a script written without spaces (letters, and its punctuation: ，、。！？「」…).
_UNSPACED = re.compile(f"[{WIDE_LETTERS}\u3000-\u303f\uff01-\uff65]")


def join_words(words: Iterable[str]) -> str:
    """Words (a reply's heard words, a word mark's) back into text as the script writes it: a space
    between words, none where either side is Chinese or Japanese ("您好，感谢您", "我用iPhone打电话")."""
    text = ""
    for word in words:
        if text and not (_UNSPACED.match(word[:1]) or _UNSPACED.match(text[-1])):
            text += " "
        text += word
    return text
