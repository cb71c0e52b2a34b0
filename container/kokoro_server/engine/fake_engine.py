"""A deterministic engine without a model, for fast tests of everything around synthesis (sessions,
scheduling, routes, clients) and for trying a client against ``KOKORO_ENGINE=fake``.

It keeps the engine contract (``speech_engine.SpeechEngine``) with the real text pipeline (what a
voice says, normalization and lexicon included) and makes audio from what is said: a tone whose
pitch identifies the text (and the blend saying it, for a blend of its voices), as long as the text
would take to say, with its words spread over it in proportion to what is said for each. The same input always gives the
same bytes, so a test can tell whose audio it got and whether any went missing or came twice.

Timing is the test's to control, never the machine's: a call takes ``real_time_factor`` times its
audio's length (0 by default: at once), and while ``gate`` is clear every call waits for it; both
waits end at once when the call is interrupted.

With ``max_batch`` above 1 it speaks batches as a device that batches does: one call for all its items,
as long as its longest item takes, each item's audio what it gets alone; ``batches`` records each call's
texts, so a test sees which chunks were spoken together.
"""

from __future__ import annotations

import threading
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from kokoro_onnx.config import DEFAULT_VOCAB

from kokoro_core.model_cache import SAMPLE_RATE
from kokoro_core.speakable import LANGUAGES
from kokoro_core.voices import parse_voice
from kokoro_server.text.reading import VoiceReading, shown_with_sources
from kokoro_server.text.word_sources import written_words
from kokoro_server.text.word_timing import TimedPhoneme, TimedWord, WordPlaces

from .speech_engine import (
    BatchCall,
    Interrupted,
    Interruption,
    NothingToSpeak,
    PreparedChunk,
    PrepareThenSpeak,
    RunsOn,
    Speech,
    SpeechRequest,
)

VOICES = ("af_heart", "am_michael", "bf_emma", "bm_george")
SECONDS_PER_SAID_CHAR = 0.06  # about Kokoro's pace at speed 1
# Kokoro's own phoneme vocabulary, so lexicon entries are checked as on the real model.
PHONEME_SYMBOLS = frozenset(DEFAULT_VOCAB)


def tone_hz(said: str, blend: str | None = None) -> float:
    """The pitch that identifies a said text: 200 to 800 Hz, from a checksum of it; ``blend`` (a blend's
    canonical form) gives it another pitch, so a test hears which blend said it."""
    return 200.0 + zlib.crc32(said.encode() if blend is None else f"{blend}|{said}".encode()) % 600


def _letters_as_phonemes(words: tuple[TimedWord, ...]) -> list[TimedPhoneme]:
    """Each letter of each word a phoneme, spread evenly over the word: what a phoneme mark test needs."""
    phonemes: list[TimedPhoneme] = []
    for word in words:
        letters = [letter for letter in word.text.lower() if letter.isalpha()]
        bounds = np.linspace(word.start, word.end, len(letters) + 1).round().astype(int)
        spans = zip(letters, bounds, bounds[1:], strict=False)
        phonemes.extend(TimedPhoneme(letter, int(a), int(b)) for letter, a, b in spans if b > a)
    return phonemes


class FakeEngine(PrepareThenSpeak):
    def __init__(self, real_time_factor: float = 0.0, gate: threading.Event | None = None, max_batch: int = 1) -> None:
        super().__init__()
        self.real_time_factor = real_time_factor
        self.gate = gate
        self.providers: tuple[str, ...] = ("FakeEngine",)
        self.calls: list[str] = []  # the text of every chunk spoken, in the order their calls started
        self.batches: list[list[str]] = []  # each call's chunks
        self.said: list[str] = []  # what each chunk spoken says, a span of another language between its marks
        self._max_batch = max_batch
        self._stopping = Interruption()
        self._lock = threading.Lock()

    @property
    def max_batch(self) -> int:
        return self._max_batch

    @property
    def model_dir(self) -> Path | None:
        return None

    @property
    def sample_rate(self) -> int:
        return SAMPLE_RATE

    @property
    def default_voice(self) -> str:
        return VOICES[0]

    @property
    def voices(self) -> tuple[str, ...]:
        return VOICES

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(LANGUAGES.values()))  # it says text, in any language

    @property
    def phoneme_symbols(self) -> frozenset[str]:
        return PHONEME_SYMBOLS

    @property
    def device(self) -> RunsOn:
        return "cpu"

    def prepare(self, text: str, voice: str, reading: VoiceReading | None = None) -> PreparedChunk:
        if self._stopping.interrupted:
            raise Interrupted("the engine is stopping")
        reading = reading or VoiceReading.of(voice)
        parts = reading.parts(text)  # read once, for what is said and for its words
        said = " ".join(shown_with_sources(parts, reading.language)[0].split())
        if not said.strip(" .,;:!?—…\"'()/"):
            raise NothingToSpeak(f"nothing speakable in {text[:40]!r} for voice {voice!r}")
        return PreparedChunk(text, voice, said, (), WordPlaces(tuple(written_words(text, reading, parts)), 0, None))

    def speak_batch(self, requests: list[SpeechRequest]) -> list[Speech | Interrupted]:
        blends = [parse_voice(request.chunk.voice, VOICES) for request in requests]  # refuses a voice it has not
        with self._lock:
            self.calls.extend(request.chunk.text for request in requests)
            self.said.extend(request.chunk.said for request in requests)
            self.batches.append([request.chunk.text for request in requests])
        seconds = [SECONDS_PER_SAID_CHAR * len(request.chunk.said) / request.speed for request in requests]
        with BatchCall(self._stopping, [request.interruption for request in requests]) as batch:
            call = batch.call
            while self.gate is not None and not self.gate.wait(0.01):
                if call.stopped:
                    break
            deadline = time.perf_counter() + self.real_time_factor * max(seconds)
            while not call.stopped and (left := deadline - time.perf_counter()) > 0:
                time.sleep(min(left, 0.01))
            results: list[Speech | Interrupted] = [
                self._tone(request.chunk, length, blend)
                if index in batch.live and not batch.items[index].stopped
                else Interrupted("interrupted before or during the inference call")
                for index, (request, length, blend) in enumerate(zip(requests, seconds, blends, strict=True))
            ]
        return self._counted(results)

    def _tone(self, chunk: PreparedChunk, seconds: float, blend: Any) -> Speech:
        samples = np.arange(round(seconds * SAMPLE_RATE), dtype=np.float32) / SAMPLE_RATE
        audio = (
            0.3 * np.sin(2 * np.pi * tone_hz(chunk.said, blend.canonical if blend.is_blend else None) * samples)
        ).astype(np.float32)
        words = tuple(chunk.words.timed((), len(audio)))
        return Speech(audio, words, tuple(_letters_as_phonemes(words)))

    def stop(self) -> int:
        return self._stopping.interrupt()

    def warm_up(self) -> float:
        return 0.0
