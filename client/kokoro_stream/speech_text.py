"""From an agent's text stream to sentences worth saying.

Wraps the project's one sentence segmenter (``kokoro_core.segmenter``) and turns text meant for
reading into text meant for hearing, sentence by sentence:

- fenced code blocks (```) are not read out; inline `code` loses its backticks;
- markdown emphasis (``**bold**``, ``*italic*``, ``__x__``, ``_x_``) and heading marks (``#``)
  are dropped, keeping the words; bullets (``-``, ``*``, ``•``) are dropped, each item stays its
  own sentence; numbered items keep their numbers;
- links ``[text](url)`` are read as their text; a bare URL is read as its host name
  ("example.com"); table pipes become pauses.

A sentence is released the moment the segmenter knows it is complete. Optionally the first
clause of a reply goes out early (at a comma, semicolon or colon after a few words) so that
speech starts before the model has finished its first sentence.
"""

from __future__ import annotations

import re

from kokoro_core.segmenter import SentenceSegmenter

_FENCE = re.compile(r"^\s*(```|~~~)", re.MULTILINE)
_INLINE_CODE = re.compile(r"`([^`]*)`")
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^)\s]+)\)")
_URL = re.compile(r"\b(?:https?://|www\.)([A-Za-z0-9.-]+)(?:[/?#][^\s)]*)?")
_EMPHASIS = re.compile(r"(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1")
_LINE_MARKS = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|[-*•+][ \t]+|>[ \t]?)", re.MULTILINE)
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}.*$", re.MULTILINE)
_PIPES = re.compile(r"[ \t]*\|[ \t]*")
_EARLY_CLAUSE = re.compile(r"[,;:](?=\s+[A-Za-z])")
EARLY_CLAUSE_MIN_CHARS = 24


def readable_to_speakable(sentence: str) -> str:
    """One sentence of markdown-ish text as plain words to speak (may return '')."""
    text = _LINK.sub(r"\1", sentence)
    text = _URL.sub(lambda m: m.group(1).removeprefix("www."), text)
    text = _INLINE_CODE.sub(r"\1", text)
    text = _TABLE_RULE.sub("", text)
    text = _LINE_MARKS.sub("", text)
    for _ in range(2):  # nested emphasis: ***both*** or **bold _and_ italic**
        text = _EMPHASIS.sub(r"\2", text)
    text = _PIPES.sub(", ", text.strip().strip("|"))
    return " ".join(text.split())


class SpeechText:
    """Feed text deltas; get back speakable sentences as soon as each is complete."""

    def __init__(self, early_first_clause: bool = True) -> None:
        self._segmenter = SentenceSegmenter()
        self._in_code = False
        self._early = early_first_clause
        self._emitted = 0

    def push(self, delta: str) -> list[str]:
        sentences = self._segmenter.push(delta)
        if self._early and not self._emitted and not sentences and not self._in_code:
            early = self._early_clause()
            if early:
                return early
        return self._speakable(sentences)

    def flush(self) -> list[str]:
        return self._speakable(self._segmenter.flush())

    def _early_clause(self) -> list[str]:
        pending = self._segmenter.pending
        if "`" in pending or "[" in pending:
            return []  # never cut inside code or a link
        for match in _EARLY_CLAUSE.finditer(pending):
            if match.end() >= EARLY_CLAUSE_MIN_CHARS:
                clause = self._segmenter.take(match.end())
                return self._speakable([clause])
        return []

    def _speakable(self, sentences: list[str]) -> list[str]:
        spoken = []
        for sentence in sentences:
            for piece in self._outside_code(sentence):
                text = readable_to_speakable(piece)
                if any(char.isalnum() for char in text):
                    spoken.append(text)
        self._emitted += len(spoken)
        return spoken

    def _outside_code(self, sentence: str) -> list[str]:
        """The parts of ``sentence`` that are not inside a fenced code block."""
        pieces, position = [], 0
        for fence in _FENCE.finditer(sentence):
            if not self._in_code:
                pieces.append(sentence[position : fence.start()])
            self._in_code = not self._in_code
            line_end = sentence.find("\n", fence.end())
            position = len(sentence) if line_end < 0 else line_end + 1  # the fence line names a language
        if not self._in_code:
            pieces.append(sentence[position:])
        return pieces
