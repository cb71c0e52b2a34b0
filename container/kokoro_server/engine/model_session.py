"""The Kokoro graph in an ONNX Runtime session, as the device and the batch size it runs at want it.

The graph's inputs and outputs are found by role (``model_interface``), whatever the export names them. At
one chunk per call the export runs as it is, with its per-token durations added as an output (``durations``)
and, on a CPU, its convolutions as u8 × s8 matrix products (``integer_conv``). To speak a batch it is first
rewritten to take one (``batch_graph``), and every call runs that graph, so an item's audio does not depend
on whether it had company.

A run can be stopped part-way (``Call``): ONNX Runtime checks its ``terminate`` flag between graph nodes.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from kokoro_onnx.session import embedded_vocab

from kokoro_server.settings import CudnnAlgoSearch, Device

from .batch_graph import BatchGraph, batch_capable, is_batch_capable
from .durations import expose_durations
from .integer_conv import convolutions_as_matmuls
from .model_interface import FRAMES, ModelInterface, feed_speed_as_float, find_interface
from .speech_engine import Call


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
    # The most chunks one call speaks; above 1 the graph is rewritten to take a batch (batch_graph.py).
    max_batch: int = 1


@dataclass(frozen=True)
class ModelInput:
    """One item of a run: its token ids (without the pad at each end), its style vector and its speed."""

    tokens: tuple[int, ...]
    style: np.ndarray
    speed: float


def providers_for(options: EngineOptions) -> list[str | tuple[str, dict[str, str]]]:
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


def _sleep_unless_stopped(call: Call, seconds: float) -> None:
    deadline = time.perf_counter() + seconds
    while (left := deadline - time.perf_counter()) > 0 and not call.stopped:
        time.sleep(min(left, 0.01))


class ModelSession:
    """The loaded graph; ``run`` is thread-safe (ONNX Runtime runs one session concurrently)."""

    def __init__(self, path: Path, options: EngineOptions, styles: np.ndarray) -> None:
        """``styles``: a voice's style table, for the short runs that measure a graph being made batch-capable."""
        self.options = options
        model = onnx.load(str(path))
        self.interface: ModelInterface = feed_speed_as_float(model, find_interface(model))
        providers = providers_for(options)
        self.batch: BatchGraph | None = None
        if options.max_batch > 1 and not is_batch_capable(model):
            self.batch = batch_capable(model, self.interface, styles)
            # With the batch's lengths and durations; its speed fed as the export's was.
            self.interface = replace(find_interface(model), speed_feed=self.interface.speed_feed)
        self.batched = is_batch_capable(model)
        self._durations = expose_durations(model, self.interface)
        # On a CPU only: ONNX Runtime's u8 × s8 matrix kernels are its fast ones there (integer_conv.py).
        rewrite = options.convolutions_as_matmuls and providers == ["CPUExecutionProvider"]
        self.convolutions_as_matmuls = convolutions_as_matmuls(model) if rewrite else 0
        session_options = ort.SessionOptions()
        session_options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session_options.intra_op_num_threads = options.threads_per_worker
        session_options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(
            model.SerializeToString(), sess_options=session_options, providers=providers
        )
        self.providers = tuple(self._session.get_providers())
        self._slowed = True  # the engine's own work runs at ``full_speed``

    @property
    def vocab(self) -> dict[str, int] | None:
        """The token vocabulary the model carries in its metadata, if it does."""
        vocab: dict[str, int] | None = embedded_vocab(self._session)
        return vocab

    @contextmanager
    def full_speed(self) -> Iterator[None]:
        """Without the rehearsed slowdown (``EngineOptions.slowdown``), which is for requests: the engine's own
        work (measuring, warming up, checking a batch) runs as fast as it can."""
        self._slowed = False
        try:
            yield
        finally:
            self._slowed = True

    def run(self, inputs: list[ModelInput], call: Call) -> list[tuple[np.ndarray, np.ndarray]]:
        """Each input's audio and each of its tokens' length in frames (the pad at each end included): in one
        call on a batch-capable graph, else one call per input. Stops when ``call`` does."""
        run_options = ort.RunOptions()
        call.on_stop(lambda: setattr(run_options, "terminate", True))  # checked between graph nodes
        started = time.perf_counter()
        if self.batched:
            outputs = self._run_batch(inputs, run_options)
        else:
            outputs = [self._run_one(item, run_options) for item in inputs]
        if self._slowed and self.options.slowdown > 1:
            _sleep_unless_stopped(call, (self.options.slowdown - 1) * (time.perf_counter() - started))
        return outputs

    def _run_one(self, item: ModelInput, run_options: ort.RunOptions) -> tuple[np.ndarray, np.ndarray]:
        feed = self.interface.feed_one(item.tokens, item.style, item.speed)
        audio, frames = self._session.run([self.interface.audio, self._durations], feed, run_options)
        return np.asarray(audio, dtype=np.float32).ravel(), np.asarray(frames, dtype=np.int64).ravel()

    def _run_batch(self, inputs: list[ModelInput], run_options: ort.RunOptions) -> list[tuple[np.ndarray, np.ndarray]]:
        feed = self.interface.feed_batch([(item.tokens, item.style, item.speed) for item in inputs])
        outputs = [self.interface.audio, self._durations, FRAMES]
        audio, durations, frames = self._session.run(outputs, feed, run_options)
        per_frame = len(audio[0]) // max(1, int(np.max(frames)))
        return [
            (
                np.asarray(audio[row, : int(frames[row]) * per_frame], dtype=np.float32),
                np.asarray(durations[row, : len(item.tokens) + 2], dtype=np.int64),
            )
            for row, item in enumerate(inputs)
        ]
