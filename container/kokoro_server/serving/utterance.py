"""One utterance: its text planned into chunks, synthesized in order, encoded for the wire, with when
each word is heard (milliseconds from the utterance's first sample, across chunk joins).

Both routes use it: POST /invocations streams one utterance per request, a WebSocket session
streams many in a row. Synthesis and encoding run on an engine worker thread, the text work of every
chunk after the first on a text thread, one chunk ahead of synthesis; neither on the event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial

from kokoro_core.audio_format import wav_header
from kokoro_core.options import SpeechOptions
from kokoro_core.protocol import ProtocolError, Word
from kokoro_core.segmenter import join_words
from kokoro_core.speakable import has_speech, language_of
from kokoro_server.engine.speech_engine import Interruption, NothingToSpeak, PreparedChunk, SpeechEngine
from kokoro_server.text.reading import VoiceReading

from .audio import StreamEncoder
from .planning import ChunkPlan
from .scheduler import Scheduler, Ticket


@dataclass
class Utterance:
    id: str
    session: str
    text: str
    options: SpeechOptions
    ticket: Ticket
    received: float = field(default_factory=time.perf_counter)
    interruption: Interruption = field(default_factory=Interruption)
    # The first chunk's limit in characters and whether it must fit (cut between words if need be);
    # set by the client when it resumes an utterance, else planned when synthesis starts.
    first_chunk: tuple[int, bool] | None = None
    synth_seconds: float = 0.0  # on engine workers: the model's work and encoding
    text_seconds: float = 0.0  # on text threads: planning chunks and preparing them for the model
    planning_seconds: float = 0.0  # spent reading the text to plan its chunks (part of text_seconds)
    planned_as_written: bool = False  # the planning budget ran out: the rest was planned as written
    audio_bytes: int = 0
    first_audio_at: float | None = None
    words: list[Word] = field(default_factory=list)  # of the chunks rendered so far
    rendered_samples: int = 0  # at the engine's rate

    @property
    def sent_text(self) -> str:
        """The written words whose audio has all been sent."""
        return join_words(word.text for word in self.words if word.end_ms <= self.audio_ms)

    def sent(self, audio_bytes: int) -> None:
        if self.first_audio_at is None and audio_bytes:
            self.first_audio_at = time.perf_counter()
        self.audio_bytes += audio_bytes

    @property
    def header(self) -> bytes:
        """Bytes that precede the audio on the wire (the WAV header); not counted as audio."""
        return wav_header(self.options.format.sample_rate) if self.options.format.encoding == "wav" else b""

    @property
    def ttfa_ms(self) -> float | None:
        return None if self.first_audio_at is None else round(1000 * (self.first_audio_at - self.received), 1)

    @property
    def audio_ms(self) -> float:
        return round(self.options.format.duration_ms(self.audio_bytes), 1)

    @property
    def rtf(self) -> float | None:
        return round(self.synth_seconds / (self.audio_ms / 1000), 4) if self.audio_ms else None


def check_speakable(text: str, voice: str) -> None:
    """Refuse, before any work, a text in which the voice would find nothing to say (one C-speed scan: it
    runs as a message is read)."""
    language = language_of(voice)
    if not has_speech(text, language):
        raise ProtocolError(
            "nothing_to_speak",
            f"text has nothing voice {voice!r} ({language}) can speak: markdown marks, code blocks, emoji, symbols "
            "and, for English voices, characters of other scripts are skipped",
        )


@dataclass(frozen=True)
class Rendered:
    """One chunk for the wire: its encoded audio and its words."""

    audio: bytes
    words: list[Word]


def _prepare_next(engine: SpeechEngine, utterance: Utterance, plan: ChunkPlan) -> PreparedChunk | None:
    """Plan the next chunk with something to say and do its text work, on a text thread; None when no
    chunk is left. A chunk of only punctuation adds nothing and is passed over."""
    started, options = time.perf_counter(), utterance.options
    try:
        while (text := plan.take()) is not None:
            try:
                return engine.prepare(text, options.voice, options.normalize, options.lexicon)
            except NothingToSpeak:
                continue
        return None
    finally:
        utterance.text_seconds += time.perf_counter() - started
        utterance.planning_seconds, utterance.planned_as_written = plan.planning_seconds, plan.as_written


def _speak(engine: SpeechEngine, encoder: StreamEncoder, utterance: Utterance, chunk: PreparedChunk) -> Rendered:
    """Synthesize a prepared chunk and encode it, on an engine worker."""
    started = time.perf_counter()
    speech = engine.speak(chunk, utterance.options.speed, utterance.interruption)
    ms_per_sample, offset = 1000 / engine.sample_rate, utterance.rendered_samples
    words = [
        Word(
            text=word.text,
            start_ms=round((offset + word.start) * ms_per_sample, 1),
            end_ms=round((offset + word.end) * ms_per_sample, 1),
        )
        for word in speech.words
    ]
    utterance.words.extend(words)
    utterance.rendered_samples += len(speech.audio)
    rendered = Rendered(encoder.encode(speech.audio), words)
    utterance.synth_seconds += time.perf_counter() - started
    return rendered


Prepare = Callable[[], PreparedChunk | None]


def _speak_first(
    prepare: Prepare,
    speak: Callable[[PreparedChunk], Rendered],
    ahead: Callable[[Prepare], Future[PreparedChunk | None]],
) -> tuple[Rendered | None, Future[PreparedChunk | None] | None]:
    """The first chunk, on an engine worker: planned and prepared here (nothing is there to overlap its text
    work with), then spoken, while the second chunk's text work starts on a text thread."""
    chunk = prepare()
    if chunk is None:
        return None, None
    following = ahead(prepare)  # after the first chunk is planned: the plan is read in order
    try:
        return speak(chunk), following
    except BaseException:
        following.cancel()
        raise


