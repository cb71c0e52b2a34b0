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
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from kokoro_onnx.chunker import split_phonemes
from kokoro_onnx.config import DEFAULT_VOCAB, MAX_PHONEME_LENGTH
from kokoro_onnx.session import embedded_vocab, input_dtypes
from kokoro_onnx.tokenizer import Tokenizer

from kokoro_core.lexicon import NO_LEXICON, Lexicon
from kokoro_core.model_cache import SAMPLE_RATE, Manifest, voice_files
from kokoro_core.speakable import language_of
from kokoro_core.voices import parse_voice
from kokoro_server.settings import CudnnAlgoSearch, Device
from kokoro_server.text.g2p import G2P, available_languages
from kokoro_server.text.reading import VoiceReading, said_phonemes
from kokoro_server.text.word_timing import (
    Span,
    TimedPhoneme,
    phoneme_spans,
    phoneme_word_spans,
    phonemes_alone,
    place_words,
    until_silent,
    within_words,
    written_words,
)

from .durations import NoDurations, expose_durations
from .integer_conv import convolutions_as_matmuls
from .speech_engine import (
    SILENCE_LEVEL,
    Call,
    Interrupted,
    Interruption,
    NothingToSpeak,
    PreparedChunk,
    PrepareThenSpeak,
    RunsOn,
    Speech,
    interruptible,
)

# phonemizer warns on every input whose word count changes in G2P ("$5" → "five dollars").
logging.getLogger("phonemizer").setLevel(logging.ERROR)

STYLE_DIM = 256
FADE_SECONDS = 0.004
# Kokoro pads each output with about 0.3 s of silence before and 0.45 s after the speech. Keep a
# little of each: less delay before the first sound, natural pauses between chunks.
KEEP_LEADING_SECONDS = 0.06
KEEP_TRAILING_SECONDS = 0.2
# Blends mixed and kept (each 510 × 256 float32, about 0.5 MB): a session's blend is mixed once, not per chunk.
BLEND_CACHE_SIZE = 32


@dataclass(frozen=True)
class EngineOptions:
    device: Device = "auto"
    # HEURISTIC asks cuDNN for its best guess per shape without timing every algorithm; Kokoro
    # sees a new input length on nearly every call, so EXHAUSTIVE would re-benchmark constantly.
    cudnn_conv_algo_search: CudnnAlgoSearch = "HEURISTIC"
    threads_per_worker: int = 0  # 0: let ONNX Runtime decide
    # Each inference call takes this many times as long (the engine waits out the difference): a
    # stand-in for a slower machine, to check that nothing depends on how fast this one is.
    slowdown: float = 1.0
    # On a CPU, run the int8 convolutions as u8 × s8 matrix products (integer_conv.py): the same audio, sooner.
    convolutions_as_matmuls: bool = True


def _providers(options: EngineOptions) -> list[str | tuple[str, dict[str, str]]]:
    available = ort.get_available_providers()
    use_cuda = options.device == "cuda" or (options.device == "auto" and "CUDAExecutionProvider" in available)
    if not use_cuda:
        return ["CPUExecutionProvider"]
    if "CUDAExecutionProvider" not in available:
        raise RuntimeError(f"device 'cuda' asked for, but this onnxruntime offers only {available}")
    if hasattr(ort, "preload_dlls"):
        ort.preload_dlls()  # CUDA and cuDNN come as nvidia-* wheels, not on the loader's path
    cuda = {"cudnn_conv_algo_search": options.cudnn_conv_algo_search, "do_copy_in_default_stream": "1"}
    return [("CUDAExecutionProvider", cuda), "CPUExecutionProvider"]


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


def _sleep_unless_stopped(call: Call, seconds: float) -> None:
    deadline = time.perf_counter() + seconds
    while (left := deadline - time.perf_counter()) > 0 and not call.stopped:
        time.sleep(min(left, 0.01))


