"""One agent turn's text in and audio out (``Reply``), and what the speaker keeps per sentence."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .speech_text import SpeechText

if TYPE_CHECKING:
    from .speaker import Speaker


@dataclass(frozen=True)
class AudioChunk:
    utterance_id: str
    text: str
    audio: bytes
    format: str
    sample_rate: int


@dataclass
class PendingSentence:
    """A sentence sent and not yet wholly heard: what the speaker needs to re-send it or release its audio."""

    id: str
    text: str
    reply: Reply
    delivered: int = 0  # audio bytes handed to the reply
    skip: int = 0  # after a re-send: bytes of the new audio that were already delivered
    received: int = 0  # bytes received for the current attempt
    first_chunk_chars: int | None = None  # the server's plan, from ``start``: sent back on a re-send
    generation: int = -1  # the connection it was last sent on
    busy_retries: int = 0
    complete: bool = False  # all its audio has arrived
    held: list[AudioChunk] = field(default_factory=list)  # arrived before an earlier sentence finished


@dataclass
class Reply:
    """One agent turn. ``feed`` text as it arrives, ``end`` it, iterate its audio in order."""

    _speaker: Speaker
    _text: SpeechText = field(default_factory=SpeechText)
    _queue: asyncio.Queue[AudioChunk | BaseException | None] = field(default_factory=asyncio.Queue)
    _outstanding: int = 0
    _ended: bool = False
    _finished: bool = False

    async def feed(self, delta: str) -> None:
        """Add text; each sentence it completes is sent at once."""
        if self._finished:
            return  # canceled: the agent may still be streaming, none of it is spoken
        for sentence in self._text.push(delta):
            await self._send(sentence)

    async def end(self) -> None:
        """No more text: send what is left."""
        if self._ended or self._finished:
            return
        for sentence in self._text.flush():
            await self._send(sentence)
        self._ended = True
        self._maybe_finish()

    async def _send(self, sentence: str) -> None:
        self._outstanding += 1
        await self._speaker._send_speak(self, sentence)

    def __aiter__(self) -> AsyncIterator[AudioChunk]:
        return self

    async def __anext__(self) -> AudioChunk:
        item = await self._queue.get()
        if item is None:
            self._queue.put_nowait(None)  # stay finished for later readers
            raise StopAsyncIteration
        if isinstance(item, BaseException):
            raise item
        return item

    def _deliver(self, chunk: AudioChunk) -> None:
        if not self._finished:
            self._queue.put_nowait(chunk)

    def _utterance_finished(self) -> None:
        self._outstanding -= 1
        self._maybe_finish()

    def _maybe_finish(self) -> None:
        if self._ended and self._outstanding <= 0 and not self._finished:
            self._finished = True
            self._queue.put_nowait(None)

    def _fail(self, error: BaseException) -> None:
        if not self._finished:
            self._finished = True
            self._queue.put_nowait(error)

    def _cancel(self) -> None:
        self._finished = True
        while not self._queue.empty():  # drop audio received but not yet taken
            self._queue.get_nowait()
        self._queue.put_nowait(None)
