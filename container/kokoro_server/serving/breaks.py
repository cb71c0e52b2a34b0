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

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from kokoro_core.ssml import Mark, Pause
from kokoro_server.engine.speech_engine import SILENCE_LEVEL
from kokoro_server.text.word_timing import TimedPhoneme, TimedWord, WrittenWord

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
    """Each anchor by the written word it follows: ``placed`` holds (offset in ``text``, what it stands
    for), ``words`` are ``text``'s written words in order."""
    if not placed:
        return NO_ANCHORS
    ends: list[int] = []  # where each written word ends in ``text``
    at = 0
    for word in words:
        for token in word.text.split():
            found = text.find(token, at)
            at = found + len(token) if found >= 0 else at
        ends.append(at)
    leading: list[Anchored] = []
    trailing: list[Anchored] = []
    inner: dict[int, list[Anchored]] = {}
    for offset, anchored in placed:
        before = sum(1 for end in ends if end <= offset)  # words wholly before the anchor
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
    sounds_from: int = 0,
) -> Placed:
    """The chunk's audio with each inner pause made at its word boundary, its words and phonemes moved with
    the audio, and its inner marks' samples. ``sounds_from``: where the chunk's sound starts, when that
    matters (after a pause): its first word and phonemes start no earlier."""
    words, sounds = list(words), list(phonemes)
    if sounds_from and words:
        words[0] = replace(words[0], start=min(max(words[0].start, sounds_from), words[0].end))
        sounds = [_after(sound, 0, _Edit(0, 0), sounds_from) for sound in sounds]
    if not inner:
        return Placed(audio, tuple(words), (), tuple(sounds))
    marks: list[tuple[int, str]] = []
    for boundary in sorted(inner, key=lambda item: -item.after_word):  # last first: earlier samples stay put
        index = boundary.after_word
        if index + 1 >= len(words):
            continue
        before, after = words[index], words[index + 1]
        cut = _quietest(audio, before.end, max(before.end, after.start), sample_rate)
        quiet_start, quiet_end = _quiet_around(audio, cut, before.start, after.end)
        stops = max(before.end, quiet_start) if quiet_end > quiet_start else cut  # where the sound stops
        edit = _Edit(cut, 0)
        if any(isinstance(item, Pause) for item in boundary.anchored):
            pause = round(sum(item.ms for item in boundary.anchored if isinstance(item, Pause)) * sample_rate / 1000)
            audio, edit = _pause(audio, cut, quiet_start, quiet_end, pause, sample_rate)
        resumes = edit(quiet_end) if quiet_end > quiet_start else edit(cut)  # where the sound resumes
        # After the cut, every time moves with the audio; the next word and its phonemes start no earlier
        # than their sound (the durations may put a word's start in the quiet before it).
        words[index + 1 :] = [replace(word, start=edit(word.start), end=edit(word.end)) for word in words[index + 1 :]]
        following = words[index + 1]
        words[index + 1] = replace(following, start=min(max(following.start, resumes), following.end))
        sounds = [_after(sound, cut, edit, resumes) for sound in sounds]
        here, paused = [], False
        for item in boundary.anchored:
            if isinstance(item, Pause):
                paused = True
            else:
                here.append((resumes if paused else stops, item.name))
        marks = [*here, *((edit(sample), name) for sample, name in marks)]
    return Placed(audio, tuple(words), tuple(marks), tuple(sounds))


def _after(sound: TimedPhoneme, cut: int, edit: _Edit, resumes: int) -> TimedPhoneme:
    """A phoneme moved with the audio, if it is after the cut, and starting no earlier than its sound."""
    if sound.start < cut:
        return sound
    start, end = edit(sound.start), edit(sound.end)
    return replace(sound, start=min(max(start, resumes), end), end=end)


@dataclass(frozen=True)
class _Edit:
    """``change`` samples added at ``at``: where a sample of the audio before it now is."""

    at: int
    change: int

    def __call__(self, sample: int) -> int:
        return sample if sample < self.at else sample + self.change


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


def _pause(
    audio: np.ndarray, cut: int, quiet_start: int, quiet_end: int, pause: int, sample_rate: int
) -> tuple[np.ndarray, _Edit]:
    """``audio`` with the quiet from ``quiet_start`` to ``quiet_end`` (around ``cut``) made at least ``pause``
    samples long by silence added at ``cut``: a break is the whole pause, and never shortens the voice's own
    (as between sentences)."""
    quiet = quiet_end - quiet_start
    if pause <= quiet:
        return audio, _Edit(cut, 0)
    head, tail = audio[:cut].copy(), audio[cut:].copy()
    if quiet == 0:  # the voice runs on here: fade to silence and back
        fade = min(round(FADE_SECONDS * sample_rate), len(head), len(tail))
        if fade:
            ramp = np.sin(np.linspace(0.0, np.pi / 2, fade, dtype=np.float32)) ** 2
            head[len(head) - fade :] *= ramp[::-1]
            tail[:fade] *= ramp
    silence = np.zeros(pause - quiet, dtype=np.float32)
    return np.concatenate([head, silence, tail]), _Edit(cut, pause - quiet)
