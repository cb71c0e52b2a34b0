"""Where an utterance's audio stands, and what each step adds to it: pure functions of the timeline so far.

A spoken chunk adds its audio, its words and phonemes timed from the utterance's first sample, and the marks
between its words (``breaks``); a pause waits for the sound after it, so that the silence between the last
sound before it and the first after it is the pause (the voice's own quiet edges count); a mark is reached
where the audio stands, or after the pause it follows. Each function takes the timeline and returns the
pieces the step adds (float audio, before encoding) and the timeline after them: nothing else is changed.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace

import numpy as np

from kokoro_core.server_messages import Bookmark, Phoneme, Word
from kokoro_core.ssml import Mark, Pause
from kokoro_server.engine.speech_engine import PreparedChunk, Speech
from kokoro_server.text.script import Run
from kokoro_server.text.word_timing import TimedPhoneme

from .audio import quiet_edges
from .breaks import Inner, place, sounding_from
from .loudness import louder
from .phoneme_marks import SILENCE, mark, tiled

EMPTY = np.zeros(0, dtype=np.float32)


@dataclass(frozen=True)
class Labels:
    """What an utterance's marks carry, and what it asked to be told."""

    id: str
    context: str | None
    rate: int  # samples per second of the engine's audio
    phonemes: bool  # phoneme marks were asked for

    @property
    def ms_per_sample(self) -> float:
        return 1000 / self.rate


@dataclass(frozen=True)
class Timeline:
    samples: int = 0  # rendered so far, at the engine's rate
    pause_samples: int = 0  # a pause waiting for the sound after it
    marks: tuple[str, ...] = ()  # marks waiting (after that pause)
    tail_quiet: int = 0  # quiet samples at the end of the audio so far


@dataclass(frozen=True)
class Piece:
    """Audio before encoding (float, at the engine's rate), the words and phonemes that start in it, and the
    marks reached before it."""

    audio: np.ndarray = field(default_factory=lambda: EMPTY)
    words: tuple[Word, ...] = ()
    bookmarks: tuple[Bookmark, ...] = ()
    phonemes: tuple[Phoneme, ...] = ()


@dataclass(frozen=True)
class SpokenChunk:
    """A chunk ready for the model, its run, and the pauses and marks between its words."""

    chunk: PreparedChunk
    run: Run
    inner: tuple[Inner, ...] = ()


Step = SpokenChunk | Pause | Mark  # a chunk for the model, or what needs no model


def _bookmarks(labels: Labels, names: tuple[str, ...] | list[str], at_samples: int) -> tuple[Bookmark, ...]:
    at_ms = round(at_samples * labels.ms_per_sample, 1)
    return tuple(Bookmark(id=labels.id, context=labels.context, name=name, at_ms=at_ms) for name in names)


def _silence(labels: Labels, timeline: Timeline, samples: int) -> Piece:
    quiet = mark(TimedPhoneme(SILENCE, 0, samples), timeline.samples, labels.ms_per_sample)
    return Piece(np.zeros(samples, dtype=np.float32), phonemes=(quiet,))


def _until[Timed](timed: deque[tuple[int, Timed]], end: int) -> tuple[Timed, ...]:
    """Take from ``timed`` (in order of their start sample) those that start before ``end``."""
    taken = []
    while timed and timed[0][0] < end:
        taken.append(timed.popleft()[1])
    return tuple(taken)


