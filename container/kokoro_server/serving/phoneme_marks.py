"""Phoneme marks: an utterance's sounds with their viseme ids, tiling its audio.

The engine times each phoneme it says (``Speech.phonemes``, fitted to the written words); what lies
between them (the quiet between words, a pause, a chunk's quiet edges) is ``sil``, viseme 0. So the marks
of an utterance run from its first sample to its last, each starting where the one before ends, and a
word's first and last phonemes start and end with its word mark.
"""

from __future__ import annotations

from collections.abc import Sequence

from kokoro_core.server_messages import Phoneme
from kokoro_core.visemes import viseme_of
from kokoro_server.text.word_timing import TimedPhoneme

SILENCE = "sil"


def tiled(phonemes: Sequence[TimedPhoneme], length: int) -> list[TimedPhoneme]:
    """``phonemes`` (in order) clipped to ``length`` samples, overlaps cut, and the gaps filled with ``sil``:
    tiles from 0 to ``length``."""
    tiles: list[TimedPhoneme] = []
    at = 0
    for phoneme in phonemes:
        start, end = max(at, phoneme.start), min(length, phoneme.end)
        if end <= start:
            continue
        if start > at:
            tiles.append(TimedPhoneme(SILENCE, at, start))
        tiles.append(TimedPhoneme(phoneme.phoneme, start, end))
        at = end
    if at < length:
        tiles.append(TimedPhoneme(SILENCE, at, length))
    return tiles


def mark(phoneme: TimedPhoneme, offset: int, ms_per_sample: float) -> Phoneme:
    """The mark of a chunk's phoneme, in milliseconds from the utterance's first sample (``offset`` samples
    before the chunk)."""
    return Phoneme(
        phoneme=phoneme.phoneme,
        viseme=0 if phoneme.phoneme == SILENCE else viseme_of(phoneme.phoneme),
        start_ms=round((offset + phoneme.start) * ms_per_sample, 1),
        end_ms=round((offset + phoneme.end) * ms_per_sample, 1),
    )
