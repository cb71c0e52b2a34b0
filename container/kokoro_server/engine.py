"""The Kokoro-82M engine (a ``speech_engine.SpeechEngine``): text → phonemes (espeak-ng) → token ids →
ONNX Runtime → audio.

Thread-safe: the scheduler calls ``synthesize`` from several worker threads at once. ONNX
Runtime runs one session concurrently and releases the GIL while it computes; espeak-ng is
process-global state, so kokoro-onnx's tokenizer serialises phonemization behind a lock.

An inference call can be stopped part-way (``Interruption``): a long chunk on a CPU takes many
seconds, and neither a canceled utterance nor a server past its drain deadline should wait for it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import onnxruntime as ort
from kokoro_onnx.chunker import split_phonemes
from kokoro_onnx.config import DEFAULT_VOCAB, MAX_PHONEME_LENGTH
from kokoro_onnx.session import embedded_vocab, input_dtypes
from kokoro_onnx.tokenizer import Tokenizer

from kokoro_core.lexicon import NO_LEXICON, Lexicon
from kokoro_core.model_cache import SAMPLE_RATE, Manifest, voice_files

from .speech_engine import Interrupted, Interruption, NothingToSpeak, RunsOn, interruptible
from .text import language_of, said_phonemes

# phonemizer warns on every input whose word count changes in G2P ("$5" → "five dollars").
logging.getLogger("phonemizer").setLevel(logging.ERROR)

STYLE_DIM = 256
FADE_SECONDS = 0.004
# Kokoro pads each output with about 0.3 s of silence before and 0.45 s after the speech. Keep a
# little of each: less delay before the first sound, natural pauses between chunks.
SILENCE_LEVEL = 0.003
KEEP_LEADING_SECONDS = 0.06
KEEP_TRAILING_SECONDS = 0.2
CudnnAlgoSearch = Literal["HEURISTIC", "DEFAULT", "EXHAUSTIVE"]
Device = Literal["auto", "cuda", "cpu"]


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


def _trim(audio: np.ndarray) -> np.ndarray:
    loud = np.flatnonzero(np.abs(audio) > SILENCE_LEVEL)
    if not loud.size:
        return audio
    start = max(0, int(loud[0]) - int(SAMPLE_RATE * KEEP_LEADING_SECONDS))
    end = min(len(audio), int(loud[-1]) + 1 + int(SAMPLE_RATE * KEEP_TRAILING_SECONDS))
    return audio[start:end]


def _fade(audio: np.ndarray) -> np.ndarray:
    """Raise the edges from and to silence so consecutive chunks join without a click."""
    n = min(int(SAMPLE_RATE * FADE_SECONDS), len(audio) // 2)
    if n:
        ramp = np.sin(np.linspace(0.0, np.pi / 2, n, dtype=np.float32)) ** 2
        audio[:n] *= ramp
        audio[-n:] *= ramp[::-1]
    return audio


def _sleep_unless_terminated(run: ort.RunOptions, seconds: float) -> None:
    deadline = time.perf_counter() + seconds
    while (left := deadline - time.perf_counter()) > 0 and not run.terminate:
        time.sleep(min(left, 0.01))


class Engine:
    """One loaded model and its voices."""

    def __init__(self, model_dir: Path, manifest: Manifest, options: EngineOptions = EngineOptions()) -> None:
        self.manifest = manifest
        self.model_dir = model_dir
        self.options = options
        session_options = ort.SessionOptions()
        session_options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session_options.intra_op_num_threads = options.threads_per_worker
        session_options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(
            str(model_dir / manifest.onnx), sess_options=session_options, providers=_providers(options)
        )
        self.providers = tuple(self._session.get_providers())
        if options.device == "cuda" and self.device != "cuda":
            raise RuntimeError(f"device 'cuda' asked for, but ONNX Runtime fell back to {self.providers}")
        self._dtypes = input_dtypes(self._session)
        self._tokens_input = "input_ids" if "input_ids" in self._dtypes else "tokens"
        self._tokenizer = Tokenizer(vocab=embedded_vocab(self._session) or DEFAULT_VOCAB)
        self._voices = {
            name: np.fromfile(model_dir / path, dtype=np.float32).reshape(-1, 1, STYLE_DIM)
            for name, path in sorted(voice_files(manifest.files, manifest.voices).items())
        }
        self._stopping = Interruption()
        self._counter_lock = threading.Lock()
        self.interrupted_calls = 0  # inference calls an interruption stopped (or refused), since start

    @property
    def voices(self) -> tuple[str, ...]:
        return tuple(self._voices)

    @property
    def phoneme_symbols(self) -> frozenset[str]:
        """The phoneme symbols the model reads (a lexicon's phonemes must use only these)."""
        return frozenset(self._tokenizer.vocab)

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
        phonemes = said_phonemes(text, language, self._tokenizer.phonemize, normalized, lexicon)
        if not phonemes.strip(" .,;:!?—…\"'()"):
            raise NothingToSpeak(f"nothing speakable in {text[:40]!r} for voice {voice!r} ({language})")
        return phonemes

    def synthesize(
        self,
        text: str,
        voice: str,
        speed: float = 1.0,
        interruption: Interruption | None = None,
        normalized: bool = True,
        lexicon: Lexicon = NO_LEXICON,
    ) -> np.ndarray:
        """Audio for one chunk of text: float32 mono at 24 kHz, silence trimmed, faded in and out.

        Raises ``Interrupted`` if ``interruption`` (or ``stop``) stops the call before it finishes.
        """
        style = self._voices[voice]
        pieces = []
        for phonemes in split_phonemes(
            " ".join(self.phonemize(text, voice, normalized, lexicon).split()), MAX_PHONEME_LENGTH
        ):
            tokens = self._tokenizer.tokenize(phonemes)
            if tokens:
                pieces.append(self._infer(tokens, style[min(len(tokens), len(style)) - 1], speed, interruption))
        if not pieces:
            raise NothingToSpeak(f"nothing speakable in {text[:40]!r} for voice {voice!r}")
        return _fade(_trim(np.concatenate(pieces)))

    def stop(self) -> int:
        """Stop every inference call in flight and refuse new ones; return how many were in flight."""
        return self._stopping.interrupt()

    def _infer(
        self, tokens: list[int], style: np.ndarray, speed: float, interruption: Interruption | None
    ) -> np.ndarray:
        inputs = {
            self._tokens_input: np.array([[0, *tokens, 0]], dtype=self._dtypes[self._tokens_input]),
            "style": np.asarray(style, dtype=self._dtypes["style"]),
            "speed": np.array([speed], dtype=self._dtypes["speed"]),
        }
        with self._interruptible(interruption) as run:
            started = time.perf_counter()
            outputs = self._session.run(None, inputs, run)
            if self.options.slowdown > 1:
                _sleep_unless_terminated(run, (self.options.slowdown - 1) * (time.perf_counter() - started))
        return np.asarray(outputs[0], dtype=np.float32).ravel()

    @contextmanager
    def _interruptible(self, interruption: Interruption | None) -> Iterator[ort.RunOptions]:
        """Run options that ``stop`` and ``interruption`` can terminate; a terminated call raises ``Interrupted``."""
        try:
            with interruptible(self._stopping, interruption) as run:
                yield run
        except Interrupted:
            with self._counter_lock:
                self.interrupted_calls += 1
            raise

    def warm_up(self) -> float:
        """Run two input lengths once so the first request pays no first-call costs; return seconds."""
        started = time.perf_counter()
        voice = self.manifest.default_voice
        for text in ("Ready.", "The engine is warming up."):
            self.synthesize(text, voice)
        return time.perf_counter() - started
