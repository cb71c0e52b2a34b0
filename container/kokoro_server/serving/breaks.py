"""Pauses and marks inside a sentence, placed at their word boundaries in audio the model made in one call.

A sentence that holds a ``<break>`` or a ``<mark>`` is spoken whole, with one intonation (``text.script``
keeps them in its run as anchors). Its written words are timed from the model's durations, so each
anchor's place is known once the chunk is spoken: after its word. There the pause is made: the quiet
the voice leaves between the two words (a comma's pause, or none) is found, and silence is added to it
until the quiet is the pause's length (a break is the whole pause, at least the voice's own, as between
sentences). A mark is reached where the sound stops (before a
pause) or where it resumes (after one). Words after a boundary move with the audio.

Linear in the chunk's audio per anchor; a chunk holds a bounded number of them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import accumulate

import numpy as np

from kokoro_core.ssml import Mark, Pause
from kokoro_server.engine.speech_engine import SILENCE_LEVEL
from kokoro_server.text.word_sources import WrittenWord
from kokoro_server.text.word_timing import TimedPhoneme, TimedWord

Anchored = Pause | Mark
FADE_SECONDS = 0.004  # a cut where the voice does not fall quiet fades out and in, so it does not click
ENVELOPE_SECONDS = 0.0025  # the quietest point between two words, judged on this much audio around it


@dataclass(frozen=True)
class Inner:
    """What stands after written word ``after_word`` of a chunk, before the next one."""

    after_word: int
    anchored: tuple[Anchored, ...]


@dataclass(frozen=True)
class Anchors:
    """A chunk's anchors by place: before its first word, between two of its words, after its last."""

    leading: tuple[Anchored, ...] = ()
    inner: tuple[Inner, ...] = ()
    trailing: tuple[Anchored, ...] = ()


NO_ANCHORS = Anchors()


def by_word(placed: Sequence[tuple[int, Anchored]], text: str, words: Sequence[WrittenWord]) -> Anchors:
    """Each anchor by the written word it follows: ``placed`` holds (offset in ``text`` of the character after
    the anchor, what it stands for), ``words`` are ``text``'s written words in order. An anchor inside a word
    ("there<mark/>." is the word "there.") follows that word."""
    if not placed:
        return NO_ANCHORS
    starts: list[int] = []  # where each written word starts in ``text``
    at = 0
    for word in words:
        tokens = word.text.split() or [word.text]
        found = text.find(tokens[0], at)
        starts.append(found if found >= 0 else at)
        for token in tokens:  # a word may be several tokens ("3 p.m."), each found after the one before
            found = text.find(token, at)
            at = found + len(token) if found >= 0 else at
    leading: list[Anchored] = []
    trailing: list[Anchored] = []
    inner: dict[int, list[Anchored]] = {}
    for offset, anchored in placed:
        before = bisect_left(starts, offset)  # words that start before the anchor
        if before == 0:
            leading.append(anchored)
        elif before >= len(words):
            trailing.append(anchored)
        else:
            inner.setdefault(before - 1, []).append(anchored)
    return Anchors(tuple(leading), tuple(Inner(index, tuple(items)) for index, items in inner.items()), tuple(trailing))


@dataclass(frozen=True)
class Placed:
    audio: np.ndarray
    words: tuple[TimedWord, ...]
    marks: tuple[tuple[int, str], ...]  # (sample, name) in order
    phonemes: tuple[TimedPhoneme, ...] = ()


