"""Subtitles from word marks: SubRip (.srt) or WebVTT (.vtt), timed to the audio as it was spoken.

Cues follow common subtitle practice: at most two lines of about 42 characters, at most 6 seconds on
screen, a new cue at each sentence's end and at a long pause, so a caption never runs ahead of the
voice by more than a few words.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pysubs2

from kokoro_core.segmenter import join_words

from .reply import AudioChunk, ReplyClock

LINE_CHARS = 42
CUE_MS = 6000
PAUSE_MS = 700  # silence that ends a cue
FORMATS = {".srt": "srt", ".vtt": "vtt"}


@dataclass(frozen=True)
class TimedText:
    """A written word, or a cue's text, and when it is heard: ms from the start of the audio."""

    text: str
    start_ms: float
    end_ms: float


def reply_words(chunks: Iterable[AudioChunk]) -> list[TimedText]:
    """The words of a reply's chunks, in spoken order, timed from the reply's first sample.

    A word's marks count from its sentence's first sample; each sentence starts where the audio before
    it ends."""
    words: list[TimedText] = []
    clock = ReplyClock()
    for chunk in chunks:
        offset = clock.place(chunk)
        words.extend(TimedText(w.text, offset + w.start_ms, offset + w.end_ms) for w in chunk.words)
    return words


def cues(words: Iterable[TimedText]) -> list[TimedText]:
    """Words grouped into subtitle cues of at most two lines (joined by a newline)."""
    grouped: list[tuple[list[TimedText], list[str]]] = []  # each cue's words and lines
    for word in words:
        if grouped:
            cue, lines = grouped[-1]
            ended = cue[-1].text.endswith((".", "!", "?", "…", "。", "！", "？"))
            paused = word.start_ms - cue[-1].end_ms >= PAUSE_MS
            if not ended and not paused and word.end_ms - cue[0].start_ms <= CUE_MS:
                if len(line := join_words((lines[-1], word.text))) <= LINE_CHARS:  # no spaces in Chinese
                    cue.append(word)
                    lines[-1] = line
                    continue
                if len(lines) < 2:
                    cue.append(word)
                    lines.append(word.text)
                    continue
        grouped.append(([word], [word.text]))
    return [TimedText("\n".join(lines), cue[0].start_ms, cue[-1].end_ms) for cue, lines in grouped]


def write_captions(words: Iterable[TimedText], path: Path) -> int:
    """Write ``words`` as subtitles in the format ``path``'s suffix names; return the number of cues."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"{path.name}: captions are written as .srt or .vtt")
    subtitles = pysubs2.SSAFile()
    timed = cues(words)
    for cue in timed:
        # WebVTT cue text is markup: a literal "<" or "&" must be escaped, or players hide or misread it.
        text = html.escape(cue.text, quote=False) if fmt == "vtt" else cue.text
        subtitles.append(
            pysubs2.SSAEvent(start=round(cue.start_ms), end=round(cue.end_ms), text=text.replace("\n", r"\N"))
        )
    # Braces are words here, not SSA override tags to strip.
    path.write_text(subtitles.to_string(fmt, keep_ssa_tags=True), encoding="utf-8")
    return len(timed)
