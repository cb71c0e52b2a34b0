"""What the server needs of an engine: the contract the Kokoro engine (``kokoro.Engine``) and the
deterministic fake (``fake_engine.FakeEngine``) both keep, and how an inference call is interrupted.

A chunk is made in two steps, so that reading text never holds the model: ``prepare`` does all the
text work (what is said, phonemes, tokens, where each word falls) and ``speak`` runs the model on what
was prepared. The server prepares the next chunk while the model speaks this one (``kokoro_server.serving``).

``speak_batch`` speaks several prepared chunks (of different sessions, voices and speeds) in one call, each
as it would be alone; an engine without a batch-capable model speaks them one after another. Each item has
its own interruption: one canceled item is dropped from the call's result, and the call itself stops only
when every item is canceled (or the engine stops).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from kokoro_server.text.reading import VoiceReading
from kokoro_server.text.word_timing import TimedPhoneme, TimedWord, WordPlaces

RunsOn = Literal["cuda", "cpu"]  # the device an engine really got
SILENCE_LEVEL = 0.003  # audio quieter than this (of full scale 1.0) is silence: an engine trims to its sound


@dataclass(frozen=True)
class Speech:
    """One chunk's audio (float32 mono at the engine's rate), when each of its written words is heard, and
    when each of its phonemes is (in order; quiet between them is not a phoneme)."""

    audio: np.ndarray
    words: tuple[TimedWord, ...]
    phonemes: tuple[TimedPhoneme, ...] = ()


@dataclass(frozen=True)
class PreparedChunk:
    """A chunk read for a voice, ready for the model: its text work done, so ``speak`` only runs the model."""

    text: str  # as written
    voice: str
    said: str  # what the model reads: its phonemes (the fake engine: the said text)
    pieces: tuple[tuple[str, tuple[int, ...]], ...]  # each inference call's phonemes and token ids
    words: WordPlaces  # the written words and where they fall among the phoneme words

    @property
    def length(self) -> int:
        """How long the model's input is (its longest piece's tokens; the said text's characters for an engine
        without tokens): what a batch is grouped by."""
        return max((len(tokens) for _, tokens in self.pieces), default=len(self.said))


@dataclass(frozen=True)
class SpeechRequest:
    """One item of a model call: a prepared chunk, its speed, and the interruption that cancels it."""

    chunk: PreparedChunk
    speed: float = 1.0
    interruption: Interruption | None = None


class NothingToSpeak(ValueError):
    """The text holds nothing the voice can say (only symbols, emoji or unsupported script)."""


class Interrupted(RuntimeError):
    """An inference call was stopped before it finished (its utterance was canceled, or the engine stopped)."""


class Call:
    """One inference call's stop flag: set by any interruption the call runs under, read by the engine.

    The token is the engine's own business how it honours: the Kokoro engine binds an ONNX Runtime run's
    ``terminate`` flag to it (``on_stop``), which ONNX Runtime checks between graph nodes, so a call in
    flight ends within milliseconds; the fake engine polls ``stopped``.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stopped = False
        self._on_stop: list[Callable[[], None]] = []

    @property
    def stopped(self) -> bool:
        return self._stopped

    def stop(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
            callbacks, self._on_stop = self._on_stop, []
        for callback in callbacks:
            callback()

    def on_stop(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when the call is stopped; at once if it is already."""
        with self._lock:
            if not self._stopped:
                self._on_stop.append(callback)
                return
        callback()


class Interruption:
    """Stops the inference calls made under it, at once or at their next graph node; a call that starts
    after ``interrupt`` fails before it runs."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: set[Call] = set()
        self._interrupted = False

    @property
    def interrupted(self) -> bool:
        """Whether ``interrupt`` was called: work under this interruption should stop."""
        return self._interrupted

    @property
    def in_flight(self) -> int:
        """Inference calls running under this interruption now."""
        with self._lock:
            return len(self._calls)

    def interrupt(self) -> int:
        """Stop every call in flight and every later one; return how many were in flight."""
        with self._lock:
            self._interrupted = True
            calls = list(self._calls)
        for call in calls:
            call.stop()
        return len(calls)

    @contextmanager
    def watching(self, call: Call) -> Iterator[None]:
        with self._lock:
            if self._interrupted:
                raise Interrupted("interrupted before the inference call started")
            self._calls.add(call)
        try:
            yield
        finally:
            with self._lock:
                self._calls.discard(call)


class BatchCall:
    """One model call for several items: each item's ``Call`` stops with its own interruption (or the engine's),
    and ``call`` stops once every item's has. An item interrupted before the call starts is not in ``live``."""

    def __init__(self, stopping: Interruption, interruptions: list[Interruption | None]) -> None:
        self.call = Call()
        self.items = [Call() for _ in interruptions]
        self._stack = ExitStack()
        self.live: list[int] = []
        for index, (item, interruption) in enumerate(zip(self.items, interruptions, strict=True)):
            try:
                for watch in (stopping, interruption):
                    if watch is not None:
                        self._stack.enter_context(watch.watching(item))
            except Interrupted:
                item.stop()
                continue
            self.live.append(index)
        for index in self.live:
            self.items[index].on_stop(self._item_stopped)
        if not self.live:
            self.call.stop()

    def _item_stopped(self) -> None:
        if all(self.items[index].stopped for index in self.live):
            self.call.stop()

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> BatchCall:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SpeechEngine(Protocol):
    """Text in, float32 mono audio at ``sample_rate`` out, one chunk per call, from worker threads."""

    providers: tuple[str, ...]
    interrupted_calls: int  # items of calls an interruption stopped (or refused) since start

    @property
    def model_dir(self) -> Path | None:
        """Where the model was loaded from (a server-wide lexicon.json may sit there)."""
        ...

    @property
    def sample_rate(self) -> int: ...

    @property
    def default_voice(self) -> str: ...

    @property
    def voices(self) -> tuple[str, ...]: ...

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages (``kokoro_core.speakable.LANGUAGES`` values) this engine reads."""
        ...

    @property
    def phoneme_symbols(self) -> frozenset[str]:
        """The phoneme symbols the model reads (a lexicon's phonemes must use only these)."""
        ...

    @property
    def device(self) -> RunsOn: ...

    def prepare(self, text: str, voice: str, reading: VoiceReading | None = None) -> PreparedChunk:
        """All of one chunk's text work, on any thread; raises ``NothingToSpeak``. ``reading``: how the voice reads
        it (normalized or not, its lexicon, whether a span in another script is read by its own language's
        reader, ``text.foreign``); default: ``VoiceReading.of(voice)``."""
        ...

    def speak(self, chunk: PreparedChunk, speed: float = 1.0, interruption: Interruption | None = None) -> Speech:
        """Audio for a prepared chunk and its word times: the model's work; raises ``Interrupted``."""
        ...

    @property
    def max_batch(self) -> int:
        """The most items one ``speak_batch`` call speaks at once (1: the engine speaks one chunk per call)."""
        ...

    def speak_batch(self, requests: list[SpeechRequest]) -> list[Speech | Interrupted]:
        """Each request's audio and word times, as ``speak`` would give them, in order; an item interrupted
        before or during the call gets its ``Interrupted`` instead. Raises only for the whole call."""
        ...

    def stop(self) -> int:
        """Stop every call in flight and refuse new ones; return how many were in flight."""
        ...

    def warm_up(self) -> float:
        """Make the first request pay no first-call costs; return seconds spent."""
        ...


class PrepareThenSpeak:
    """What an engine whose model call is ``speak_batch`` shares: ``speak``, one chunk as a batch of one;
    ``synthesize``, both steps at once, for callers that do not overlap them (warm-up, benchmarks, tests); and
    the count of items interruptions stopped."""

    def __init__(self) -> None:
        self.interrupted_calls = 0  # items of calls an interruption stopped (or refused) since start
        self._interrupted_lock = threading.Lock()

    @property
    def max_batch(self) -> int:
        return 1

    def prepare(self, text: str, voice: str, reading: VoiceReading | None = None) -> PreparedChunk:
        raise NotImplementedError

    def speak_batch(self, requests: list[SpeechRequest]) -> list[Speech | Interrupted]:
        raise NotImplementedError

    def speak(self, chunk: PreparedChunk, speed: float = 1.0, interruption: Interruption | None = None) -> Speech:
        """Audio for a prepared chunk and when each of its written words is heard, in a call of its own.
        Raises ``Interrupted`` if ``interruption`` (or the engine's stop) stops the call before it finishes."""
        (spoken,) = self.speak_batch([SpeechRequest(chunk, speed, interruption)])
        if isinstance(spoken, Interrupted):
            raise spoken
        return spoken

    def _counted(self, results: list[Speech | Interrupted]) -> list[Speech | Interrupted]:
        """``results``, the interrupted among them counted."""
        if interrupted := sum(isinstance(result, Interrupted) for result in results):
            with self._interrupted_lock:
                self.interrupted_calls += interrupted
        return results

    def synthesize(
        self,
        text: str,
        voice: str,
        speed: float = 1.0,
        interruption: Interruption | None = None,
        reading: VoiceReading | None = None,
    ) -> Speech:
        """Audio for one chunk of text and when each of its written words is heard."""
        return self.speak(self.prepare(text, voice, reading), speed, interruption)