async def render(
    utterance: Utterance,
    engine: SpeechEngine,
    scheduler: Scheduler,
    first_chunk: tuple[int, bool],
    max_chunk_chars: int,
    planning_budget_seconds: float,
) -> AsyncIterator[Rendered]:
    """Yield the encoded audio of ``utterance`` and its words, chunk by chunk (its ``header`` goes first
    on the wire).

    ``first_chunk`` is the first chunk's limit in characters and whether it must fit it (``pace``). Each
    chunk after the first is planned and prepared on a text thread while the chunk before it is spoken
    (``planning``), so the engine worker runs the model alone.
    """
    encoder = StreamEncoder(utterance.options.format)
    options = utterance.options
    reading = VoiceReading(language_of(options.voice), options.normalize, options.lexicon)
    plan = ChunkPlan(
        utterance.text, reading, first_chunk, max_chunk_chars, planning_budget_seconds, utterance.interruption
    )
    prepare: Prepare = partial(_prepare_next, engine, utterance, plan)
    speak = partial(_speak, engine, encoder, utterance)
    ahead: Future[PreparedChunk | None] | None = None
    finished = False
    try:
        rendered, ahead = await scheduler.run(
            utterance.session, partial(_speak_first, prepare, speak, scheduler.prepare)
        )
        if rendered is not None and rendered.audio:
            yield rendered
        while ahead is not None and (chunk := await asyncio.wrap_future(ahead)) is not None:
            ahead = scheduler.prepare(prepare)  # the next chunk's text work, while this one is spoken
            rendered = await scheduler.run(utterance.session, partial(speak, chunk))
            if rendered.audio:
                yield rendered
        finished = True
        if tail := encoder.finish():  # the resampler's last samples (microseconds of work)
            yield Rendered(tail, [])
    finally:
        if not finished:
            # Canceled, disconnected, failed or cut at shutdown: a chunk already on a worker stops now, so
            # the worker is free for the next utterance, and the next chunk's text work stops with it.
            utterance.interruption.interrupt()
            if ahead is not None:
                ahead.cancel()
