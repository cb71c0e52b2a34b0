"""The Kokoro-82M engine (a ``speech_engine.SpeechEngine``): text → phonemes (espeak-ng) → token ids →
ONNX Runtime → audio, and when each written word is heard (from the model's per-token durations,
``durations``, mapped to the words by ``word_timing``). ``prepare`` does the text work, ``speak`` the
model's.

Thread-safe: the server calls ``speak`` from several engine workers and ``prepare`` from text threads at
once. ONNX Runtime runs one session concurrently and releases the GIL while it computes; espeak-ng is
process-global state, so kokoro-onnx's tokenizer serialises phonemization behind a lock.

A voice may be a blend of voices (``kokoro_core.voices``): its style vectors are theirs mixed, once
(``VoiceStyles``).

An inference call can be stopped part-way (``Interruption``): a long chunk on a CPU takes many
seconds, and neither a canceled utterance nor a server past its drain deadline should wait for it.

With ``max_batch`` above 1 the model speaks several chunks per call (``speak_batch``, on the graph
``batch_graph`` rewrites); the session itself is ``model_session``.
"""

from __future__ import annotations

import logging
import time
from functools import partial
from pathlib import Path

import numpy as np
from kokoro_onnx.chunker import split_phonemes
from kokoro_onnx.config import DEFAULT_VOCAB, MAX_PHONEME_LENGTH
from kokoro_onnx.tokenizer import Tokenizer

from kokoro_core.model_cache import SAMPLE_RATE, Manifest, voice_files
from kokoro_server.text.g2p import G2P, available_languages
from kokoro_server.text.reading import SaidPart, VoiceReading, marked_g2p, phonemes_of
from kokoro_server.text.word_sources import written_words
from kokoro_server.text.word_timing import (
    Span,
    TimedPhoneme,
    phoneme_spans,
    phoneme_word_spans,
    phonemes_alone,
    place_words,
    until_silent,
    within_words,
)

