"""One utterance: its script (text, or an SSML document's runs, pauses and marks) planned into chunks,
synthesized in order, encoded for the wire, with when each word is heard and each mark is reached
(milliseconds from the utterance's first sample, across chunk joins and pauses).

Both routes use it: POST /invocations streams one utterance per request, a WebSocket session
streams many in a row. Synthesis and encoding run on an engine worker thread, the text work of every
chunk after the first on a text thread, one chunk ahead of synthesis; neither on the event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Collection, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from kokoro_core.audio_format import wav_header
from kokoro_core.options import SpeechOptions
from kokoro_core.protocol import SPEED_RANGE, Bookmark, Phoneme, ProtocolError, Word
from kokoro_core.segmenter import join_words
from kokoro_core.speakable import has_speech, language_of
from kokoro_core.ssml import Mark, Pause, SsmlError, parse_ssml
from kokoro_server.engine.speech_engine import Interruption, NothingToSpeak, PreparedChunk, SpeechEngine
from kokoro_server.text.reading import VoiceReading
from kokoro_server.text.script import Run, Script, split_anchors, ssml_script
from kokoro_server.text.word_timing import TimedPhoneme

from .audio import StreamEncoder, quiet_edges
from .breaks import Inner, by_word, place, sounding_from
from .loudness import louder
from .phoneme_marks import SILENCE, mark, tiled
from .planning import Chunk, ScriptPlan
from .scheduler import Scheduler, Ticket


@dataclass
class Utterance:
    id: str
    session: str
    text: str  # as written (an SSML document's without its markup, once parsed)
    options: SpeechOptions
    ticket: Ticket
    # What is said, in order; an SSML document's is made on a text thread (``parsing``) before it is spoken.
    script: Script | None = None
    parsing: Future[Script] | None = None
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
    # A sentence of a text stream (``contexts``): its context, and how far into the context's text it reaches.
    context: str | None = None
    stream_chars: int | None = None

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


async def script_of(utterance: Utterance) -> Script:
    """The utterance's script, once its SSML is parsed; raises ``ProtocolError`` for a document it refuses."""
    if utterance.script is None:
        assert utterance.parsing is not None
        utterance.script = await asyncio.wrap_future(utterance.parsing)
        utterance.text = utterance.script.text
    return utterance.script


def parse_script(document: str, voice: str, symbols: Collection[str]) -> Script:
    """An SSML document's script for ``voice``, on a text thread: linear and bounded (``kokoro_core.ssml``)."""
    try:
        script = ssml_script(parse_ssml(document), language_of(voice), symbols)
    except SsmlError as error:
        raise ProtocolError("invalid_ssml", f"{error}; see docs/ssml.md for the SSML this server reads") from None
    language = language_of(voice)
    if not any(not isinstance(step, Run) or has_speech(step.text, language) for step in script.steps):
        raise ProtocolError("nothing_to_speak", f"the SSML has nothing voice {voice!r} ({language}) can speak")
    return script


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
    """One piece for the wire: encoded audio, its words and phonemes (those that start in it), and the marks
    reached before it."""

    audio: bytes
    words: list[Word]
    bookmarks: list[Bookmark] = field(default_factory=list)
    phonemes: list[Phoneme] = field(default_factory=list)


@dataclass(frozen=True)
class SpokenChunk:
    """A chunk ready for the model, its run, and the pauses and marks between its words."""

    chunk: PreparedChunk
    run: Run
    inner: tuple[Inner, ...] = ()


Step = SpokenChunk | Pause | Mark  # a chunk ready for the model, or what needs no model


@dataclass
class _Timeline:
    """Where the audio stands: a pause waits for the sound after it, so that the silence between the
    last sound before it and the first after it is the pause (the voice's own quiet edges count), and
    marks after a pause wait with it."""

    pause_samples: int = 0
    marks: list[str] = field(default_factory=list)
    tail_quiet: int = 0  # quiet samples at the end of the audio so far

    def reached(self, utterance: Utterance, ms_per_sample: float) -> list[Rendered]:
        """The marks waiting, reached where the audio stands now: a piece without audio, or none."""
        if not self.marks:
            return []
        at = round(utterance.rendered_samples * ms_per_sample, 1)
        bookmarks = [Bookmark(id=utterance.id, context=utterance.context, name=name, at_ms=at) for name in self.marks]
        self.marks.clear()
        return [Rendered(b"", [], bookmarks)]


