"""Which written word each said word comes from: a chunk split into written words (at whitespace; Chinese and
Japanese into their words, ``g2p.words_of``), each with what the voice says for it, from the chunk's one reading
(``VoiceReading.parts``). ``word_timing`` times them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .foreign import unmarked
from .g2p import words_of
from .reading import SaidPart, VoiceReading, shown_with_sources

# What is no word, as written or as said.
PUNCTUATION = " .,;:!?—…\"'()-–“”«»¡¿/"


_SAID_PUNCTUATION = PUNCTUATION + "。、，！？：；「」『』（）"  # Chinese and Japanese punctuation too, in said words


@dataclass(frozen=True)
class WrittenWord:
    text: str  # as written
    said: tuple[str, ...]  # what the voice says for it


def _bare(words: Sequence[str]) -> list[str]:
    """Said words without their punctuation and language marks: a reading that only moves a sentence's end, or
    names a span's language, cuts cleanly."""
    return [bare for word in words if (bare := unmarked(word).strip(_SAID_PUNCTUATION))]


def written_words(text: str, reading: VoiceReading, parts: list[SaidPart] | None = None) -> list[WrittenWord]:
    """``text``'s written words with what is said for each; their said words, in order, are what is said
    for ``text``. The text is read once (``VoiceReading.parts``): each said word comes from the written text
    it says, so written words that one reading covers stay one word ("3 p.m.", "$1.2 million"). ``parts``:
    the text's, where they are already read."""
    shown, sources = shown_with_sources(reading.parts(text) if parts is None else parts, reading.language)
    tokens = _placed(words_of(text, reading.language) or text.split(), text)
    starts, ends = [a for a, _ in tokens], [b for _, b in tokens]
    said = [(word, _said_from(sources[a:b])) for word, a, b in _said_words(shown, sources, ends)]
    # The tokens a said word comes from are one group (a running count marks each token joined to the next).
    joined = [0] * (len(tokens) + 1)
    first_of: list[int] = []
    for _, (start, end) in said:
        first = min(bisect_right(ends, start), max(0, len(tokens) - 1))
        last = max(first, bisect_left(starts, end) - 1) if end > start else first
        joined[first] += 1
        joined[last] -= 1
        first_of.append(first)
    groups: list[list[int]] = []
    running = 0
    for index in range(len(tokens)):
        if not groups or not running:
            groups.append([])
        groups[-1].append(index)
        running += joined[index]
    group_of = [number for number, group in enumerate(groups) for _ in group]
    owned: list[list[str]] = [[] for _ in groups]
    for (word, _), first in zip(said, first_of, strict=True):
        owned[group_of[first] if group_of else 0].append(word)
    words: list[WrittenWord] = []
    pending: str = ""
    pending_said: tuple[str, ...] = ()
    for group, own_words in zip(groups, owned, strict=True):
        written = f"{pending} {' '.join(text[tokens[group[0]][0] : tokens[group[-1]][1]].split())}".strip()
        own = (*pending_said, *own_words)
        pending, pending_said = "", ()
        if not _bare(own) and words:  # says nothing: belongs to the word before
            words[-1] = WrittenWord(f"{words[-1].text} {written}", words[-1].said + own)
        elif not _bare(own):
            pending, pending_said = written, own  # nothing before it: goes with the word after
        else:
            words.extend(_peeled(written, own))
    if pending and words:
        words[-1] = WrittenWord(f"{words[-1].text} {pending}", words[-1].said + pending_said)
    return [WrittenWord(unmarked(word.text), word.said) for word in words]  # a mark names what is written


_SAID = re.compile(r"\S+")


def _said_words(shown: str, sources: Sequence[tuple[int, int]], ends: Sequence[int]) -> Iterator[tuple[str, int, int]]:
    """The said words of ``shown`` with their (start, end) in it: runs between spaces, and where a run crosses
    from one written word to the next (Chinese and Japanese, written without spaces), a word at each."""
    for match in _SAID.finditer(shown):
        start = match.start()
        for index in range(match.start() + 1, match.end()):
            (a, b), (c, d) = sources[index - 1], sources[index]
            if b <= c and b > a and d > c and bisect_right(ends, a) != bisect_right(ends, c):
                yield shown[start:index], start, index
                start = index
        yield shown[start : match.end()], start, match.end()


def _placed(tokens: Sequence[str], text: str) -> list[tuple[int, int]]:
    """Each token's (start, end) in ``text``, the tokens being ``text``'s in order, whitespace aside (a Chinese
    reader's word may take the punctuation after a space: "你好 ，" is the word "你好，")."""
    placed, position = [], 0
    for token in tokens:
        while position < len(text) and text[position].isspace():
            position += 1
        start = position
        for char in token:
            if char.isspace():
                continue
            while position < len(text) and text[position].isspace():
                position += 1
            position += position < len(text) and text[position] == char
        placed.append((start, max(position, start)))
    return placed


def _said_from(sources: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The written text a said word says: from its characters' first source to their last."""
    spans = [(a, b) for a, b in sources if b > a]
    if not spans:
        return (sources[0][0], sources[0][0]) if sources else (0, 0)
    return min(a for a, _ in spans), max(b for _, b in spans)


def _apart(part: str, said: tuple[str, ...], rest: tuple[str, ...]) -> bool:
    """Whether a group's edge word is said as written, and both it and the rest of the group say something."""
    return bool(_bare(said)) and _bare([part]) == _bare(said) and bool(_bare(rest))


def _peeled(written: str, said: tuple[str, ...]) -> list[WrittenWord]:
    """A group's leading and trailing words that are said as written, each a word of its own: "due 6/30" is
    "due" and "6/30", since the cue is said as written before the date it makes."""
    parts = written.split(" ")
    first: list[WrittenWord] = []
    last: list[WrittenWord] = []
    while len(parts) > 1 and len(said) > 1 and _apart(parts[0], said[:1], said[1:]):
        first.append(WrittenWord(parts[0], said[:1]))
        parts, said = parts[1:], said[1:]
    while len(parts) > 1 and len(said) > 1 and _apart(parts[-1], said[-1:], said[:-1]):  # "a 65\" TV": "TV"
        last.insert(0, WrittenWord(parts[-1], said[-1:]))
        parts, said = parts[:-1], said[:-1]
    return [*first, WrittenWord(" ".join(parts), said), *last]