from .durations import NoDurations
from .model_session import EngineOptions, ModelInput, ModelSession
from .speech_engine import (
    SILENCE_LEVEL,
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
from .voice_styles import STYLE_DIM, VoiceStyles

__all__ = ["SAMPLE_RATE", "STYLE_DIM", "Engine", "EngineOptions"]
DEFAULT_OPTIONS = EngineOptions()

# phonemizer warns on every input whose word count changes in G2P ("$5" → "five dollars").
logging.getLogger("phonemizer").setLevel(logging.ERROR)

FADE_SECONDS = 0.004
# Kokoro pads each output with about 0.3 s of silence before and 0.45 s after the speech. Keep a
# little of each: less delay before the first sound, natural pauses between chunks.
KEEP_LEADING_SECONDS = 0.06
KEEP_TRAILING_SECONDS = 0.2


def _kept(audio: np.ndarray) -> tuple[int, int]:
    """The part of ``audio`` to keep, as (start, end): its sound and a little of the silence around it."""
    loud = np.flatnonzero(np.abs(audio) > SILENCE_LEVEL)
    if not loud.size:
        return 0, len(audio)
    start = max(0, int(loud[0]) - int(SAMPLE_RATE * KEEP_LEADING_SECONDS))
    end = min(len(audio), int(loud[-1]) + 1 + int(SAMPLE_RATE * KEEP_TRAILING_SECONDS))
    return start, end


def _fade(audio: np.ndarray) -> np.ndarray:
    """Raise the edges from and to silence so consecutive chunks join without a click."""
    n = min(int(SAMPLE_RATE * FADE_SECONDS), len(audio) // 2)
    if n:
        ramp = np.sin(np.linspace(0.0, np.pi / 2, n, dtype=np.float32)) ** 2
        audio[:n] *= ramp
        audio[-n:] *= ramp[::-1]
    return audio


class Engine(PrepareThenSpeak):
    """One loaded model and its voices."""

    def __init__(self, model_dir: Path, manifest: Manifest, options: EngineOptions = DEFAULT_OPTIONS) -> None:
        super().__init__()
        self.manifest = manifest
        self.model_dir = model_dir
        self.options = options
        self.styles = VoiceStyles(
            {
                name: np.fromfile(model_dir / path, dtype=np.float32).reshape(-1, 1, STYLE_DIM)
                for name, path in sorted(voice_files(manifest.files, manifest.voices).items())
            }
        )
        self._model = ModelSession(model_dir / manifest.onnx, options, self.styles[manifest.default_voice])
        self.providers = self._model.providers
        self.interface = self._model.interface
        self.convolutions_as_matmuls = self._model.convolutions_as_matmuls
        if options.device == "cuda" and self.device != "cuda":
            raise RuntimeError(f"device 'cuda' asked for, but ONNX Runtime fell back to {self.providers}")
        self._tokenizer = Tokenizer(vocab=self._model.vocab or DEFAULT_VOCAB)
        self._g2p = G2P(self._tokenizer.phonemize, frozenset(self._tokenizer.vocab))
        self._stopping = Interruption()
        self._samples_per_frame = self._measure_frame()

    @property
    def max_batch(self) -> int:
        """The most chunks one call speaks: the batch the graph was made for, else 1."""
        return self.options.max_batch if self._model.batched else 1

    @property
    def voices(self) -> tuple[str, ...]:
        return self.styles.names

    @property
    def phoneme_symbols(self) -> frozenset[str]:
        """The phoneme symbols the model reads (a lexicon's phonemes must use only these)."""
        return frozenset(self._tokenizer.vocab)

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages this installation reads (``text.g2p``): a voice of another is refused."""
        return available_languages()

    @property
    def device(self) -> RunsOn:
        return "cuda" if self.providers[0] == "CUDAExecutionProvider" else "cpu"

    @property
    def sample_rate(self) -> int:
        return self.manifest.sample_rate

    @property
    def default_voice(self) -> str:
        return self.manifest.default_voice

    def phonemize(self, text: str, voice: str, reading: VoiceReading | None = None) -> str:
        """The phonemes ``voice`` says for ``text`` as ``reading`` reads it (by default normalized: amounts, dates
        and the like in words first). A lexicon's entries go first: respellings are read as text, phonemes are
        taken as written."""
        how = reading or VoiceReading.of(voice)
        return self._phonemes(how.parts(text), text, voice, how)

    def _phonemes(self, parts: list[SaidPart], text: str, voice: str, how: VoiceReading) -> str:
        phonemes = phonemes_of(parts, self._g2p)
        if not phonemes.strip(" .,;:!?—…\"'()"):
            raise NothingToSpeak(f"nothing speakable in {text[:40]!r} for voice {voice!r} ({how.language})")
        return phonemes

    def prepare(self, text: str, voice: str, reading: VoiceReading | None = None) -> PreparedChunk:
        """One chunk's text work: its phonemes cut into the pieces each inference call takes, their token
        ids, and where each written word falls among the phoneme words. Any thread; raises ``NothingToSpeak``,
        or ``Interrupted`` once ``stop`` was called."""
        if self._stopping.interrupted:
            raise Interrupted("the engine is stopping")
        how = reading or VoiceReading.of(voice)
        parts = how.parts(text)  # the chunk is read once, for its phonemes and its words alike
        phonemes = " ".join(self._phonemes(parts, text, voice, how).split())
        pieces = tuple(
            (piece, tuple(tokens))
            for piece in split_phonemes(phonemes, MAX_PHONEME_LENGTH)
            if (tokens := self._tokenizer.tokenize(piece))
        )
        if not pieces:
            raise NothingToSpeak(f"nothing speakable in {text[:40]!r} for voice {voice!r}")
        words = written_words(text, how, parts)
        alone = partial(phonemes_alone, g2p=partial(marked_g2p, language=how.language, g2p=self._g2p))
        return PreparedChunk(text, voice, phonemes, pieces, place_words(words, phonemes.split(), alone))

    def speak_batch(self, requests: list[SpeechRequest]) -> list[Speech | Interrupted]:
        """Each request's ``speak``, in one inference call of all their pieces (one per piece at ``max_batch``
        1). An item canceled during the call is dropped from it; the call stops when all are."""
        with BatchCall(self._stopping, [request.interruption for request in requests]) as batch:
            inputs = [
                item for index in batch.live for item in self._inputs(requests[index].chunk, requests[index].speed)
            ]
            try:
                outputs = iter(self._model.run(inputs, batch.call) if inputs else [])
            except Exception:
                if not batch.call.stopped:
                    raise
                outputs = iter([])  # every item was stopped, and with them the call
            results: list[Speech | Interrupted] = []
            for index, request in enumerate(requests):
                if index not in batch.live:
                    results.append(Interrupted("interrupted before the inference call started"))
                elif batch.items[index].stopped:
                    results.append(Interrupted("interrupted during the inference call"))
                    for _ in request.chunk.pieces:
                        next(outputs, None)
                else:
                    results.append(self._spoken(request.chunk, [next(outputs) for _ in request.chunk.pieces]))
        return self._counted(results)

    def _spoken(self, chunk: PreparedChunk, pieces: list[tuple[np.ndarray, np.ndarray]]) -> Speech:
        """A chunk's audio from its pieces' (trimmed to its sound, faded), its words' and phonemes' times."""
        spans: list[Span] = []
        sounds: list[tuple[str, Span]] = []
        offset = 0
        for (phoneme_piece, _), (audio, frames) in zip(chunk.pieces, pieces, strict=True):
            piece_spans = phoneme_word_spans(phoneme_piece, frames, self._samples_per_frame, self._is_token)
            spans.extend((start + offset, end + offset) for start, end in piece_spans)
            piece_sounds = phoneme_spans(phoneme_piece, frames, self._samples_per_frame, self._is_token)
            sounds.extend((phoneme, (start + offset, end + offset)) for phoneme, (start, end) in piece_sounds)
            offset += len(audio)
        whole = np.concatenate([audio for audio, _ in pieces])
        start, end = _kept(whole)
        spans = until_silent(spans, whole, SILENCE_LEVEL)
        audio = _fade(whole[start:end])
        words = chunk.words.timed(spans, len(audio), shift=start)
        kept = [(phoneme, [min(max(0, round(at) - start), len(audio)) for at in span]) for phoneme, span in sounds]
        phonemes = [TimedPhoneme(phoneme, first, last) for phoneme, (first, last) in kept if last > first]
        return Speech(audio, tuple(words), tuple(within_words(phonemes, words)))

    def _is_token(self, char: str) -> bool:
        return char in self._tokenizer.vocab

    def stop(self) -> int:
        """Stop every inference call in flight and refuse new ones; return how many were in flight."""
        return self._stopping.interrupt()

    def _inputs(self, chunk: PreparedChunk, speed: float) -> list[ModelInput]:
        """What the model takes for each piece of ``chunk``: its tokens, its voice's style for that length."""
        style = self.styles[chunk.voice]
        return [ModelInput(tokens, style[min(len(tokens), len(style)) - 1], speed) for _, tokens in chunk.pieces]

    def model_outputs(self, chunk: PreparedChunk, speed: float = 1.0) -> list[tuple[np.ndarray, np.ndarray]]:
        """What the model computes for each piece of ``chunk``, untrimmed: its audio and each of its tokens'
        frames (for comparing graphs), in one call."""
        return self.run_model(self._inputs(chunk, speed))

    def run_model(self, inputs: list[ModelInput]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The model's outputs for ``inputs`` (one call on a batch-capable graph), at full speed: the engine's
        own work, not a request's."""
        with self._model.full_speed(), BatchCall(self._stopping, [None]) as batch:
            return self._model.run(inputs, batch.call)

    def english_input(self, text: str, speed: float = 1.0) -> ModelInput:
        """``text`` read in US English, in the default voice, as the model takes it (for the engine's checks)."""
        tokens = tuple(self._tokenizer.tokenize(self._tokenizer.phonemize(text, "en-us")))
        return ModelInput(tokens, self.styles[self.default_voice][len(tokens) - 1], speed)

    def _measure_frame(self) -> int:
        """Samples per duration frame, from one short inference; refuses a model whose durations do not
        add up to its audio (word times would drift)."""
        item = self.english_input("Ready.")
        tokens = item.tokens
        ((audio, frames),) = self.run_model([item])
        if len(frames) != len(tokens) + 2 or not frames.sum() or len(audio) % int(frames.sum()):
            raise NoDurations(
                f"the model's durations ({len(frames)} values, {int(frames.sum())} frames) "
                f"do not match its {len(tokens) + 2} tokens and {len(audio)} samples of audio"
            )
        return len(audio) // int(frames.sum())

    def warm_up(self) -> float:
        """Run two input lengths once so the first request pays no first-call costs; return seconds."""
        started = time.perf_counter()
        voice = self.manifest.default_voice
        with self._model.full_speed():
            for text in ("Ready.", "The engine is warming up."):
                self.synthesize(text, voice)
        return time.perf_counter() - started
