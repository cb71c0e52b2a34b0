"""From an agent's text stream to sentences worth saying: one buffer, used by the client and the session.

Wraps the project's one sentence segmenter (``kokoro_core.segmenter``) and its one markdown rule
(``kokoro_core.markdown``: code blocks not read out, marks dropped, links read as their text), sentence
by sentence, and skips a sentence with nothing to say by the server's own rule (``kokoro_core.speakable``).
A fenced code block may span many sentences of the stream: none of it is said.

A sentence is released the moment the segmenter knows it is complete. Optionally the first
clause of a reply goes out early (at a comma, semicolon or colon after a few words) so that
speech starts before the model has finished its first sentence.

With ``ssml`` the stream is SSML fragments (docs/ssml.md): a sentence is released only where no tag is
open and none is half written, so an element is never cut in two; its markup is kept as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .markdown import CodeFences, spoken_sentence
from .segmenter import SentenceSegmenter
from .speakable import has_speech

_EARLY_CLAUSE = re.compile(r"[,;:](?=\s+[A-Za-z])")
EARLY_CLAUSE_MIN_CHARS = 24


@dataclass(frozen=True)
class CutSentence:
    """A sentence to say, and how many characters of the stream it and everything before it cover: a stream
    resumed from there says what follows it."""

    text: str
    stream_chars: int


class MarkupDepth:
    """Where a stream of SSML stands: how deep in elements, and whether a tag is half written. Linear: each
    character is looked at once."""

    def __init__(self) -> None:
        self.depth = 0
        self._tag: list[str] | None = None  # the tag being read, from its "<"
        self._quote = ""

    @property
    def balanced(self) -> bool:
        return self.depth <= 0 and self._tag is None

    def feed(self, text: str) -> None:
        for char in text:
            if self._tag is None:
                if char == "<":
                    self._tag = [char]
                continue
            self._tag.append(char)
            if self._quote:
                if char == self._quote:
                    self._quote = ""
            elif char in "\"'":
                self._quote = char
            elif char == ">":
                self._close_tag("".join(self._tag))
                self._tag = None

    def _close_tag(self, tag: str) -> None:
        if tag.startswith(("<?", "<!")) or tag.endswith("/>"):
            return  # a processing instruction, a comment or an empty element
        self.depth += -1 if tag.startswith("</") else 1


class SpeechText:
    """Feed text deltas; get back speakable sentences as soon as each is complete."""

    def __init__(
        self,
        early_first_clause: bool = True,
        language: str | None = None,
        ssml: bool = False,
        foreign_script: str = "read",
    ) -> None:
        """``language``: the voice's (``kokoro_core.speakable.language_of``), when known; ``foreign_script``: the
        session's (whether a run of another script is said)."""
        self._segmenter = SentenceSegmenter()
        self._language = language
        self._foreign_script = foreign_script
        self._code = CodeFences()
        self._early = early_first_clause and not ssml
        self._emitted = 0
        self._consumed = 0  # characters of the stream returned as sentences (or skipped)
        self._markup = MarkupDepth() if ssml else None
        self._held = ""  # SSML: sentences cut while an element was open, waiting for it to close

    def push(self, delta: str) -> list[str]:
        return [sentence.text for sentence in self.push_sentences(delta)]

    def flush(self) -> list[str]:
        return [sentence.text for sentence in self.flush_sentences()]

    @property
    def pending(self) -> str:
        """Text received and not yet returned."""
        return self._held + self._segmenter.pending

    def push_sentences(self, delta: str) -> list[CutSentence]:
        sentences = self._segmenter.push(delta)
        if self._early and not self._emitted and not sentences and not self._code.inside:
            early = self._early_clause()
            if early:
                return early
        return self._speakable(sentences)

    def flush_sentences(self) -> list[CutSentence]:
        return self._speakable(self._segmenter.flush(), final=True)

    def _early_clause(self) -> list[CutSentence]:
        pending = self._segmenter.pending
        if "`" in pending or "[" in pending:
            return []  # never cut inside code or a link
        for match in _EARLY_CLAUSE.finditer(pending):
            if match.end() >= EARLY_CLAUSE_MIN_CHARS:
                clause = self._segmenter.take(match.end())
                return self._speakable([clause])
        return []

    def _speakable(self, sentences: list[str], final: bool = False) -> list[CutSentence]:
        if self._markup is not None:
            return self._whole_markup(sentences, final)
        spoken = []
        for sentence in sentences:
            self._consumed += len(sentence)
            for piece in self._code.outside(sentence):
                text = spoken_sentence(piece)
                if has_speech(text, self._language, self._foreign_script):
                    spoken.append(CutSentence(text, self._consumed))
        self._emitted += len(spoken)
        return spoken

    def _whole_markup(self, sentences: list[str], final: bool) -> list[CutSentence]:
        assert self._markup is not None
        spoken = []
        for sentence in sentences:
            self._markup.feed(sentence)
            self._held += sentence
            if self._markup.balanced:
                self._consumed += len(self._held)
                if self._held.strip():
                    spoken.append(CutSentence(self._held, self._consumed))
                self._held = ""
        if final and self._held.strip():  # an element left open: the server says what is wrong with it
            self._consumed += len(self._held)
            spoken.append(CutSentence(self._held, self._consumed))
        if final:
            self._held, self._markup = "", MarkupDepth()
        self._emitted += len(spoken)
        return spoken