class VoiceStyles:
    """Each voice's style vectors (one 256-vector per input length), a blend's mixed from its voices'
    (the weighted sum, ``kokoro_core.voices``) on first use and kept, the least recently used dropped
    past ``capacity``. Thread-safe: every engine worker asks for them."""

    def __init__(self, voices: Mapping[str, np.ndarray], capacity: int = BLEND_CACHE_SIZE) -> None:
        self._voices = dict(voices)
        self._blends: OrderedDict[str, np.ndarray] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()
        self.blends_mixed = 0  # blends mixed since start (a cached one is not mixed again)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._voices)

    def __getitem__(self, voice: str) -> np.ndarray:
        """The style vectors of a voice or a blend; raises ``kokoro_core.voices.VoiceError`` for neither."""
        if (style := self._voices.get(voice)) is not None:
            return style
        with self._lock:
            if (style := self._blends.get(voice)) is not None:
                self._blends.move_to_end(voice)
                return style
        blend = parse_voice(voice, self._voices)  # a canonical form (what the server passes) is found above
        if not blend.is_blend:
            return self._voices[blend.canonical]
        with self._lock:
            if (style := self._blends.get(blend.canonical)) is None:
                mixed = np.zeros(self._voices[blend.names[0]].shape, dtype=np.float64)
                for name, weight in zip(blend.names, blend.weights, strict=True):
                    mixed += weight * self._voices[name]
                style = mixed.astype(np.float32)
                style.flags.writeable = False  # shared by every call that uses the blend
                self._blends[blend.canonical] = style
                self.blends_mixed += 1
                while len(self._blends) > self._capacity:
                    self._blends.popitem(last=False)
            self._blends.move_to_end(blend.canonical)
            return style