def spoken(timeline: Timeline, step: SpokenChunk, speech: Speech, labels: Labels) -> tuple[list[Piece], Timeline]:
    """A chunk the model spoke: a pause before it goes first, and the pauses and marks between its words are
    made where its words meet (``breaks``)."""
    run, rate = step.run, labels.rate
    placed = place(speech.audio, speech.words, step.inner, rate, speech.phonemes)
    whole = placed.audio
    # The pauses around the chunk count the voice's quiet as spoken, before its volume: a soft run's quiet
    # edges are the same length as a loud one's.
    head_quiet, tail_quiet = quiet_edges(whole)
    paused = timeline.pause_samples > 0
    if paused:  # the chunk's first word starts where its sound resumes (its marks are reached there)
        placed = sounding_from(placed, head_quiet)
    if run.volume_db:
        whole = louder(whole, run.volume_db, sample_rate=rate)
    pieces: list[Piece] = []
    if paused and (pad := max(0, timeline.pause_samples - timeline.tail_quiet - head_quiet)):
        pieces.append(_silence(labels, timeline, pad))
        timeline = replace(timeline, samples=timeline.samples + pad)
    offset = timeline.samples
    ms = labels.ms_per_sample
    # Where the audio is cut, and the marks reached there: after a pause, its marks where the sound resumes;
    # each inner mark where its words meet.
    cuts = [(head_quiet if paused else 0, list(timeline.marks))] if timeline.marks else []
    cuts.extend((at, [name]) for at, name in placed.marks)
    words = deque(
        (
            word.start,
            Word(
                text=run.as_written(word.text),
                start_ms=round((offset + word.start) * ms, 1),
                end_ms=round((offset + word.end) * ms, 1),
            ),
        )
        for word in placed.words
    )
    sounds: deque[tuple[int, Phoneme]] = deque()
    if labels.phonemes:  # a muted run moves no lips: its audio is all ``sil``
        heard = placed.phonemes if run.volume_db != float("-inf") else ()
        marked = ((sound.start, mark(sound, offset, ms)) for sound in tiled(heard, len(whole)))
        sounds.extend((start, sound) for start, sound in marked if sound.end_ms > sound.start_ms)  # none under 0.1 ms

    def piece(start: int, end: int, last: bool = False) -> Piece:
        """The audio from ``start`` to ``end``, with the words and phonemes that start in it."""
        end_of = len(whole) + 1 if last else end
        return Piece(whole[start:end], _until(words, end_of), phonemes=_until(sounds, end_of))

    consumed = 0
    for at, names in cuts:
        if at > consumed:
            pieces.append(piece(consumed, at))
            consumed = at
        pieces.append(Piece(bookmarks=_bookmarks(labels, names, offset + consumed)))
    pieces.append(piece(consumed, len(whole), last=True))
    tail = tail_quiet if tail_quiet < len(whole) else timeline.tail_quiet + len(whole)
    return pieces, Timeline(samples=offset + len(whole), tail_quiet=tail)


def _reached(timeline: Timeline, labels: Labels) -> tuple[list[Piece], Timeline]:
    """The marks waiting, reached where the audio stands now: a piece without audio, or none."""
    if not timeline.marks:
        return [], timeline
    return [Piece(bookmarks=_bookmarks(labels, timeline.marks, timeline.samples))], replace(timeline, marks=())


def _end_pause(timeline: Timeline, labels: Labels) -> tuple[list[Piece], Timeline]:
    """A pause with no sound after it: its silence after the quiet the audio already ends with, then the marks
    that waited for it; what comes next counts from there."""
    pieces = []
    if pad := max(0, timeline.pause_samples - timeline.tail_quiet):
        pieces.append(_silence(labels, timeline, pad))
    timeline = replace(timeline, samples=timeline.samples + pad, pause_samples=0, tail_quiet=0)
    reached, timeline = _reached(timeline, labels)
    return pieces + reached, timeline


def without_model(timeline: Timeline, step: Pause | Mark, labels: Labels) -> tuple[list[Piece], Timeline]:
    """A pause waits for the sound after it; a mark is reached now, or after a pause."""
    if isinstance(step, Pause):
        # Marks between two pauses: the first pause ends where they stand.
        pieces, timeline = _end_pause(timeline, labels) if timeline.marks else ([], timeline)
        return pieces, replace(timeline, pause_samples=timeline.pause_samples + round(step.ms * labels.rate / 1000))
    timeline = replace(timeline, marks=(*timeline.marks, step.name))
    return ([], timeline) if timeline.pause_samples else _reached(timeline, labels)


def ended(timeline: Timeline, labels: Labels) -> tuple[list[Piece], Timeline]:
    """What is left at the end: a last pause and the marks after it."""
    return _end_pause(timeline, labels)
