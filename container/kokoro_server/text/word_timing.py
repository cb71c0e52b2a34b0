"""When each written word of a chunk is heard, from the model's per-token durations.

Three texts are involved, and this maps each to the next:

- **written words** (``word_sources``): the chunk as the client sent it, split at whitespace (Chinese and
  Japanese, written without spaces, into jieba's and fugashi's words: ``g2p.words_of``), with punctuation attached
  ("$42.97," is one word). A written word that says nothing (a lone "—", an emoji) joins the word
  before it, and words the normalizer reads only together ("3 p.m.") stay one.
- **said words**: what the voice says for them ("forty-two dollars and ninety-seven cents,"), from the chunk's
  one reading (``VoiceReading.parts``), which traces each said character to the written text it says: a span
  the normalizer read as a whole is one written word, whatever its neighbours.
- **phoneme words**: what espeak-ng makes of the said text, which the model reads. espeak-ng runs
  unstressed function words into the next word ("for a" is one phoneme word, "fɚɹə"), so when the
  counts differ, said words are aligned to phoneme words by the phonemes each says alone (one more,
  cheap espeak-ng call), and a phoneme word shared by several said words is split among them by the
  length of their own phonemes.

A phoneme word lasts from its first sounding token to its last (punctuation, spaces and stress marks
are pauses, not words); a written word from its first said word's start to its last one's end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

import numpy as np

from kokoro_core.visemes import STRESS_MARKS, phoneme_groups

from .word_sources import PUNCTUATION, WrittenWord

_SILENT = frozenset(PUNCTUATION)
Span = tuple[float, float]  # start and end, in samples
# The decoder's sound runs about three frames ahead of the duration alignment (measured against an
# offline recognizer's word alignment; Kokoro's reference pipeline makes the same correction).
LEAD_FRAMES = 3
# Written words either side of a boundary that decide whether they are said apart as together.
CONTEXT_WORDS = 8


@dataclass(frozen=True)
class TimedWord:
    text: str  # as written
    start: int  # samples from the chunk's first sample
    end: int


@dataclass(frozen=True)
class TimedPhoneme:
    phoneme: str  # as the model reads it, without stress marks (``kokoro_core.visemes.phoneme_groups``)
    start: int  # samples from the chunk's first sample
    end: int


def phonemes_alone(words: Sequence[str], g2p: Callable[[str], str]) -> list[str]:
    """Each said word's phonemes said alone, in one ``g2p`` call: sentence marks between the words keep
    espeak-ng from running them together. A lexicon's phonemes (between slashes) are taken as written."""
    plain = [word if "/" in word else word.strip(PUNCTUATION) for word in words]
    asked = [word for word in plain if word and "/" not in word]
    said = g2p(" . ".join(asked)).split(".") if asked else []
    if len(said) != len(asked):
        return plain  # espeak-ng read the list differently: fall back to the spelling, for lengths
    phonemes = iter(" ".join(piece.split()) for piece in said)
    return [word.replace("/", "") if "/" in word or not word else next(phonemes) for word in plain]


def _core(phonemes: str) -> str:
    return "".join(c for c in phonemes if c not in _SILENT and c not in STRESS_MARKS)


