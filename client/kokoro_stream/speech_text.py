"""From an agent's text stream to sentences worth saying.

Wraps the project's one sentence segmenter (``kokoro_core.segmenter``) and its one markdown rule
(``kokoro_core.markdown``: code blocks not read out, marks dropped, links read as their text), sentence
by sentence, and skips a sentence with nothing to say by the server's own rule (``kokoro_core.speakable``).
A fenced code block may span many sentences of the stream: none of it is said.

A sentence is released the moment the segmenter knows it is complete. Optionally the first
clause of a reply goes out early (at a comma, semicolon or colon after a few words) so that
speech starts before the model has finished its first sentence.
"""

from __future__ import annotations

import re

from kokoro_core.markdown import CodeFences, spoken_sentence
from kokoro_core.segmenter import SentenceSegmenter
from kokoro_core.speakable import has_speech

_EARLY_CLAUSE = re.compile(r"[,;:](?=\s+[A-Za-z])")
EARLY_CLAUSE_MIN_CHARS = 24


class SpeechText:
    """Feed text deltas; get back speakable sentences as soon as each is complete."""

    def __init__(self, early_first_clause: bool = True, language: str | None = None) -> None:
        """``language``: the voice's (``kokoro_core.speakable.language_of``), when known."""
        self._segmenter = SentenceSegmenter()
        self._language = language
        self._code = CodeFences()
        self._early = early_first_clause
        self._emitted = 0

    def push(self, delta: str) -> list[str]:
        sentences = self._segmenter.push(delta)
        if self._early and not self._emitted and not sentences and not self._code.inside:
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
            for piece in self._code.outside(sentence):
                text = spoken_sentence(piece)
                if has_speech(text, self._language):
                    spoken.append(text)
        self._emitted += len(spoken)
        return spoken