def _prepare_next(engine: SpeechEngine, utterance: Utterance, plan: ScriptPlan, ready: deque[Step]) -> Step | None:
    """The next step: a chunk with something to say, planned and prepared on a text thread, or a pause or
    a mark; None when no step is left. A chunk of only punctuation adds nothing and is passed over (its
    pauses and marks are not). ``ready`` holds the steps a chunk brought: the pauses and marks before and
    after its words."""
    started, options = time.perf_counter(), utterance.options
    try:
        while not ready and (step := plan.take()) is not None:
            if not isinstance(step, Chunk):
                return step
            text, placed = split_anchors(step.text) if step.run.anchors else (step.text, [])
            anchored = [(offset, step.run.anchors[anchor]) for offset, anchor in placed]
            try:
                prepared = engine.prepare(text, options.voice, options.normalize, step.lexicon)
            except NothingToSpeak:
                ready.extend(item for _, item in anchored)
                continue
            anchors = by_word(anchored, text, prepared.words.words)
            ready.extend((*anchors.leading, SpokenChunk(prepared, step.run, anchors.inner), *anchors.trailing))
        return ready.popleft() if ready else None
    finally:
        utterance.text_seconds += time.perf_counter() - started
        utterance.planning_seconds, utterance.planned_as_written = plan.planning_seconds, plan.as_written


def _silence(encoder: StreamEncoder, utterance: Utterance, samples: int, sample_rate: int) -> Rendered:
    quiet = mark(TimedPhoneme(SILENCE, 0, samples), utterance.rendered_samples, 1000 / sample_rate)
    utterance.rendered_samples += samples
    return Rendered(encoder.encode(np.zeros(samples, dtype=np.float32)), [], phonemes=[quiet])


def _speak(
    engine: SpeechEngine, encoder: StreamEncoder, utterance: Utterance, timeline: _Timeline, step: SpokenChunk
) -> list[Rendered]:
    """Synthesize a prepared chunk and encode it, on an engine worker; a pause before it goes first, and
    the pauses and marks between its words are made where its words meet (``breaks``)."""
    started = time.perf_counter()
    run, rate = step.run, engine.sample_rate
    low, high = SPEED_RANGE
    speed = min(high, max(low, utterance.options.speed * run.rate))
    speech = engine.speak(step.chunk, speed, utterance.interruption)
    placed = place(speech.audio, speech.words, step.inner, rate, speech.phonemes)
    whole = placed.audio
    # The pauses around the chunk count the voice's quiet as spoken, before its volume: a soft run's
    # quiet edges are the same length as a loud one's.
    head_quiet, tail_quiet = quiet_edges(whole)
    paused = timeline.pause_samples > 0
    if paused:  # the chunk's first word starts where its sound resumes (its marks are reached there)
        placed = sounding_from(placed, head_quiet)
    ms_per_sample = 1000 / rate
    rendered: list[Rendered] = []
    if run.volume_db:
        whole = louder(whole, run.volume_db, sample_rate=rate)
    if paused:
        pad = max(0, timeline.pause_samples - timeline.tail_quiet - head_quiet)
        timeline.pause_samples = 0
        if pad:
            rendered.append(_silence(encoder, utterance, pad, rate))
    offset = utterance.rendered_samples
    # Where the audio is cut, and the marks reached there: after a pause, its marks where the sound resumes;
    # each inner mark where its words meet.
    cuts = [(head_quiet if paused else 0, list(timeline.marks))] if timeline.marks else []
    timeline.marks.clear()
    cuts.extend((at, [name]) for at, name in placed.marks)
    words = deque(
        (
            word.start,
            Word(
                text=run.as_written(word.text),
                start_ms=round((offset + word.start) * ms_per_sample, 1),
                end_ms=round((offset + word.end) * ms_per_sample, 1),
            ),
        )
        for word in placed.words
    )
    utterance.words.extend(word for _, word in words)
    sounds: deque[tuple[int, Phoneme]] = deque()
    if utterance.options.phonemes:  # a muted run moves no lips: its audio is all ``sil``
        heard = placed.phonemes if run.volume_db != float("-inf") else ()
        marked = ((sound.start, mark(sound, offset, ms_per_sample)) for sound in tiled(heard, len(whole)))
        sounds.extend((start, sound) for start, sound in marked if sound.end_ms > sound.start_ms)  # none under 0.1 ms

    def piece(start: int, end: int, last: bool = False) -> Rendered:
        """The audio from ``start`` to ``end``, with the words and phonemes that start in it."""
        end_of = len(whole) + 1 if last else end
        return Rendered(encoder.encode(whole[start:end]), _until(words, end_of), phonemes=_until(sounds, end_of))

    consumed = 0
    for at, names in cuts:
        if at > consumed:
            rendered.append(piece(consumed, at))
            consumed = at
        at_ms = round((offset + consumed) * ms_per_sample, 1)
        rendered.append(
            Rendered(
                b"",
                [],
                [Bookmark(id=utterance.id, context=utterance.context, name=name, at_ms=at_ms) for name in names],
            )
        )
    rendered.append(piece(consumed, len(whole), last=True))
    utterance.rendered_samples = offset + len(whole)
    timeline.tail_quiet = tail_quiet if tail_quiet < len(whole) else timeline.tail_quiet + len(whole)
    utterance.synth_seconds += time.perf_counter() - started
    return rendered


