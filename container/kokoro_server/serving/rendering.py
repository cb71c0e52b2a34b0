"""An utterance's audio, chunk by chunk: the steps of its pipeline through the model and its timeline, encoded
for the wire, with when each word is heard and each mark is reached (milliseconds from its first sample,
across chunk joins and pauses).

Nothing here runs on the event loop but the order of things: the model's work is a job for the scheduler
(``ModelJob``), the timeline and the encoding of each step run on a text thread as urgent work (audio waits
for them), and the steps themselves are prepared one ahead (``pipeline``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

from kokoro_core.protocol import SPEED_RANGE
from kokoro_core.server_messages import Bookmark, Phoneme, Word
from kokoro_core.speakable import language_of
from kokoro_core.ssml import Mark, Pause
from kokoro_server.engine.speech_engine import Speech, SpeechEngine, SpeechRequest
from kokoro_server.text.foreign import ForeignScript
from kokoro_server.text.reading import VoiceReading

from .audio import StreamEncoder
from .pipeline import ChunkPipeline, Prepared
from .planning import ScriptPlan
from .scheduler import ModelJob, Scheduler
from .timeline import Labels, Piece, SpokenChunk, Timeline, ended, spoken, without_model
from .utterance import Utterance, script_of


@dataclass(frozen=True)
class Rendered:
    """One piece for the wire: encoded audio, its words and phonemes (those that start in it), and the marks
    reached before it."""

    audio: bytes
    words: list[Word]
    bookmarks: list[Bookmark] = field(default_factory=list)
    phonemes: list[Phoneme] = field(default_factory=list)


@dataclass
class _Carry:
    """Words and phonemes of pieces whose audio encoded to nothing (a resampler holds a few samples back), for
    the next piece with audio: a client reads a frame's marks just before it."""

    words: list[Word] = field(default_factory=list)
    phonemes: list[Phoneme] = field(default_factory=list)

    def through(self, pieces: list[Rendered], last: bool = False) -> Iterator[Rendered]:
        """The pieces to send, each with what was carried to it; with ``last``, what is left goes out too."""
        for piece in pieces:
            if not piece.audio:
                self.words.extend(piece.words)
                self.phonemes.extend(piece.phonemes)
                if piece.bookmarks:
                    yield Rendered(b"", [], piece.bookmarks)
                continue
            if self.words or self.phonemes:
                piece = Rendered(
                    piece.audio, [*self.words, *piece.words], piece.bookmarks, [*self.phonemes, *piece.phonemes]
                )
                self.words, self.phonemes = [], []
            yield piece
        if last and (self.words or self.phonemes):
            yield Rendered(b"", self.words, phonemes=self.phonemes)


def _encoded(encoder: StreamEncoder, pieces: list[Piece], last: bool = False) -> list[Rendered]:
    rendered = [
        Rendered(
            encoder.encode(piece.audio) if len(piece.audio) else b"",
            list(piece.words),
            list(piece.bookmarks),
            list(piece.phonemes),
        )
        for piece in pieces
    ]
    if last and (tail := encoder.finish()):  # the resampler's last samples
        rendered.append(Rendered(tail, []))
    return rendered


Rendering = Callable[[Timeline], tuple[list[Piece], Timeline]]


def _render(
    encoder: StreamEncoder, timeline: Timeline, step: Rendering, last: bool = False
) -> tuple[list[Rendered], Timeline, float]:
    """One step on the timeline, encoded, on a text thread; and the seconds it took."""
    started = time.perf_counter()
    pieces, timeline = step(timeline)
    return _encoded(encoder, pieces, last), timeline, time.perf_counter() - started


async def render(
    utterance: Utterance,
    engine: SpeechEngine,
    scheduler: Scheduler,
    first_chunk: tuple[int, bool],
    max_chunk_chars: int,
) -> AsyncIterator[Rendered]:
    """Yield the encoded audio of ``utterance``, its words and its marks, chunk by chunk (its ``header`` goes
    first on the wire). ``first_chunk`` is the first chunk's limit in characters and whether it must fit it
    (``pace``)."""
    options, progress = utterance.options, utterance.progress
    script = await script_of(utterance)
    foreign: ForeignScript = "skip" if options.foreign_script == "skip" else "read"
    reading = VoiceReading(language_of(options.voice), options.normalize, options.lexicon, foreign)
    plan = ScriptPlan(script, reading, first_chunk, max_chunk_chars, utterance.interruption)
    pipeline = ChunkPipeline(engine, scheduler, plan, options.voice, options.normalize, foreign)
    encoder = StreamEncoder(options.format)
    labels = Labels(utterance.id, utterance.context, engine.sample_rate, options.phonemes)
    timeline = Timeline()
    carry = _Carry()
    low, high = SPEED_RANGE
    first, finished = True, False

    async def on_text_thread(step: Rendering, last: bool = False) -> list[Rendered]:
        nonlocal timeline
        done: tuple[list[Rendered], Timeline, float] = await asyncio.wrap_future(
            scheduler.prepare(partial(_render, encoder, timeline, step, last), urgent=True)
        )
        rendered, timeline, seconds = done
        progress.synth_seconds += seconds
        for piece in rendered:
            progress.words.extend(piece.words)
        return rendered

    try:
        while True:
            prepared: Prepared = await pipeline.next()
            progress.text_seconds += prepared.text_seconds
            progress.planning_seconds = prepared.planning_seconds
            step = prepared.step
            if step is None:
                utterance.admission.last_chunk_spoken()  # its audio is still to send, but no batch waits for it
                break
            if isinstance(step, SpokenChunk):
                speed = min(high, max(low, options.speed * step.run.rate))
                request = SpeechRequest(step.chunk, speed, utterance.interruption)
                result = await scheduler.speak(ModelJob(utterance.session, request, first))
                first = False
                progress.synth_seconds += result.seconds
                rendered = await on_text_thread(_spoken_step(step, result.speech, labels))
            else:
                rendered = await on_text_thread(_model_free_step(step, labels))
            for piece in carry.through(rendered):
                yield piece
        finished = True
        # A last pause may be seconds of silence to resample: not on the event loop.
        rendered = await on_text_thread(lambda timeline: ended(timeline, labels), last=True)
        for piece in carry.through(rendered, last=True):
            yield piece
    finally:
        if not finished:
            # Canceled, disconnected, failed or cut at shutdown: a chunk already in a model call leaves it now (the
            # call stops if it was its last item), and the next chunk's text work stops with it.
            utterance.interruption.interrupt()
            pipeline.cancel()


def _spoken_step(step: SpokenChunk, speech: Speech, labels: Labels) -> Rendering:
    return lambda timeline: spoken(timeline, step, speech, labels)


def _model_free_step(step: Pause | Mark, labels: Labels) -> Rendering:
    return lambda timeline: without_model(timeline, step, labels)