def place(
    audio: np.ndarray,
    words: Sequence[TimedWord],
    inner: Sequence[Inner],
    sample_rate: int,
    phonemes: Sequence[TimedPhoneme] = (),
) -> Placed:
    """The chunk's audio with each inner pause made at its word boundary, its words and phonemes moved with
    the audio, and its inner marks' samples.

    One pass over the boundaries finds each pause's cut and length in the audio as spoken, then the audio
    is joined once: linear in the audio and the anchors, however many breaks a chunk holds."""
    if not inner:
        return Placed(audio, tuple(words), (), tuple(phonemes))
    words, sounds = list(words), list(phonemes)
    resumptions: list[tuple[int, int]] = []  # (word, sample its sound resumes at)
    cuts: list[int] = []  # where silence is added, in order
    added: list[int] = []  # how much at each
    marks: list[tuple[int, str]] = []
    ends: dict[int, int] = {}  # a word's end moved to where its sound stops, by its end as timed
    audio = audio.copy()
    delta = 0  # samples added before the boundary at hand
    for boundary in sorted(inner, key=lambda item: item.after_word):
        index = boundary.after_word
        if index + 1 >= len(words):
            continue
        before, after = words[index], words[index + 1]
        cut = _quietest(audio, before.end, max(before.end, after.start), sample_rate)
        quiet_start, quiet_end = _quiet_around(audio, cut, before.start, after.end)
        quiet = quiet_end - quiet_start
        pauses = [round(item.ms * sample_rate / 1000) for item in boundary.anchored if isinstance(item, Pause)]
        more = max(0, sum(pauses) - quiet) if pauses else 0
        if more:
            if not quiet:
                _fade_around(audio, cut, round(FADE_SECONDS * sample_rate))
            cuts.append(cut)
            added.append(more)
        if quiet and quiet_start > before.end:  # the word lasts until its sound stops, where the pause begins
            ends[before.end] = quiet_start
            words[index] = replace(before, end=quiet_start)
        stops = (max(before.end, quiet_start) if quiet else cut) + delta  # where the sound stops, now
        resumes = (quiet_end if quiet else cut) + delta + more  # where it resumes, now
        resumptions.append((index + 1, resumes - delta - more))
        paused = 0  # of the pauses at this boundary, before the mark at hand
        for item in boundary.anchored:
            if isinstance(item, Pause):
                paused += round(item.ms * sample_rate / 1000)
            else:  # before any pause where the sound stops; after one, where that pause ends
                marks.append((min(stops + paused, resumes) if paused < sum(pauses) else resumes, item.name))
        delta += more
    shifts = list(accumulate(added))
    sounds = [replace(sound, end=ends.get(sound.end, sound.end)) for sound in sounds]  # a word's last phoneme

    def moved(sample: int, at_or_after: bool) -> int:
        """Where a sample of the audio as spoken is now: one at a cut moves if it starts something there."""
        count = bisect_right(cuts, sample) if at_or_after else bisect_left(cuts, sample)
        return sample + (shifts[count - 1] if count else 0)

    words = [replace(word, start=moved(word.start, True), end=moved(word.end, False)) for word in words]
    sounds = [replace(sound, start=moved(sound.start, True), end=moved(sound.end, False)) for sound in sounds]
    # After a pause, a word and its phonemes start no earlier than their sound (the durations may put a
    # word's start in the quiet before it).
    floors = [(words[index].start, moved(sample, True)) for index, sample in resumptions]  # in order
    for index, sample in resumptions:
        word = words[index]
        words[index] = replace(word, start=min(max(word.start, moved(sample, True)), word.end))
    sounds = [_no_earlier(sound, floors) for sound in sounds]
    if cuts:
        pieces = np.split(audio, cuts)
        silences = [np.zeros(count, dtype=np.float32) for count in added]
        audio = np.concatenate(
            [piece for pair in zip(pieces, [*silences, None], strict=True) for piece in pair if piece is not None]
        )
    return Placed(audio, tuple(words), tuple(marks), tuple(sounds))


def sounding_from(placed: Placed, sample: int) -> Placed:
    """``placed`` with its first word, and the phonemes before its sound, starting where its sound starts at
    ``sample`` (after a pause: the durations may put them in the quiet before it)."""
    if not placed.words:
        return placed
    first = placed.words[0]
    floors = [(first.start, sample)]
    words = (replace(first, start=min(max(first.start, sample), first.end)), *placed.words[1:])
    return replace(placed, words=words, phonemes=tuple(_no_earlier(sound, floors) for sound in placed.phonemes))


def _no_earlier(sound: TimedPhoneme, floors: Sequence[tuple[int, int]]) -> TimedPhoneme:
    """A phoneme that starts between a word's start and where its sound resumes, starting where it resumes."""
    index = bisect_right(floors, (sound.start, 1 << 62)) - 1
    if index < 0:
        return sound
    word_start, resumes = floors[index]
    if word_start <= sound.start < resumes:
        return replace(sound, start=min(resumes, sound.end))
    return sound


def _fade_around(audio: np.ndarray, cut: int, fade: int) -> None:
    """Fade ``audio`` out to ``cut`` and in after it, in place: silence goes there where the voice runs on."""
    fade = min(fade, cut, len(audio) - cut)
    if fade > 0:
        ramp = np.sin(np.linspace(0.0, np.pi / 2, fade, dtype=np.float32)) ** 2
        audio[cut - fade : cut] *= ramp[::-1]
        audio[cut : cut + fade] *= ramp


def _quietest(audio: np.ndarray, start: int, end: int, sample_rate: int) -> int:
    """The quietest sample from ``start`` to ``end``, judged on a few milliseconds around each."""
    start, end = max(0, min(start, len(audio))), max(0, min(end, len(audio)))
    if end <= start:
        return start
    width = max(1, round(ENVELOPE_SECONDS * sample_rate))
    window = np.abs(audio[max(0, start - width) : min(len(audio), end + width)])
    envelope = np.convolve(window, np.ones(2 * width + 1, dtype=np.float32), mode="same")
    offset = start - max(0, start - width)
    return start + int(np.argmin(envelope[offset : offset + end - start]))


def _quiet_around(audio: np.ndarray, cut: int, lowest: int, highest: int) -> tuple[int, int]:
    """The quiet stretch around ``cut`` (start, end), within ``lowest`` to ``highest``: empty where it is loud."""
    lowest, highest = max(0, lowest), min(len(audio), max(highest, cut))
    loud = np.abs(audio[lowest:highest]) > SILENCE_LEVEL
    local = cut - lowest
    if local < len(loud) and loud[local]:
        return cut, cut
    before = np.flatnonzero(loud[:local])
    after = np.flatnonzero(loud[local:])
    start = lowest + (int(before[-1]) + 1 if before.size else 0)
    end = cut + (int(after[0]) if after.size else highest - cut)
    return start, end