def _until[Timed](timed: deque[tuple[int, Timed]], end: int) -> list[Timed]:
    """Take from ``timed`` (in order of their start sample) those that start before ``end``."""
    taken = []
    while timed and timed[0][0] < end:
        taken.append(timed.popleft()[1])
    return taken


def _without_model(
    step: Pause | Mark, encoder: StreamEncoder, utterance: Utterance, timeline: _Timeline, sample_rate: int
) -> list[Rendered]:
    """A pause or a mark: a pause waits for the sound after it; a mark is reached now, or after a pause."""
    if isinstance(step, Pause):
        # Marks between two pauses: the first pause ends where they stand.
        rendered = _end_pause(encoder, utterance, timeline, sample_rate) if timeline.marks else []
        timeline.pause_samples += round(step.ms * sample_rate / 1000)
        return rendered
    timeline.marks.append(step.name)
    return [] if timeline.pause_samples else timeline.reached(utterance, 1000 / sample_rate)


def _end_pause(encoder: StreamEncoder, utterance: Utterance, timeline: _Timeline, sample_rate: int) -> list[Rendered]:
    """A pause with no sound after it: its silence after the quiet the audio already ends with, then the
    marks that waited for it; what comes next counts from there."""
    rendered = []
    if pad := max(0, timeline.pause_samples - timeline.tail_quiet):
        rendered.append(_silence(encoder, utterance, pad, sample_rate))
    timeline.pause_samples, timeline.tail_quiet = 0, 0
    return rendered + timeline.reached(utterance, 1000 / sample_rate)


def _finish(encoder: StreamEncoder, utterance: Utterance, timeline: _Timeline, sample_rate: int) -> list[Rendered]:
    """What is left at the end: a last pause and the marks after it, and the resampler's last samples."""
    rendered = _end_pause(encoder, utterance, timeline, sample_rate)
    if tail := encoder.finish():
        rendered.append(Rendered(tail, []))
    return rendered


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


Prepare = Callable[[], Step | None]


def _speak_first(
    prepare: Prepare,
    speak: Callable[[SpokenChunk], list[Rendered]],
    ahead: Callable[[Prepare], Future[Step | None]],
) -> tuple[Step | list[Rendered] | None, Future[Step | None] | None]:
    """The first step, on an engine worker: planned and prepared here (nothing is there to overlap its text
    work with), then spoken if it is a chunk, while the next step's text work starts on a text thread."""
    step = prepare()
    if step is None:
        return None, None
    following = ahead(prepare)  # after the first step is planned: the plan is read in order
    if not isinstance(step, SpokenChunk):
        return step, following  # a pause or a mark, for the event loop
    try:
        return speak(step), following
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
    """Yield the encoded audio of ``utterance``, its words and its marks, chunk by chunk (its ``header``
    goes first on the wire).

    ``first_chunk`` is the first chunk's limit in characters and whether it must fit it (``pace``). Each
    step after the first is planned and prepared on a text thread while the chunk before it is spoken
    (``planning``), so the engine worker runs the model alone.
    """
    encoder = StreamEncoder(utterance.options.format)
    options = utterance.options
    script = await script_of(utterance)
    reading = VoiceReading(language_of(options.voice), options.normalize, options.lexicon)
    plan = ScriptPlan(script, reading, first_chunk, max_chunk_chars, planning_budget_seconds, utterance.interruption)
    timeline = _Timeline()
    rate = engine.sample_rate
    prepare: Prepare = partial(_prepare_next, engine, utterance, plan, deque())
    speak = partial(_speak, engine, encoder, utterance, timeline)
    ahead: Future[Step | None] | None = None
    carry = _Carry()
    finished = False
    try:
        first, ahead = await scheduler.run(utterance.session, partial(_speak_first, prepare, speak, scheduler.prepare))
        pieces = (
            first
            if isinstance(first, list)
            else []
            if first is None
            else _without_model(first, encoder, utterance, timeline, rate)
        )
        while True:
            for piece in carry.through(pieces):
                yield piece
            if ahead is None or (step := await asyncio.wrap_future(ahead)) is None:
                break
            ahead = scheduler.prepare(prepare)  # the next step's text work, while this one is spoken
            if isinstance(step, SpokenChunk):
                pieces = await scheduler.run(utterance.session, partial(speak, step))
            else:
                pieces = _without_model(step, encoder, utterance, timeline, rate)
        finished = True
        # A last pause may be seconds of silence to resample: not on the event loop.
        finished_pieces = await asyncio.wrap_future(
            scheduler.prepare(partial(_finish, encoder, utterance, timeline, rate))
        )
        for piece in carry.through(finished_pieces, last=True):
            yield piece
    finally:
        if not finished:
            # Canceled, disconnected, failed or cut at shutdown: a chunk already on a worker stops now, so
            # the worker is free for the next utterance, and the next chunk's text work stops with it.
            utterance.interruption.interrupt()
            if ahead is not None:
                ahead.cancel()