class Engine(PrepareThenSpeak):
    """One loaded model and its voices."""

    def __init__(self, model_dir: Path, manifest: Manifest, options: EngineOptions = EngineOptions()) -> None:
        self.manifest = manifest
        self.model_dir = model_dir
        self.options = options
        session_options = ort.SessionOptions()
        session_options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session_options.intra_op_num_threads = options.threads_per_worker
        session_options.inter_op_num_threads = 1
        model = onnx.load(str(model_dir / manifest.onnx))
        self._durations_output = expose_durations(model)
        providers = _providers(options)
        # On a CPU only: ONNX Runtime's u8 × s8 matrix kernels are its fast ones there (integer_conv.py).
        rewrite = options.convolutions_as_matmuls and providers == ["CPUExecutionProvider"]
        self.convolutions_as_matmuls = convolutions_as_matmuls(model) if rewrite else 0
        self._session = ort.InferenceSession(
            model.SerializeToString(), sess_options=session_options, providers=providers
        )
        self.providers = tuple(self._session.get_providers())
        if options.device == "cuda" and self.device != "cuda":
            raise RuntimeError(f"device 'cuda' asked for, but ONNX Runtime fell back to {self.providers}")
        self._dtypes = input_dtypes(self._session)
        self._tokens_input = "input_ids" if "input_ids" in self._dtypes else "tokens"
        self._tokenizer = Tokenizer(vocab=embedded_vocab(self._session) or DEFAULT_VOCAB)
        self._g2p = G2P(self._tokenizer.phonemize, frozenset(self._tokenizer.vocab))
        self.styles = VoiceStyles(
            {
                name: np.fromfile(model_dir / path, dtype=np.float32).reshape(-1, 1, STYLE_DIM)
                for name, path in sorted(voice_files(manifest.files, manifest.voices).items())
            }
        )
        self._stopping = Interruption()
        self._counter_lock = threading.Lock()
        self.interrupted_calls = 0  # inference calls an interruption stopped (or refused), since start
        # The slowdown rehearses a slower machine's requests: the engine's own start (this measurement and the
        # warm-up, before any request) runs at full speed.
        self._slowed = False
        self._samples_per_frame = self._measure_frame()
        self._slowed = True

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

    def phonemize(self, text: str, voice: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON) -> str:
        """The phonemes ``voice`` says for ``text``; with ``normalized``, amounts, dates and the like in words first.

        ``lexicon`` entries go first: respellings are read as text, phonemes are taken as written.
        """
        language = language_of(voice)
        phonemes = said_phonemes(text, language, self._g2p, normalized, lexicon)
        if not phonemes.strip(" .,;:!?—…\"'()"):
            raise NothingToSpeak(f"nothing speakable in {text[:40]!r} for voice {voice!r} ({language})")
        return phonemes

    def prepare(self, text: str, voice: str, normalized: bool = True, lexicon: Lexicon = NO_LEXICON) -> PreparedChunk:
        """One chunk's text work: its phonemes cut into the pieces each inference call takes, their token
        ids, and where each written word falls among the phoneme words. Any thread; raises ``NothingToSpeak``,
        or ``Interrupted`` once ``stop`` was called."""
        if self._stopping.interrupted:
            raise Interrupted("the engine is stopping")
        phonemes = " ".join(self.phonemize(text, voice, normalized, lexicon).split())
        pieces = tuple(
            (piece, tuple(tokens))
            for piece in split_phonemes(phonemes, MAX_PHONEME_LENGTH)
            if (tokens := self._tokenizer.tokenize(piece))
        )
        if not pieces:
            raise NothingToSpeak(f"nothing speakable in {text[:40]!r} for voice {voice!r}")
        language = language_of(voice)
        words = written_words(text, VoiceReading(language, normalized, lexicon))
        alone = partial(phonemes_alone, g2p=partial(self._g2p, language=language))
        return PreparedChunk(text, voice, phonemes, pieces, place_words(words, phonemes.split(), alone))

    def speak(self, chunk: PreparedChunk, speed: float = 1.0, interruption: Interruption | None = None) -> Speech:
        """Audio for a prepared chunk (float32 mono at 24 kHz, silence trimmed, faded in and out) and when
        each of its written words is heard: the model's work and a little arithmetic, no text work.

        Raises ``Interrupted`` if ``interruption`` (or ``stop``) stops the call before it finishes.
        """
        style = self.styles[chunk.voice]
        pieces: list[np.ndarray] = []
        spans: list[Span] = []
        sounds: list[tuple[str, Span]] = []
        offset = 0
        for phoneme_piece, tokens in chunk.pieces:
            audio, frames = self._infer(list(tokens), style[min(len(tokens), len(style)) - 1], speed, interruption)
            piece_spans = phoneme_word_spans(phoneme_piece, frames, self._samples_per_frame, self._is_token)
            spans.extend((start + offset, end + offset) for start, end in piece_spans)
            piece_sounds = phoneme_spans(phoneme_piece, frames, self._samples_per_frame, self._is_token)
            sounds.extend((phoneme, (start + offset, end + offset)) for phoneme, (start, end) in piece_sounds)
            pieces.append(audio)
            offset += len(audio)
        whole = np.concatenate(pieces)
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

    def _infer(
        self, tokens: list[int], style: np.ndarray, speed: float, interruption: Interruption | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The audio, and each token's length in frames (the padding token at each end included)."""
        inputs = {
            self._tokens_input: np.array([[0, *tokens, 0]], dtype=self._dtypes[self._tokens_input]),
            "style": np.asarray(style, dtype=self._dtypes["style"]),
            "speed": np.array([speed], dtype=self._dtypes["speed"]),
        }
        with self._interruptible(interruption) as call:
            run = ort.RunOptions()
            call.on_stop(lambda: setattr(run, "terminate", True))  # checked between graph nodes
            started = time.perf_counter()
            audio, frames = self._session.run(["audio", self._durations_output], inputs, run)
            if self._slowed and self.options.slowdown > 1:
                _sleep_unless_stopped(call, (self.options.slowdown - 1) * (time.perf_counter() - started))
        return np.asarray(audio, dtype=np.float32).ravel(), np.asarray(frames, dtype=np.int64).ravel()

    def _measure_frame(self) -> int:
        """Samples per duration frame, from one short inference; refuses a model whose durations do not
        add up to its audio (word times would drift)."""
        tokens = self._tokenizer.tokenize(self._tokenizer.phonemize("Ready.", "en-us"))
        style = self.styles[self.default_voice][len(tokens) - 1]
        audio, frames = self._infer(tokens, style, 1.0, None)
        if len(frames) != len(tokens) + 2 or not frames.sum() or len(audio) % int(frames.sum()):
            raise NoDurations(
                f"the model's {self._durations_output!r} output ({len(frames)} values, {int(frames.sum())} frames) "
                f"does not match its {len(tokens) + 2} tokens and {len(audio)} samples of audio"
            )
        return len(audio) // int(frames.sum())

    @contextmanager
    def _interruptible(self, interruption: Interruption | None) -> Iterator[Call]:
        """A call that ``stop`` and ``interruption`` can stop; a stopped call raises ``Interrupted``."""
        try:
            with interruptible(self._stopping, interruption) as call:
                yield call
        except Interrupted:
            with self._counter_lock:
                self.interrupted_calls += 1
            raise

    def warm_up(self) -> float:
        """Run two input lengths once so the first request pays no first-call costs; return seconds."""
        started = time.perf_counter()
        voice = self.manifest.default_voice
        self._slowed = False
        try:
            for text in ("Ready.", "The engine is warming up."):
                self.synthesize(text, voice)
        finally:
            self._slowed = True
        return time.perf_counter() - started