@lru_cache(maxsize=65536)
def _distance(a: str, b: str) -> int:
    """Edit distance between two short phoneme strings."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


# (said words, phoneme words) one alignment step takes, and what it costs beyond the edit distance.
_STEPS = ((1, 1, 0.0), (2, 1, 0.5), (3, 1, 1.0), (1, 2, 0.5), (1, 0, 1.0), (0, 1, 1.0))


def align(said_alone: Sequence[str], phoneme_words: Sequence[str]) -> list[Span]:
    """Each said word's place in ``phoneme_words``, as a span of fractional word positions.

    ``said_alone`` holds each said word's phonemes said alone. Said words that share one phoneme word
    divide it by the length of their own phonemes; one said as two phoneme words spans both.
    """
    n, m = len(said_alone), len(phoneme_words)
    if n == m:
        return [(float(j), float(j + 1)) for j in range(m)]
    ref = [_core(word) for word in said_alone]
    hyp = [_core(word) for word in phoneme_words]
    band = abs(n - m) + 3  # how far from the diagonal an alignment may stray
    inf = float("inf")
    cost = np.full((n + 1, m + 1), inf)
    step = np.zeros((n + 1, m + 1), dtype=np.int8)
    cost[0, 0] = 0.0
    for i in range(n + 1):
        for j in range(max(0, i - band + min(0, m - n)), min(m, i + band + max(0, m - n)) + 1):
            here = cost[i, j]
            if here == inf:
                continue
            for k, (di, dj, penalty) in enumerate(_STEPS):
                if i + di > n or j + dj > m:
                    continue
                total = here + penalty + _distance("".join(ref[i : i + di]), "".join(hyp[j : j + dj]))
                if total < cost[i + di, j + dj]:
                    cost[i + di, j + dj], step[i + di, j + dj] = total, k
    spans: list[Span] = []
    i, j = n, m
    while i or j:
        di, dj, _ = _STEPS[step[i, j]]
        i, j = i - di, j - dj
        if di == 0:
            continue  # a phoneme word no said word claims: a pause
        if dj == 0:
            spans.append((float(j), float(j)))
            continue
        shares = [max(1, len(ref[i + d])) for d in range(di)]
        bounds = [j + dj * s / sum(shares) for s in accumulate(shares, initial=0)]
        spans.extend(reversed(list(zip(bounds, bounds[1:], strict=False))))
    return spans[::-1]


def _token_starts(frames: np.ndarray, samples_per_frame: int) -> np.ndarray:
    """Where each token of one inference call starts, in samples, where the decoder's sound is (and, last,
    where the call's audio ends)."""
    starts: np.ndarray = np.maximum(np.concatenate(([0], np.cumsum(frames))) - LEAD_FRAMES, 0) * samples_per_frame
    return starts


def phoneme_word_spans(
    phonemes: str, frames: np.ndarray, samples_per_frame: int, known: Callable[[str], bool]
) -> list[Span]:
    """Each space-separated word of ``phonemes`` as (start, end) samples, from one inference call's frames.

    ``frames`` holds each token's length in frames, the padding token at each end included;
    ``known`` tells which characters are tokens (the others never reached the model).
    """
    starts = _token_starts(frames, samples_per_frame)
    spans: list[Span] = []
    token = 1  # after the leading padding token
    sounding: list[int] = []
    first = -1
    for char in phonemes + " ":
        if char == " ":
            if first >= 0:
                at = sounding or [first]
                spans.append((float(starts[at[0]]), float(starts[at[-1] + 1] if sounding else starts[first])))
            sounding, first = [], -1
        if not known(char):
            continue
        if char != " ":
            first = token if first < 0 else first
            if char not in _SILENT and char not in STRESS_MARKS:
                sounding.append(token)
        token += 1
    return spans


def phoneme_spans(
    phonemes: str, frames: np.ndarray, samples_per_frame: int, known: Callable[[str], bool]
) -> list[tuple[str, Span]]:
    """Each heard phoneme of ``phonemes`` (``phoneme_groups``: a diphthong or an affricate is one, stress and
    length go with their sound) and its (start, end) samples, from one inference call's frames, on the
    same clock as ``phoneme_word_spans``."""
    starts = _token_starts(frames, samples_per_frame)
    tokens = "".join(char for char in phonemes if known(char))
    spans = []
    for group in phoneme_groups(tokens):
        sounding = group.first
        while sounding < group.last and tokens[sounding] in STRESS_MARKS:
            sounding += 1  # a word starts at its first sound, not at its stress mark
        # Token i is the model's input i + 1: a padding token comes first.
        spans.append((group.phoneme, (float(starts[sounding + 1]), float(starts[group.last + 2]))))
    return spans


def within_words(phonemes: Sequence[TimedPhoneme], words: Sequence[TimedWord]) -> list[TimedPhoneme]:
    """The phonemes fitted to the written words: each belongs to the word its middle falls in (or, between
    two words, the next one), and a word's phonemes tile it exactly, its first starting where the word
    starts, each ending where the next starts, its last ending where the word ends. So word and phoneme
    marks share their boundaries, and the quiet between words is the only time no phoneme covers."""
    if not words:
        return list(phonemes)
    by_word: list[list[TimedPhoneme]] = [[] for _ in words]
    index = 0
    for phoneme in phonemes:
        middle = (phoneme.start + phoneme.end) / 2
        while index + 1 < len(words) and words[index].end <= middle:
            index += 1
        by_word[index].append(phoneme)
    fitted: list[TimedPhoneme] = []
    for word, own in zip(words, by_word, strict=True):
        bounds = [word.start, *(min(max(p.start, word.start), word.end) for p in own[1:]), word.end]
        spans = zip(own, bounds, bounds[1:], strict=False)
        fitted.extend(TimedPhoneme(p.phoneme, start, end) for p, start, end in spans if end > start)
    return fitted


