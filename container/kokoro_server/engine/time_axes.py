"""Where each tensor of a Kokoro graph keeps its batch and its time, measured rather than guessed.

A padded item's tensors are masked at every resolution the model works at: its tokens, its frames, and
the frame rate times 2, 20, 120 (plus one), 600... A tensor's resolution is read off its shapes in three
short runs of the graph: two of the same tokens at different speeds (the frame count changes, the token
count does not), then a batch of two with more tokens. A dimension that follows ``factor × tokens + offset``
or ``factor × frames + offset`` in all three runs is that tensor's time axis; the one that is 1, 1, then 2 is
its batch axis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper

from .model_interface import FRAMES, ModelInterface

Level = Literal["tokens", "frames"]
PROBE_TOKENS = (4, 4, 7)  # each run's token count (its two pads aside)
PROBE_SPEEDS = (2.0, 4.0, 3.0)  # fast speech: few frames, so the runs are short
PROBE_BATCH = (1, 1, 2)


@dataclass(frozen=True)
class TimeAxis:
    """A tensor's batch axis, its time axis, and its length: ``factor × length + offset`` of its level's."""

    rank: int
    batch: int
    time: int
    level: Level
    factor: int
    offset: int


def _line(level: Level, xs: list[int], values: list[int]) -> tuple[Level, int, int] | None:
    """``(level, factor, offset)`` if every value is ``factor × x + offset`` for a whole factor of 1 or more."""
    pairs = [(a, b) for a in range(len(xs)) for b in range(len(xs)) if xs[a] < xs[b]]
    if not pairs:
        return None
    a, b = pairs[0]
    factor, rest = divmod(values[b] - values[a], xs[b] - xs[a])
    offset = values[a] - factor * xs[a]
    if rest or factor < 1 or any(factor * x + offset != value for x, value in zip(xs, values, strict=True)):
        return None
    return level, factor, offset


def measure(
    model: onnx.ModelProto, interface: ModelInterface, names: list[str], styles: np.ndarray
) -> tuple[dict[str, TimeAxis], dict[str, int]]:
    """The time axis of each of ``names`` that has one (and a batch axis), and every one's rank, from three runs
    of ``model``.

    ``model`` is batch-capable (its inputs are ``interface``'s and ``lengths``, and its ``frames`` output
    holds each item's frame count); ``styles`` is a voice's style table ([lengths, 256]).
    """
    probed = onnx.ModelProto()
    probed.CopyFrom(model)
    listed = {output.name for output in probed.graph.output}
    probed.graph.output.extend(helper.make_empty_tensor_value_info(name) for name in names if name not in listed)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC  # outputs are kept as they are
    session = ort.InferenceSession(probed.SerializeToString(), options, providers=["CPUExecutionProvider"])
    wanted = [FRAMES, *names]
    tokens = [int(token) for token in np.random.default_rng(0).integers(16, 150, max(PROBE_TOKENS))]
    runs: list[tuple[int, int, dict[str, tuple[int, ...]]]] = []
    for count, speed, batch in zip(PROBE_TOKENS, PROBE_SPEEDS, PROBE_BATCH, strict=True):
        feed = interface.feed_batch([(tokens[:count], styles[count], speed)] * batch)
        values = session.run(wanted, feed)
        runs.append(
            (count + 2, int(values[0][0]), {name: np.shape(value) for name, value in zip(wanted, values, strict=True)})
        )
    axes: dict[str, TimeAxis] = {}
    ranks = {name: len(runs[0][2][name]) for name in names}
    token_counts, frame_counts = [run[0] for run in runs], [run[1] for run in runs]
    for name in names:
        shapes = [run[2][name] for run in runs]
        if len({len(shape) for shape in shapes}) != 1:
            continue
        rank = len(shapes[0])
        batch_axes = [k for k in range(rank) if [shape[k] for shape in shapes] == [1, 1, 2]]
        if len(batch_axes) != 1:
            continue
        for k in range(rank):
            values = [shape[k] for shape in shapes]
            if k == batch_axes[0] or len(set(values)) == 1:
                continue
            fits = [
                fit
                for level, xs in (("tokens", token_counts), ("frames", frame_counts))
                if (fit := _line(level, xs, values))  # type: ignore[arg-type]
            ]
            if len(fits) == 1:
                level, factor, offset = fits[0]
                axes[name] = TimeAxis(rank, batch_axes[0], k, level, factor, offset)
            break  # the first axis that varies is time (an attention map has two)
    return axes, ranks
