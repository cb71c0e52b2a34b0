"""One agent turn's text in and audio out (``Reply``), what the speaker keeps per sentence, and what of
a turn the listener heard (``Heard``). A turn may hold SSML documents (``say_ssml``) among its sentences."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from kokoro_core.audio_format import AudioFormat
from kokoro_core.errors import ProtocolError
from kokoro_core.markdown import spoken_sentence
from kokoro_core.segmenter import join_words
from kokoro_core.server_messages import Bookmark, Phoneme, Word
from kokoro_core.speakable import has_speech
from kokoro_core.speech_text import SpeechText
from kokoro_core.ssml import SsmlError, parse_ssml, written_text


@dataclass(frozen=True)
class AudioChunk:
    utterance_id: str
    text: str
    audio: bytes
    format: str
    sample_rate: int
    # With marks on: the words whose audio starts in this chunk, timed from the utterance's first sample.
    words: tuple[Word, ...] = ()
    # Where the utterance's audio begins in the reply's (set as the reply delivers it): a word's time in
    # the reply is this plus its own.
    utterance_start_ms: float = 0.0
    # SSML marks reached just before this chunk's audio (at its end, for a chunk without audio).
    bookmarks: tuple[Bookmark, ...] = ()
    # With phonemes on: the phonemes (with viseme ids) that start in this chunk, timed as its words are.
    phonemes: tuple[Phoneme, ...] = ()

    @property
    def duration_ms(self) -> float:
        return AudioFormat(self.format, self.sample_rate).duration_ms(len(self.audio))

    def reply_times(self) -> list[tuple[str, float, float]]:
        """This chunk's words as (text, start, end) in seconds from the reply's first sample."""
        offset = self.utterance_start_ms
        return [(word.text, (offset + word.start_ms) / 1000, (offset + word.end_ms) / 1000) for word in self.words]


class ReplyClock:
    """Where each sentence's audio begins in its reply's, from the reply's chunks in spoken order (each
    sentence starts where the audio before it ends)."""

    def __init__(self) -> None:
        self._played_ms = 0.0
        self._current: str | None = None
        self._start_ms = 0.0

    def place(self, chunk: AudioChunk) -> float:
        """The start of ``chunk``'s sentence in the reply, in ms; the chunk's audio then counts as played."""
        if chunk.utterance_id != self._current:
            self._current, self._start_ms = chunk.utterance_id, self._played_ms
        self._played_ms += chunk.duration_ms
        return self._start_ms


@dataclass(frozen=True)
class HeardUtterance:
    """One sentence of a reply, and how much of it the listener heard."""

    id: str
    text: str  # as sent
    heard_text: str  # its words heard whole (with marks), or all of it once all its audio was heard
    heard_ms: float
    audio_ms: float  # its audio delivered to the application


@dataclass(frozen=True)
class Heard:
    """What the listener heard of a reply when it was canceled (``Speaker.cancel``).

    With a playback position (``Speaker.played`` or the ``playback_position`` callback), audio up to it
    counts as heard; without one, all audio delivered to the application does (``from_position`` False).
    """

    utterances: tuple[HeardUtterance, ...] = ()
    from_position: bool = False

    @property
    def text(self) -> str:
        return join_words(utterance.heard_text for utterance in self.utterances if utterance.heard_text)

    @property
    def heard_ms(self) -> float:
        return sum(utterance.heard_ms for utterance in self.utterances)

    @property
    def complete(self) -> bool:
        """Whether every sentence was heard whole."""
        return all(utterance.heard_text == utterance.text for utterance in self.utterances)


@dataclass
class _Spoken:
    """A sentence of a reply as delivered so far."""

    text: str
    audio_ms: float = 0.0
    words: list[Word] = field(default_factory=list)
    complete: bool = False

    def heard(self, utterance_id: str, heard_ms: float) -> HeardUtterance:
        whole = self.complete and heard_ms >= self.audio_ms
        if whole:
            text = self.text
        else:
            text = join_words(word.text for word in self.words if word.end_ms <= heard_ms)
        return HeardUtterance(utterance_id, self.text, text, round(heard_ms, 1), round(self.audio_ms, 1))


@dataclass
class PendingSentence:
    """A sentence sent and not yet wholly heard: what the speaker needs to re-send it or release its audio."""

    id: str
    text: str
    reply: Reply
    ssml: bool = False  # ``text`` is an SSML document
    delivered: int = 0  # audio bytes handed to the reply
    skip: int = 0  # after a re-send: bytes of the new audio that were already delivered
    received: int = 0  # bytes received for the current attempt
    first_chunk_chars: int | None = None  # the server's plan, from ``start``: sent back on a re-send
    generation: int = -1  # the connection it was last sent on
    busy_retries: int = 0
    complete: bool = False  # all its audio has arrived
    held: list[AudioChunk] = field(default_factory=list)  # arrived before an earlier sentence finished
    words: tuple[Word, ...] = ()  # from a marks message, for the audio frame that follows it
    bookmarks: tuple[Bookmark, ...] = ()  # SSML marks reached, for the audio frame that follows them
    phonemes: tuple[Phoneme, ...] = ()  # from a phonemes message, for the audio frame that follows it


class TextStreamSink(Protocol):
    """Where a reply cut on the server sends its text (the session's context for it, ``Speaker``)."""

    async def append(self, reply: Reply, delta: str) -> None: ...

    async def end(self, reply: Reply) -> None: ...

    async def flush(self, reply: Reply) -> None:
        """Have the server speak what the reply's context holds now."""
        ...

    async def flushed(self, reply: Reply) -> None:
        """Flush the reply's context and wait until everything appended before is spoken."""
        ...


@dataclass
class Reply:
    """One agent turn. ``feed`` text as it arrives, ``end`` it, iterate its audio in order."""

    # The session's: sends one sentence of this reply, or an SSML document with its text as written.
    _send_speak: Callable[[Reply, str, str | None], Awaitable[None]]
    _language: str | None = None  # the session voice's, when known: what has speech is decided as the server does
    _foreign_script: str = "read"  # the session's, as the server said it
    # With ``segment="server"``: the text goes as it comes to a context on the server, which cuts the sentences.
    _stream: TextStreamSink | None = None
    context: str | None = None  # that context's id, on the current connection
    streamed: str = ""  # the text fed so far (a resumed stream appends from where its sentences reached)
    sent_chars: int = 0  # how much of it went to the context on the current connection
    _text: SpeechText = field(init=False)
    _queue: asyncio.Queue[AudioChunk | BaseException | None] = field(default_factory=asyncio.Queue)
    _outstanding: int = 0
    _ended: bool = False
    _finished: bool = False
    _spoken: dict[str, _Spoken] = field(default_factory=dict)  # every sentence sent, in order
    played_ms: float | None = None  # how much of its audio the listener has heard, when the application says
    _clock: ReplyClock = field(default_factory=ReplyClock)  # where each sentence begins in the reply
    _stream_ending: bool = False  # ``end`` was called on a server-cut reply
    stream_chars: int = 0  # how much of ``streamed`` the sentences the server began reach
    stream_base: int = 0  # where in ``streamed`` the current context's text begins (after a resume)

    def __post_init__(self) -> None:
        self._text = SpeechText(language=self._language, foreign_script=self._foreign_script)

    def played(self, position_ms: float) -> None:
        """The listener has heard ``position_ms`` of this reply's audio (counted from its first chunk)."""
        self.played_ms = position_ms

    async def feed(self, delta: str) -> None:
        """Add text; each sentence it completes is sent at once."""
        if self._finished:
            return  # canceled: the agent may still be streaming, none of it is spoken
        if self._stream is not None:
            self.streamed += delta
            await self._stream.append(self, delta)
            return
        for sentence in self._text.push(delta):
            await self._send(sentence)

    async def say(self, sentence: str) -> None:
        """Send text the caller has already cut into a sentence, as it is (a framework that segments
        its own text); what ``feed`` holds back is sent first, so order is kept."""
        if self._finished:
            return
        if self._stream is not None:  # a sentence already cut: said at once, the next one apart from it
            await self.feed(sentence if sentence[-1:].isspace() else sentence + " ")
            await self._stream.flush(self)
            return
        for held in self._text.flush():
            await self._send(held)
        speakable = spoken_sentence(sentence)
        if has_speech(speakable, self._language, self._foreign_script):
            await self._send(speakable)

    async def say_ssml(self, document: str) -> None:
        """Send an SSML document or fragment (docs/ssml.md) as one utterance, after what ``feed`` holds back.

        It is parsed here first, off the event loop: malformed markup, an element or attribute the server does
        not take, or a limit passed raises ``ProtocolError`` (code ``invalid_ssml``) before anything is sent;
        what only the server judges (say-as text, phonemes) comes back as an error. What the listener heard of it
        (``Heard``) is its text as written, a ``sub`` as its own words."""
        if self._finished:
            return
        try:
            written = await asyncio.to_thread(lambda: written_text(parse_ssml(document)))
        except SsmlError as error:
            raise ProtocolError("invalid_ssml", str(error)) from None
        if self._stream is not None:
            await self._stream.flushed(self)  # the context's sentences are queued: the document goes after them
        for held in self._text.flush():
            await self._send(held)
        self._outstanding += 1
        await self._send_speak(self, document, written)

    async def end(self) -> None:
        """No more text: send what is left."""
        if self._ended or self._finished:
            return
        if self._stream is not None:
            self._stream_ending = True
            await self._stream.end(self)  # it ends when the server says its context has (``stream_ended``)
            return
        for sentence in self._text.flush():
            await self._send(sentence)
        self._ended = True
        self._maybe_finish()

    def stream_sentence(self, utterance_id: str, text: str) -> None:
        """The server has cut a sentence of this reply's stream and begins it."""
        self._outstanding += 1
        self._sent(utterance_id, text)

    def stream_ended(self) -> None:
        """The server has said all of this reply's stream."""
        self._ended = True
        self._maybe_finish()

    async def _send(self, sentence: str) -> None:
        self._outstanding += 1
        await self._send_speak(self, sentence, None)

    def _sent(self, utterance_id: str, sentence: str) -> None:
        self._spoken[utterance_id] = _Spoken(sentence)

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
            spoken = self._spoken[chunk.utterance_id]
            spoken.audio_ms += chunk.duration_ms
            spoken.words.extend(chunk.words)
            self._queue.put_nowait(replace(chunk, utterance_start_ms=self._clock.place(chunk)))

    def _utterance_finished(self, utterance_id: str) -> None:
        self._spoken[utterance_id].complete = True
        self._outstanding -= 1
        self._maybe_finish()

    def heard(self, position_ms: float | None = None) -> Heard:
        """What of this reply was heard by ``position_ms`` (default: ``played_ms``; with neither, all
        audio delivered counts as heard)."""
        position = self.played_ms if position_ms is None else position_ms
        utterances, offset = [], 0.0
        for utterance_id, spoken in self._spoken.items():
            heard_ms = spoken.audio_ms if position is None else min(max(position - offset, 0.0), spoken.audio_ms)
            offset += spoken.audio_ms
            utterances.append(spoken.heard(utterance_id, heard_ms))
        return Heard(tuple(utterances), from_position=position is not None)

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
