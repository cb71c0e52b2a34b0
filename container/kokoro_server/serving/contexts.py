"""A session's text streams (contexts): raw text deltas in, sentences out to the session's one queue.

A context is opened with its own speech options; its text is cut into sentences by the segmenter the client
uses (``kokoro_core.speech_text``: Latin and CJK sentence ends, the early first clause, markdown read as
words, SSML elements kept whole) on the stream thread, never on the event loop. Each sentence is admitted as
a ``speak`` would be and queued in the session, so a session's sentences, whatever context they come from,
are spoken one after another in the order they were cut, each a whole sentence for chunk planning.

Text waits in the buffer only for the rest of its sentence: once no text has come for the context's
``max_buffer_delay_ms``, what it holds is spoken as it is. A sentence waits for room when the session holds
all it may (``max_session_utterances``) or the server is at capacity; text appended meanwhile is bounded by
``max_text_chars`` per context. A context with nothing to say that gets no text for ``context_idle_seconds``
ends (``expired``).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from kokoro_core.errors import ProtocolError
from kokoro_core.options import SpeechOptions
from kokoro_core.protocol import DEFAULT_BUFFER_DELAY_MS, Append, End, Flush, Open, SpeakRequest
from kokoro_core.server_messages import ContextEnded, Flushed
from kokoro_core.speakable import language_of
from kokoro_core.speech_text import CutSentence, SpeechText

from .runtime import Runtime

BUSY_RETRY_SECONDS = 0.1  # how soon a sentence refused for the server's capacity is tried again


@dataclass(frozen=True)
class QueuedReply:
    """A context's ``flushed`` or ``context_ended``, queued in the session after the sentences it follows."""

    context: str
    message: Flushed | ContextEnded


class SessionQueue(Protocol):
    """What a context needs of its session (``session.Session``)."""

    def admit_sentence(self, context: TextStream, sentence: CutSentence) -> bool:
        """Admit and queue ``sentence`` (or answer why it cannot be said); ``False`` when the session holds all
        it may now. Raises ``ProtocolError`` ``busy`` when the server is at capacity."""
        ...

    def queue_reply(self, reply: QueuedReply) -> None: ...

    def sentences_of(self, context: str) -> int:
        """The context's sentences queued or playing."""
        ...


class TextStream:
    """One context: its options, its sentence buffer, and the task that cuts and admits its sentences."""

    def __init__(self, message: Open, options: SpeechOptions, runtime: Runtime, session: SessionQueue) -> None:
        self.id = message.context
        self.options = options
        self.ssml = bool(message.ssml)
        delay_ms = message.max_buffer_delay_ms
        self.delay = (DEFAULT_BUFFER_DELAY_MS if delay_ms is None else delay_ms) / 1000
        self._runtime = runtime
        self._session = session
        self._text = SpeechText(
            language=language_of(options.voice), ssml=self.ssml, foreign_script=options.foreign_script
        )
        self._inputs: deque[Append | Flush | End] = deque()
        self._input_ready = asyncio.Event()
        self._buffered = 0  # characters appended and not yet spoken: queued, or held by the segmenter
        self.ended = False  # ``end`` was sent: nothing more may be appended
        self.room = asyncio.Event()  # set by the session when one of its sentences finishes
        self._sentences = itertools.count(1)
        self._task = asyncio.create_task(self._run(), name=f"context-{self.id}")

    def next_id(self) -> str:
        """The id of the context's next sentence: ``<context>/<n>``."""
        return f"{self.id}/{next(self._sentences)}"

    def take(self, message: Append | Flush | End) -> None:
        """An input from the reader, checked against the context's state; raises ``ProtocolError``."""
        if self.ended:
            raise ProtocolError("unknown_context", f"context {self.id!r} has ended (end was sent); open a new one")
        if isinstance(message, Append):
            limit = self._runtime.settings.max_text_chars
            if self._buffered + len(message.text) > limit:
                raise ProtocolError(
                    "text_too_long",
                    f"context {self.id!r} would hold {self._buffered + len(message.text)} characters not yet "
                    f"spoken; at most {limit} (max_text_chars) may wait: append more as its audio plays",
                )
            self._buffered += len(message.text)
        elif isinstance(message, End):
            self.ended = True
        self._inputs.append(message)
        self._input_ready.set()

    def cancel(self) -> None:
        self._task.cancel()

    async def stopped(self) -> None:
        await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            message = await self._next_input()
            if message == "expired":
                self.ended = True
                self._session.queue_reply(QueuedReply(self.id, ContextEnded(context=self.id, reason="expired")))
                return
            if isinstance(message, Append):
                sentences = await self._cut(self._text.push_sentences, message.text)
            else:  # a flush, the end, or text that has waited its longest
                sentences = await self._cut(self._text.flush_sentences)
            for sentence in sentences:
                await self._admit(sentence)
            if isinstance(message, Flush):
                self._session.queue_reply(QueuedReply(self.id, Flushed(context=self.id, id=message.id)))
            elif isinstance(message, End):
                self._session.queue_reply(QueuedReply(self.id, ContextEnded(context=self.id, reason="ended")))
                return

    async def _next_input(self) -> Append | Flush | End | Literal["waited", "expired"]:
        """The next input; ``waited`` when the buffered text has waited ``delay`` for more, ``expired`` when
        the context has had nothing to say and no text for ``context_idle_seconds``."""
        idle = self._runtime.settings.context_idle_seconds
        while not self._inputs:
            holding = bool(self._text.pending.strip())
            self._input_ready.clear()
            try:
                async with asyncio.timeout(self.delay if holding else idle):
                    await self._input_ready.wait()
            except TimeoutError:
                if holding:
                    return "waited"
                if not self._session.sentences_of(self.id):
                    return "expired"
        return self._inputs.popleft()

    async def _cut(self, cut: Callable[..., list[CutSentence]], *args: str) -> list[CutSentence]:
        """Run the segmenter on the stream thread; the buffered count follows what it still holds."""

        def job() -> tuple[list[CutSentence], int]:
            sentences = cut(*args)
            return sentences, len(self._text.pending)

        sentences: list[CutSentence]
        sentences, held = await asyncio.wrap_future(self._runtime.scheduler.segment(job))
        queued = sum(len(item.text) for item in self._inputs if isinstance(item, Append))
        self._buffered = held + queued
        return sentences

    async def _admit(self, sentence: CutSentence) -> None:
        """Admit ``sentence`` once there is room for it in the session and on the server."""
        while True:
            self.room.clear()
            try:
                if self._session.admit_sentence(self, sentence):
                    return
                await self.room.wait()
            except ProtocolError:  # busy: the server is at capacity
                await asyncio.sleep(BUSY_RETRY_SECONDS)

    def request(self, sentence: CutSentence) -> SpeakRequest:
        """The sentence as a ``speak`` would give it (an SSML context's as a fragment)."""
        return SpeakRequest(text=sentence.text, ssml=self.ssml)
