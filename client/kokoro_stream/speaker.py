"""The agent-facing API: text deltas in, audio out in spoken order, over one persistent session.

    async with Speaker(WebSocketTransport("ws://127.0.0.1:8080/invocations-bidirectional-stream")) as speaker:
        async for chunk in speaker.speak(llm_text_deltas()):
            play(chunk.audio)          # 16-bit mono PCM at chunk.sample_rate
            speaker.played(ms_played)  # optional: how far playback of this reply got
        heard = await speaker.cancel() # barge-in: nothing of the canceled speech arrives after this returns;
                                       # heard.text is what the listener heard of the reply

Each sentence is sent the moment it is complete, without waiting for earlier ones to be spoken (as
many as the server lets one session hold, ``ready.max_session_utterances``; the rest go as earlier
ones finish); the server keeps them in order (and a sentence refused as busy and sent again is still heard in
its place: later audio waits for it). If the session drops (SageMaker limits a connection's lifetime,
networks fail, an instance scaled in drains its sessions), the speaker reconnects and re-sends every
unfinished sentence, dropping the part of its audio that was already delivered, so nothing is lost or
heard twice.

Where the agent wants control, ``speak_ssml`` (or ``Reply.say_ssml`` within a turn) sends an SSML
document: its marks come on the chunks (``AudioChunk.bookmarks``), and what was heard of it is its text
as written.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Literal

from kokoro_core.audio_format import AudioFormat
from kokoro_core.protocol import Cancel, Close, Configure, Speak, validate_client_message
from kokoro_core.server_messages import (
    Bookmark,
    Configured,
    ContextEnded,
    Done,
    Error,
    Flushed,
    Marks,
    Phonemes,
    Ready,
    Start,
)
from kokoro_core.speakable import language_of

from .reply import AudioChunk, Heard, PendingSentence, Reply
from .server_cut import ServerCutReplies, StreamMessage
from .transport import Audio, Control, Event, ServerError, SpeechError, SpeechTimeout, Transport, TransportClosed

log = logging.getLogger(__name__)

BUSY_RETRIES = 5
BUSY_DELAY_SECONDS = 0.5


class Speaker:
    """One speech session over a transport; see the module docstring."""

    def __init__(
        self,
        transport: Transport,
        *,
        voice: str | None = None,
        speed: float | None = None,
        format: str = "pcm16",
        sample_rate: int | None = None,
        normalize: bool | None = None,
        marks: bool = True,
        phonemes: bool = False,
        playback_position: Callable[[], float] | None = None,
        timeout: float = 30.0,
        max_reconnects: int = 3,
        reconnect_delay: float = 0.2,
        segment: Literal["client", "server"] = "client",
        foreign_script: Literal["read", "skip"] | None = None,
    ) -> None:
        """``segment``: where a reply's text is cut into sentences: here (``client``, each sentence sent as a
        ``speak``), or on the server (``server``: the deltas go as they come to a context, docs/protocol.md).
        ``marks``: ask for word times (``AudioChunk.words``; ``cancel`` then knows the words heard).
        ``phonemes``: ask for phoneme times with viseme ids (``AudioChunk.phonemes``), for lip-sync.
        ``playback_position``: called at ``cancel``, it returns how many ms of the current reply's audio
        the listener has heard (or call ``played`` as playback goes). ``foreign_script``: a span in another
        script (a Chinese name in an English reply) is read by its own language's reader (``read``, the server's
        default) or left unsaid (``skip``)."""
        if segment not in ("client", "server"):
            raise ValueError(f"segment {segment!r} is invalid; give 'client' or 'server'")
        self._transport = transport
        self._segment = segment
        given = {"voice": voice, "speed": speed, "sample_rate": sample_rate, "normalize": normalize, "marks": marks}
        given["phonemes"] = phonemes or None  # off unless asked: an older server does not know the field
        given["foreign_script"] = foreign_script
        # A setting no server takes is refused here (ProtocolError, with the protocol's code); one this
        # server does not have (a voice) when the session opens (ServerError).
        configure = {"type": "configure", "format": format} | {k: v for k, v in given.items() if v is not None}
        self._configure = validate_client_message(configure)
        assert isinstance(self._configure, Configure)
        self._timeout = timeout
        self._max_reconnects = max_reconnects
        self._reconnect_delay = reconnect_delay
        self._ids = (f"s{n}" for n in itertools.count(1))
        self._pending: OrderedDict[str, PendingSentence] = OrderedDict()
        self._current: PendingSentence | None = None
        self._generation = 0
        self._connected = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._streams = ServerCutReplies(self._send_quietly, self._until_connected, self._idle.clear, timeout)
        self._closing = False
        self._receiver: asyncio.Task[None] | None = None
        self._failure: BaseException | None = None
        self.format = format
        self.sample_rate = 0
        self.ready: Ready | None = None
        self._sending: set[asyncio.Future[None]] = set()
        self.reconnects = 0
        self._progress_at = time.monotonic()
        self._reply: Reply | None = None  # the latest turn: the one a playback position is about
        self._playback_position = playback_position
        self._voice = voice
        self._language: str | None = None  # the session voice's, once the server has said which it is
        self._foreign_script = "read"  # the session's, once the server has said it

    async def __aenter__(self) -> Speaker:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if exc_info[0] is None:
            await self.close()
        else:
            await self.abort()

    async def open(self) -> None:
        """Connect and apply the session settings; a refused setting raises ``ServerError``."""
        await self._connect()
        self._receiver = asyncio.create_task(self._receive_loop(), name="kokoro-speaker-receiver")

    async def _connect(self) -> None:
        self.ready = await self._transport.connect(self._configure)
        while True:  # the answer to configure comes before anything else
            event = await asyncio.wait_for(self._transport.receive(), self._timeout)
            if isinstance(event, Control) and isinstance(event.message, Configured):
                self.sample_rate = event.message.sample_rate
                voice = event.message.voice or self._voice
                self._language = language_of(voice) if voice else None
                self._foreign_script = event.message.foreign_script or "read"
                break
            if isinstance(event, Control) and isinstance(event.message, Error):
                await self._transport.close()
                raise ServerError(event.message.code, event.message.message)
        self._generation += 1
        self._connected.set()

    @property
    def failed(self) -> bool:
        """The session is over without being closed (reconnects failed): open a new Speaker."""
        return self._failure is not None or (self._receiver is not None and self._receiver.done() and not self._closing)

    def reply(self) -> Reply:
        """A new turn; feed it text and iterate its audio."""
        if self._failure is not None:
            raise self._failure
        stream = self._streams if self._segment == "server" else None
        self._reply = Reply(self._send_speak, self._language, self._foreign_script, _stream=stream)
        return self._reply

    def played(self, position_ms: float) -> None:
        """The listener has heard ``position_ms`` of the current reply's audio (from its first chunk)."""
        if self._reply is not None:
            self._reply.played(position_ms)

    def heard(self, position_ms: float | None = None) -> Heard:
        """What the listener has heard of the current reply, by ``position_ms`` if given, else by the
        playback position the application gave (``played``, ``playback_position``), else by what was delivered."""
        if self._reply is None:
            return Heard()
        if position_ms is None and self._playback_position is not None:
            position_ms = self._playback_position()
        return self._reply.heard(position_ms)

    async def speak(self, text: str | AsyncIterable[str]) -> AsyncIterator[AudioChunk]:
        """Speak a whole text or a stream of deltas; yield the audio in spoken order."""

        async def feed(reply: Reply) -> None:
            if isinstance(text, str):
                await reply.feed(text)
            else:
                async for delta in text:
                    await reply.feed(delta)

        async for chunk in self._turn(feed):
            yield chunk

    async def speak_ssml(self, document: str) -> AsyncIterator[AudioChunk]:
        """Speak an SSML document or fragment (docs/ssml.md); yield its audio, its marks on the chunks."""

        async def feed(reply: Reply) -> None:
            await reply.say_ssml(document)

        async for chunk in self._turn(feed):
            yield chunk

    async def _turn(self, feed: Callable[[Reply], Awaitable[None]]) -> AsyncIterator[AudioChunk]:
        """A new turn fed by ``feed`` (then ended) while its audio is yielded."""
        reply = self.reply()

        async def feed_and_end() -> None:
            await feed(reply)
            await reply.end()

        feeder = asyncio.create_task(feed_and_end())
        try:
            async for chunk in reply:
                yield chunk
            await feeder
        finally:
            if not feeder.done():
                feeder.cancel()

    async def cancel(self) -> Heard:
        """Barge-in: drop everything queued or playing; no audio of it is delivered after this returns.

        Returns what the listener heard of the current reply: up to the playback position if one is
        known (``played``, ``playback_position``), else all the audio delivered so far; word by word
        with marks, else whole sentences."""
        heard = self.heard()
        for utterance in self._pending.values():
            utterance.reply._cancel()
        self._pending.clear()
        self._current = None
        if self._segment == "server" and self._reply is not None:
            self._reply._cancel()  # a server-cut reply may have no sentence pending yet
        self._streams.clear()  # the cancel ends them all on the server
        self._idle.set()
        try:
            await self._transport.send(Cancel())
        except TransportClosed:
            pass  # nothing is pending any more, so a reconnect will not re-send it
        return heard

    async def close(self) -> None:
        """Wait for queued audio to be delivered, then close the session."""
        await self._idle.wait()
        self._closing = True
        if self._receiver is not None and not self._receiver.done():
            try:
                await self._transport.send(Close())
                await asyncio.wait_for(asyncio.shield(self._receiver), self._timeout)
            except (TransportClosed, TimeoutError):
                pass
        await self.abort()

    async def abort(self) -> None:
        """Close at once, dropping anything pending."""
        self._closing = True
        if self._receiver is not None:
            self._receiver.cancel()
            await asyncio.gather(self._receiver, return_exceptions=True)
        for utterance in self._pending.values():
            utterance.reply._cancel()
        self._pending.clear()
        await self._transport.close()

    # -- sending ----------------------------------------------------------------------------

    async def _send_speak(self, reply: Reply, text: str, ssml_written: str | None = None) -> None:
        """Send a sentence, or with ``ssml_written`` (its text as written) an SSML document."""
        if self._failure is not None:
            raise self._failure
        utterance = PendingSentence(next(self._ids), text, reply, ssml=ssml_written is not None)
        reply._sent(utterance.id, text if ssml_written is None else ssml_written)
        if not self._pending:
            self._progress_at = time.monotonic()  # the wait for this one starts now
        self._pending[utterance.id] = utterance
        self._idle.clear()
        await self._send_utterance(utterance)

    async def _send_utterance(self, utterance: PendingSentence) -> None:
        await self._connected.wait()
        if utterance.generation == self._generation or utterance.id not in self._pending:
            return  # already (re)sent on this connection, or canceled meanwhile
        if self._room_on_server() <= 0:
            return  # the session holds all the server allows it: sent when an earlier one finishes
        utterance.generation = self._generation
        resume = {}
        if utterance.delivered and utterance.first_chunk_chars is not None:
            # Resuming: the same first chunk gives the same audio, so skipping what was delivered is exact.
            resume["first_chunk_chars"] = utterance.first_chunk_chars
        if utterance.ssml:
            resume["ssml"] = True
        message = Speak(id=utterance.id, text=utterance.text, **resume)
        try:
            await self._transport.send(message)
        except TransportClosed:
            pass  # the receiver reconnects and re-sends everything pending

    def _room_on_server(self) -> int:
        """How many more sentences the server would admit in this session now (``ready`` says its limit)."""
        limit = self.ready.max_session_utterances if self.ready is not None else None
        if limit is None:
            return len(self._pending) + 1
        on_server = sum(1 for u in self._pending.values() if u.generation == self._generation and not u.complete)
        return limit - on_server

    def _send_waiting(self) -> None:
        """Send the sentences held back for room on the server, in order, as far as there is room now."""
        room = self._room_on_server()
        for utterance in self._pending.values():
            if room <= 0:
                return
            if utterance.generation != self._generation and not utterance.complete:
                room -= 1
                self._send_in_background(utterance)

    def _send_in_background(self, utterance: PendingSentence) -> None:
        """Send ``utterance`` from a task of its own, held until it is done: the loop keeps only weak
        references to tasks."""
        task = asyncio.ensure_future(self._send_utterance(utterance))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    # -- a server-cut reply's text (server_cut) -------------------------------------------

    async def _until_connected(self) -> None:
        if self._failure is not None:
            raise self._failure
        await self._connected.wait()

    async def _send_quietly(self, message: StreamMessage) -> None:
        try:
            await self._transport.send(message)
        except TransportClosed:
            pass  # the receiver reconnects and resumes the stream from where its sentences reached

    def _on_stream_start(self, message: Start) -> PendingSentence | None:
        """A sentence the server cut from a reply's stream begins: it is pending from now on."""
        reply = self._streams.reply_of(message.context)
        if reply is None or message.text is None:
            return None
        utterance = PendingSentence(message.id, message.text, reply)
        utterance.generation = self._generation
        self._pending[utterance.id] = utterance
        reply.stream_sentence(utterance.id, message.text)
        reply.stream_chars = max(reply.stream_chars, reply.stream_base + (message.stream_chars or 0))
        self._idle.clear()
        return utterance

    # -- receiving --------------------------------------------------------------------------

    async def _receive_loop(self) -> None:
        watchdog = asyncio.create_task(self._watchdog())
        try:
            await self._receive_events()
        finally:
            watchdog.cancel()

    async def _watchdog(self) -> None:
        """Fail what is pending when the server says nothing for ``timeout`` seconds."""
        while True:
            await asyncio.sleep(min(1.0, self._timeout / 4))
            if self._pending and time.monotonic() - self._progress_at > self._timeout:
                self._fail_pending(SpeechTimeout(f"no audio or message from the server for {self._timeout:g} s"))

    async def _receive_events(self) -> None:
        while True:
            try:
                event = await self._transport.receive()
                self._progress_at = time.monotonic()
            except TransportClosed as error:
                if self._closing:
                    return
                try:
                    await self._reconnect(error)
                except SpeechError as failure:
                    self._failure = failure
                    self._fail_pending(failure)
                    return
                continue
            self._dispatch(event)

    async def _reconnect(self, cause: TransportClosed) -> None:
        self._connected.clear()
        self._current = None
        for attempt in range(1, self._max_reconnects + 1):
            await asyncio.sleep(self._reconnect_delay * attempt)
            try:
                await self._connect()
            except (TransportClosed, TimeoutError) as error:
                log.warning("reconnect attempt %d failed: %s", attempt, error)
                continue
            self.reconnects += 1
            for utterance in list(self._pending.values()):
                if utterance.complete:
                    continue  # all its audio is here, held for its turn
                utterance.skip, utterance.received = utterance.delivered, 0
                utterance.bookmarks = ()  # not yet delivered: they come again with the re-sent audio
                await self._send_utterance(utterance)
            await self._streams.resume()
            return
        raise TransportClosed(f"the session dropped ({cause}) and {self._max_reconnects} reconnects failed")

    def _dispatch(self, event: Event) -> None:
        if isinstance(event, Audio):
            self._on_audio(event.data)
            return
        message = event.message
        utterance = self._pending.get(str(getattr(message, "id", None)))
        match message:
            case Start():
                if utterance is None and message.context is not None:
                    utterance = self._on_stream_start(message)
                self._current = utterance
                if utterance is not None:
                    utterance.received = 0
                    if utterance.first_chunk_chars is None:
                        utterance.first_chunk_chars = message.first_chunk_chars
            case Marks() if utterance is not None:
                utterance.words = tuple(message.words)  # for the audio frame that follows
            case Phonemes() if utterance is not None:
                utterance.phonemes = tuple(message.phonemes)  # for the audio frame that follows
            case Bookmark() if utterance is not None:
                # A mark delivered came before audio that was delivered too: strictly before the re-sent audio's
                # start. Those are not repeated (a millisecond's room for the rounding of at_ms).
                delivered_ms = AudioFormat(self.format, self.sample_rate).duration_ms(utterance.skip)
                if not utterance.skip or message.at_ms > delivered_ms - 1:
                    utterance.bookmarks += (message,)
            case Done() if utterance is not None:
                self._finish(utterance)
            case Flushed():
                self._streams.on_flushed(message.id)
            case ContextEnded():
                if self._streams.on_ended(message.context):
                    self._update_idle()
            case Error():
                self._on_error(message, utterance)

    def _on_audio(self, data: bytes) -> None:
        utterance = self._current
        if utterance is None:
            return  # audio of a canceled utterance still in flight
        overlap = max(0, min(len(data), utterance.skip - utterance.received))
        utterance.received += len(data)
        fresh = data[overlap:]
        words, utterance.words = utterance.words, ()
        phonemes, utterance.phonemes = utterance.phonemes, ()
        if fresh:
            utterance.delivered += len(fresh)
            bookmarks, utterance.bookmarks = utterance.bookmarks, ()
            chunk = AudioChunk(
                utterance.id,
                utterance.text,
                fresh,
                self.format,
                self.sample_rate,
                words,
                bookmarks=bookmarks,
                phonemes=phonemes,
            )
            utterance.held.append(chunk)
            self._release_in_order()

    def _on_error(self, message: Error, utterance: PendingSentence | None) -> None:
        code, text = message.code, message.message
        if utterance is None:
            log.warning("server error: %s: %s", code, text)
            return
        if code == "busy" and utterance.busy_retries < BUSY_RETRIES:
            utterance.busy_retries += 1
            utterance.generation = -1
            asyncio.get_running_loop().call_later(
                BUSY_DELAY_SECONDS * utterance.busy_retries, self._send_in_background, utterance
            )
            return
        if code == "nothing_to_speak":
            self._finish(utterance)  # a sentence of only symbols: skip it, the reply goes on
            return
        if code == "closing":
            return  # the server is draining this session: it closes soon, and the reconnect sends this again
        self._pending.pop(utterance.id, None)
        utterance.reply._fail(ServerError(code, text, utterance.id))
        self._release_in_order()
        self._send_waiting()

    def _finish(self, utterance: PendingSentence) -> None:
        if utterance.bookmarks:  # marks after the last audio: a chunk of their own
            chunk = AudioChunk(utterance.id, utterance.text, b"", self.format, self.sample_rate)
            utterance.held.append(replace(chunk, bookmarks=utterance.bookmarks))
            utterance.bookmarks = ()
        utterance.complete = True
        if self._current is utterance:
            self._current = None
        self._release_in_order()
        self._send_waiting()

    def _release_in_order(self) -> None:
        """Hand audio over in the order sentences were sent: a sentence's audio waits while an earlier
        one is unfinished. The server speaks a session's sentences in order, but a sentence refused as
        busy and sent again goes after those admitted meanwhile."""
        while self._pending:
            head = next(iter(self._pending.values()))
            for chunk in head.held:
                head.reply._deliver(chunk)
            head.held.clear()
            if not head.complete:
                break
            del self._pending[head.id]
            head.reply._utterance_finished(head.id)
        self._update_idle()

    def _fail_pending(self, error: BaseException) -> None:
        for utterance in self._pending.values():
            utterance.reply._fail(error)
        self._streams.fail(error)
        self._pending.clear()
        self._current = None
        self._update_idle()

    def _update_idle(self) -> None:
        if not self._pending and not self._streams:
            self._idle.set()