def until_silent(spans: Sequence[Span], audio: np.ndarray, level: float) -> list[Span]:
    """Spans ending where their sound ends: Kokoro gives a phrase's last phoneme the pause after it too.

    A span keeps at least half its length: the decoder's sound may lag the durations a little."""
    ended = []
    for start, end in spans:
        loud = np.flatnonzero(np.abs(audio[int(start) : int(end)]) > level)
        sound_end = float(int(start) + loud[-1] + 1) if loud.size else end
        ended.append((start, max(sound_end, (start + end) / 2)))
    return ended


def word_times(words: Sequence[WrittenWord], said_spans: Sequence[Span], audio_length: int) -> list[TimedWord]:
    """Written words timed from their said words' spans, clipped to the audio and in order."""
    timed: list[TimedWord] = []
    index, last_end = 0, 0
    for word in words:
        spans = said_spans[index : index + len(word.said)]
        index += len(word.said)
        start = min(max(int(round(spans[0][0])), last_end), audio_length)
        end = min(max(int(round(spans[-1][1])), start), audio_length)
        timed.append(TimedWord(word.text, start, end))
        last_end = end
    return timed


def spread(words: Sequence[WrittenWord], audio_length: int) -> list[TimedWord]:
    """Written words timed in proportion to what is said for each: for audio without token durations."""
    sizes = [len(said) + 1 for word in words for said in word.said]
    bounds = [audio_length * size / max(1, sum(sizes)) for size in accumulate(sizes, initial=0)]
    return word_times(words, list(zip(bounds, bounds[1:], strict=False)), audio_length)


def _time(position: float, spans: Sequence[Span], at_end: bool) -> float:
    """The time at a fractional word position: a whole position is a word's start, or as an end, the end
    of the word before."""
    index = int(position)
    if at_end and index == position and index > 0:
        index -= 1
    index = min(index, len(spans) - 1)
    start, end = spans[index]
    return start + (position - index) * (end - start)


@dataclass(frozen=True)
class WordPlaces:
    """A chunk's written words and where each of its said words falls among the phoneme words: all the
    text work of timing words, done before the model runs (``timed`` needs only the model's spans)."""

    words: tuple[WrittenWord, ...]
    phoneme_words: int  # how many phoneme words ``places`` refers to
    places: tuple[Span, ...] | None  # each said word's span of fractional word positions; None: by length

    def timed(self, phoneme_spans: Sequence[Span], audio_length: int, shift: int = 0) -> list[TimedWord]:
        """The written words timed from their phoneme words' spans, moved back by ``shift`` samples (trimmed
        leading silence) and clipped to ``audio_length``. Without one span per phoneme word, words are timed
        in proportion to what is said."""
        if self.places is None or not phoneme_spans or len(phoneme_spans) != self.phoneme_words:
            return spread(self.words, audio_length)
        spans = [
            (_time(a, phoneme_spans, at_end=False) - shift, _time(b, phoneme_spans, at_end=True) - shift)
            for a, b in self.places
        ]
        return word_times(self.words, spans, audio_length)


def place_words(
    words: Sequence[WrittenWord], phoneme_words: Sequence[str], alone: Callable[[list[str]], list[str]]
) -> WordPlaces:
    """Where each said word of ``words`` falls among ``phoneme_words``.

    ``alone`` gives the phonemes of each said word said alone; it is called only when espeak-ng ran
    words together.
    """
    said = [word for written in words for word in written.said]
    if not words or not phoneme_words:
        return WordPlaces(tuple(words), len(phoneme_words), None)
    places = align(alone(said) if len(said) != len(phoneme_words) else said, phoneme_words)
    return WordPlaces(tuple(words), len(phoneme_words), tuple(places))


def time_words(
    words: Sequence[WrittenWord],
    phoneme_words: Sequence[str],
    phoneme_spans: Sequence[Span],
    alone: Callable[[list[str]], list[str]],
    audio_length: int,
    shift: int = 0,
) -> list[TimedWord]:
    """Written words timed from their phoneme words' spans (``place_words``, then ``WordPlaces.timed``)."""
    return place_words(words, phoneme_words, alone).timed(phoneme_spans, audio_length, shift)
