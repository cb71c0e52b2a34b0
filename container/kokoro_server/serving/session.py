"""A bidirectional WebSocket session: the protocol in docs/protocol.md, one instance per connection.

Three tasks share the connection. The reader (the route's handler) parses each message and
acts at once without awaiting anything, so a cancel is never stuck behind audio. The producer
synthesizes utterances in the order they were sent. The sender is the only writer: it drains
an outbox, so synthesis of utterance N+1 goes on while N's audio is still being written, and
a cancel can purge what is queued and put ``canceled`` first.

A session shares the server fairly: it may hold at most ``max_session_utterances`` admitted at once,
and a client that stops reading is dropped rather than left holding them. Every write has a deadline
(``send_timeout_seconds``), the outbox is bounded in bytes (replies to a client that sends but never
reads pile up in it), and heartbeats find a peer that has gone silent.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

from aiohttp import WSMsgType, web

from kokoro_core.audio_format import FORMATS, SAMPLE_RATES
from kokoro_core.chunker import MIN_FIRST_CHUNK_CHARS
from kokoro_core.errors import ProtocolError
from kokoro_core.options import check_first_chunk_chars
from kokoro_core.protocol import (
    Append,
    Cancel,
    ClientMessage,
    Close,
    Configure,
    End,
    Flush,
    Open,
    Speak,
    parse_client_message,
)
from kokoro_core.server_messages import Canceled, Configured, ContextEnded, Done, Flushed, Marks, Phonemes, Ready, Start
from kokoro_core.speech_text import CutSentence

from . import outbox, pace, telemetry
from .admission import Outcome
from .contexts import QueuedReply, TextStream
from .outbox import AudioFrame, CanceledReply, CloseSocket, Finished, Reply, Started, Timing
from .runtime import Runtime
from .utterance import Utterance

OUTBOX_LIMIT = 32  # audio frames synthesized ahead of the socket; beyond this the producer waits
AUDIO_AHEAD_BYTES = 4 << 20  # nor more audio than this (at least one frame)
OUTBOX_MAX_BYTES = 8 << 20  # past this the client is not reading what it asked for: it is dropped
GOING_AWAY = 1001
POLICY_VIOLATION = 1008


class Session:
    def __init__(self, ws: web.WebSocketResponse, runtime: Runtime, drop_connection: Callable[[], None]) -> None:
        self.id = runtime.new_id("s")
        self._ws = ws
        self._drop_connection = drop_connection  # aborts the TCP connection: no write can hold it open
        self._runtime = runtime
        self._defaults = runtime.default_options()
        self._queue: deque[Utterance | QueuedReply] = deque()  # in the order they are spoken or answered
        self._contexts: dict[str, TextStream] = {}
        self._ended_contexts: deque[str] = deque(maxlen=64)  # recent ones: an append to one says it has ended
        self._unfinished: dict[str, Utterance] = {}
        self._current: tuple[Utterance, asyncio.Task[None]] | None = None
        self._outbox: deque[outbox.Item] = deque()
        self._outbox_bytes = 0
        self._urgent = 0  # replies at the head of the outbox that go out before any audio, in order
        self._outbox_changed = asyncio.Event()
        self._room = asyncio.Event()
        self._work = asyncio.Event()
        self._close_code: int | None = None
        # When the listener will have heard all audio sent so far (perf_counter), for sizing a first chunk.
        self._heard_by: float | None = None

    # -- reader ---------------------------------------------------------------------------

    async def run(self) -> None:
        engine = self._runtime.engine
        assert engine is not None
        ready = Ready(
            session=self.id,
            sample_rate=engine.sample_rate,
            voices=list(engine.voices),
            languages=list(engine.languages),
            default_voice=engine.default_voice,
            formats=list(FORMATS),
            sample_rates=list(SAMPLE_RATES),
            max_text_chars=self._runtime.settings.max_text_chars,
            max_session_utterances=self._runtime.settings.max_session_utterances,
            max_session_contexts=self._runtime.settings.max_session_contexts,
            context_idle_seconds=self._runtime.settings.context_idle_seconds,
            device=engine.device,
            max_batch=self._runtime.scheduler.max_batch,
            batch_wait_ms=self._runtime.plan.batch_wait_ms if self._runtime.plan else 0.0,
        )
        await self._ws.send_json(ready.wire())
        tasks = [asyncio.create_task(self._produce()), asyncio.create_task(self._send())]
        try:
            async for message in self._ws:
                if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    self._handle(message.data)
        finally:
            # Release first, synchronously: the handler may be cancelled again at any await below.
            for utterance in list(self._unfinished.values()):
                self._settle(utterance, "disconnected")
            self._queue.clear()
            contexts = list(self._contexts.values())
            for context in contexts:
                context.cancel()
            if self._current is not None:
                tasks.append(self._current[1])
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, *(context.stopped() for context in contexts), return_exceptions=True)

    def _handle(self, data: str | bytes) -> None:
        message: ClientMessage | None = None
        try:
            message = parse_client_message(data, self._runtime.settings.max_message_bytes)
            match message:
                case Configure():
                    self._on_configure(message)
                case Speak():
                    self._on_speak(message)
                case Cancel():
                    self._on_cancel(message)
                case Close():
                    self.close(1000)
                case Open():
                    self._on_open(message)
                case Append() | Flush() | End():
                    self._context(message.context).take(message)
        except ProtocolError as error:
            utterance_id = message.id if isinstance(message, Speak) else None
            self._post_urgent(Reply(error.reply(utterance_id, getattr(message, "context", None))))

    def _on_configure(self, message: Configure) -> None:
        engine = self._runtime.engine
        assert engine is not None
        self._defaults = self._runtime.resolve(message, self._defaults)
        self._post(Reply(Configured(**self._defaults.described())))

    def _on_speak(self, message: Speak) -> None:
        engine = self._runtime.engine
        assert engine is not None
        self._check_open()
        utterance_id = message.id or self._runtime.new_id("u")
        if utterance_id in self._unfinished:
            raise ProtocolError("duplicate_id", f"utterance {utterance_id!r} is still queued or playing; use a new id")
        most = self._runtime.settings.max_session_utterances
        if len(self._unfinished) >= most:
            raise ProtocolError(
                "busy",
                f"this session already has {most} utterances queued or playing, the most one session may have "
                "(ready's max_session_utterances); send the next after a done",
            )
        first_chunk = None
        if message.first_chunk_chars is not None:  # a resumed utterance: lay its audio out as before
            longest = self._runtime.settings.max_chunk_chars
            first_chunk = (check_first_chunk_chars(message.first_chunk_chars, MIN_FIRST_CHUNK_CHARS, longest), True)
        utterance = self._runtime.admit(message, utterance_id, self.id, self._defaults, first_chunk)
        self._unfinished[utterance_id] = utterance
        self._queue.append(utterance)
        self._work.set()

    def _check_open(self) -> None:
        if self._close_code is not None:
            raise ProtocolError("closing", "the session is closing (close was sent or the server is shutting down)")

    def _on_open(self, message: Open) -> None:
        self._check_open()
        if message.context in self._contexts:
            raise ProtocolError("duplicate_context", f"context {message.context!r} is open; end it or use a new id")
        most = self._runtime.settings.max_session_contexts
        if len(self._contexts) >= most:
            raise ProtocolError(
                "too_many_contexts",
                f"this session has {most} contexts open, the most one session may have (ready's "
                "max_session_contexts); end or cancel one first",
            )
        options = self._runtime.resolve(message, self._defaults)
        self._contexts[message.context] = TextStream(message, options, self._runtime, self)

    def _context(self, context_id: str) -> TextStream:
        context = self._contexts.get(context_id)
        if context is not None:
            return context
        if context_id in self._ended_contexts:
            raise ProtocolError("unknown_context", f"context {context_id!r} has ended; open a new one")
        raise ProtocolError("unknown_context", f"no context {context_id!r} is open in this session; send open first")

    def _on_cancel(self, message: Cancel) -> None:
        utterance_id = message.id
        if message.context is not None:
            self._cancel_context(self._context(message.context))
            return
        if utterance_id is None:  # barge-in: everything queued or playing, then every context
            for utterance in list(self._unfinished.values()):  # their canceled in the order they would be spoken
                self._cancel(utterance)
            for context in list(self._contexts.values()):
                self._cancel_context(context)
            return
        if utterance_id not in self._unfinished:
            raise ProtocolError("unknown_id", f"no utterance {utterance_id!r} is queued or playing in this session")
        self._cancel(self._unfinished[utterance_id])  # its canceled goes out ahead of audio

    def close(self, code: int = 1000) -> None:
        """Finish the queued utterances and the open contexts' text, then close with ``code``."""
        if self._close_code is None:
            self._close_code = code
            for context in self._contexts.values():
                if not context.ended:
                    context.take(End(context=context.id))
            self._work.set()

    def drop(self, reason: str) -> None:
        """Abort the connection of a client that stopped reading; the reader's cleanup frees its work."""
        if self._close_code != POLICY_VIOLATION:
            self._close_code = POLICY_VIOLATION
            telemetry.event("session_dropped", session=self.id, reason=reason)
            self._drop_connection()

    async def abort(self) -> None:
        """Close now with 1001 (the drain deadline passed); the reader's cleanup cancels the work."""
        self._close_code = GOING_AWAY
        await self._ws.close(code=GOING_AWAY, message=b"server shutting down")

    def _settle(self, utterance: Utterance, outcome: Outcome) -> bool:
        """End ``utterance`` with ``outcome`` unless it has ended: the one place a session settles its
        utterances' admissions (an utterance is unfinished until then). Returns whether it ended it now."""
        if self._unfinished.get(utterance.id) is not utterance:
            return False
        del self._unfinished[utterance.id]
        utterance.admission.settle(outcome)
        return True

    def _cancel(self, utterance: Utterance) -> None:
        self._settle(utterance, "canceled")
        if utterance in self._queue:
            self._queue.remove(utterance)
        if self._current is not None and self._current[0] is utterance:
            self._current[1].cancel()
        self._outbox = deque(item for item in self._outbox if item.utterance is not utterance)
        self._outbox_bytes = sum(item.size for item in self._outbox)
        self._heard_by = None  # the listener stops hearing it: the next reply starts afresh
        self._room.set()
        self._post_urgent(CanceledReply(utterance))
        self._freed()

    def _cancel_context(self, context: TextStream) -> None:
        """Cancel a context: its sentences, the text it holds and its answers still queued; it ends."""
        for utterance in [u for u in self._unfinished.values() if u.context == context.id]:
            self._cancel(utterance)
        self._queue = deque(
            item for item in self._queue if not isinstance(item, QueuedReply) or item.context != context.id
        )
        self._outbox = deque(
            item
            for item in self._outbox
            if not (
                isinstance(item, Reply) and isinstance(item.message, Flushed) and item.message.context == context.id
            )
        )
        self._outbox_bytes = sum(item.size for item in self._outbox)
        context.cancel()
        self.context_over(context)
        self._post_urgent(Reply(ContextEnded(context=context.id, reason="canceled")))

    def _freed(self) -> None:
        """A sentence left the session: a context waiting for room may go on."""
        for context in self._contexts.values():
            context.room.set()

    # -- what a context asks of its session (contexts.SessionQueue) -------------------------

    def admit_sentence(self, context: TextStream, sentence: CutSentence) -> bool:
        if len(self._unfinished) >= self._runtime.settings.max_session_utterances:
            return False
        utterance_id = context.next_id()
        while utterance_id in self._unfinished:  # a speak's id the client chose alike
            utterance_id = context.next_id()
        try:
            utterance = self._runtime.admit(
                context.request(sentence),
                utterance_id,
                self.id,
                context.options,
                context=context.id,
                stream_chars=sentence.stream_chars,
                markdown_read=True,
            )
        except ProtocolError as error:
            if error.code == "busy":
                raise
            if error.code != "nothing_to_speak":  # a sentence of only symbols is skipped, as the client does
                self._post(Reply(error.reply(None, context.id)))
            return True
        self._unfinished[utterance_id] = utterance
        self._queue.append(utterance)
        self._work.set()
        return True

    def queue_reply(self, reply: QueuedReply) -> None:
        self._queue.append(reply)
        self._work.set()

    def sentences_of(self, context: str) -> int:
        return sum(1 for utterance in self._unfinished.values() if utterance.context == context)

    def context_over(self, context: TextStream) -> None:
        """The context is over: all its audio is queued for sending, or it was canceled."""
        if self._contexts.get(context.id) is context:
            del self._contexts[context.id]
            self._ended_contexts.append(context.id)
            self._work.set()

    # -- producer -------------------------------------------------------------------------

    async def _produce(self) -> None:
        runtime = self._runtime
        assert runtime.engine is not None
        while True:
            while not self._queue:
                if self._close_code is not None and not self._contexts:
                    self._post(CloseSocket(self._close_code))
                    return
                self._work.clear()
                await self._work.wait()
            utterance = self._queue.popleft()
            if isinstance(utterance, QueuedReply):  # after the audio of the sentences queued before it
                self._post(Reply(utterance.message))
                if isinstance(utterance.message, ContextEnded) and (context := self._contexts.get(utterance.context)):
                    self.context_over(context)
                continue
            task = asyncio.create_task(self._speak(utterance))
            self._current = (utterance, task)
            try:
                await task
            except asyncio.CancelledError:
                if asyncio.current_task().cancelling():  # type: ignore[union-attr]
                    raise  # the session is ending
                # only this utterance was canceled: go on with the next
            except ProtocolError as error:  # an SSML document refused: its error comes in its turn
                if self._settle(utterance, "refused"):
                    self._post(Reply(error.reply(utterance.id, utterance.context)))
            except Exception as error:
                if self._settle(utterance, "failed"):
                    failed = ProtocolError("synthesis_failed", str(error))
                    self._post(Reply(failed.reply(utterance.id, utterance.context)))
            finally:
                self._current = None
                self._freed()

    async def _speak(self, utterance: Utterance) -> None:
        runtime = self._runtime
        assert runtime.engine is not None
        settings = runtime.settings
        first_chunk = utterance.request.first_chunk or pace.first_chunk(
            self._heard_by - time.perf_counter() if self._heard_by is not None else None,
            utterance.options.speed,
            runtime.engine.device,
            settings.first_chunk_chars,
            settings.max_chunk_chars,
        )
        utterance.progress.first_chunk = first_chunk
        await runtime.parsed(utterance)
        self._post(Started(utterance))
        async for rendered in runtime.render(utterance, first_chunk):
            while self._outbox and (len(self._outbox) >= OUTBOX_LIMIT or self._outbox_bytes >= AUDIO_AHEAD_BYTES):
                self._room.clear()
                await self._room.wait()
            for bookmark in rendered.bookmarks:
                self._post(Timing(utterance, bookmark))
            context = utterance.context
            if utterance.options.marks and rendered.words:
                self._post(Timing(utterance, Marks(id=utterance.id, context=context, words=rendered.words)))
            if utterance.options.phonemes and rendered.phonemes:
                phonemes = Phonemes(id=utterance.id, context=context, phonemes=rendered.phonemes)
                self._post(Timing(utterance, phonemes))
            if rendered.audio:
                self._post(AudioFrame(utterance, rendered.audio))
        self._post(Finished(utterance))

    # -- sender ---------------------------------------------------------------------------

    def _post(self, item: outbox.Item) -> None:
        self._outbox.append(item)
        self._posted(item.size)

    def _post_urgent(self, item: outbox.Item) -> None:
        """Post ahead of queued audio (an error, a cancel), after the urgent replies posted before it."""
        self._outbox.insert(self._urgent, item)
        self._urgent += 1
        self._posted(item.size)

    def _posted(self, size: int) -> None:
        self._outbox_bytes += size
        self._outbox_changed.set()
        if self._outbox_bytes > OUTBOX_MAX_BYTES:
            self.drop(f"over {OUTBOX_MAX_BYTES >> 20} MiB of replies unread")

    async def _send(self) -> None:
        ws = self._ws
        deadline = self._runtime.settings.send_timeout_seconds
        while True:
            while not self._outbox:
                self._outbox_changed.clear()
                await self._outbox_changed.wait()
            item = self._outbox.popleft()
            self._urgent = max(0, self._urgent - 1)
            self._outbox_bytes -= item.size
            self._room.set()
            try:
                async with asyncio.timeout(deadline):
                    await self._write(ws, item)
            except TimeoutError:
                self.drop(f"a write waited over {deadline:g} s: the client is not reading")
                return
            except ConnectionError:
                return  # the client is gone; the reader sees the socket close and cleans up
            if isinstance(item, CloseSocket):
                return

    async def _write(self, ws: web.WebSocketResponse, item: outbox.Item) -> None:
        match item:
            case AudioFrame(utterance, data):
                await ws.send_bytes(data)
                utterance.sent(len(data))
                now = time.perf_counter()  # the listener plays audio as it arrives, after what it has
                heard_from = now if self._heard_by is None else max(self._heard_by, now)
                self._heard_by = heard_from + utterance.options.format.duration_ms(len(data)) / 1000
            case Started(utterance):
                chars, must_fit = utterance.progress.first_chunk or (0, False)
                # A client resuming this utterance sends first_chunk_chars back, for the same audio.
                described = utterance.options.described()
                start = Start(id=utterance.id, first_chunk_chars=chars if must_fit else None, **described)
                if utterance.context is not None:  # a stream's sentence: a client learns it here
                    start = start.model_copy(
                        update={
                            "context": utterance.context,
                            "text": utterance.text,
                            "stream_chars": utterance.stream_chars,
                        }
                    )
                await ws.send_json(start.wire())
                if utterance.header:
                    await ws.send_bytes(utterance.header)
            case Finished(utterance):
                self._settle(utterance, "done")
                self._freed()
                done = Done(
                    id=utterance.id, context=utterance.context, audio_ms=utterance.audio_ms, ttfa_ms=utterance.ttfa_ms
                )
                await ws.send_json(done.wire())
            case CanceledReply(utterance):
                canceled = Canceled(
                    id=utterance.id,
                    context=utterance.context,
                    sent_ms=utterance.audio_ms,
                    sent_text=utterance.sent_text,
                )
                await ws.send_json(canceled.wire())
            case Timing(_, message) | Reply(message):
                await ws.send_json(message.wire())
            case CloseSocket(code):
                await ws.close(code=code, message=b"session closed" if code == 1000 else b"server shutting down")
