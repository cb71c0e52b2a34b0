"""A Kokoro graph's inputs and outputs, found by what each one is rather than by its name.

Kokoro v1.0 exports agree on what goes in and out, not on what it is called: kokoro-onnx's graph takes
``tokens`` and gives ``audio``; onnx-community's takes ``input_ids`` and gives ``waveform``; other exports
take an int32 speed, or give the per-token durations as a second output (``duration``, ``pred_dur``). The
roles are read off the graph's types and shapes:

- **token ids**: the integer input of rank 2, ``[batch, tokens]``;
- **style**: the float input whose last axis is 256 (a voice's style vector, ``[1, 256]`` or ``[256]``);
- **speed**: the remaining input of rank 0 or 1, float or integer;
  (an input whose shape the graph does not declare may play any role its type allows, where that is one);
- **audio**: the float output (where there are several, the one named audio, waveform or wav);
- **durations**: an integer output, if the export has one; else the engine finds them inside the graph
  (``durations``).

An integer speed the graph only casts to a float (``speed_feed`` "cast") can be fed as a float
(``feed_speed_as_float``), so that 1.1× is 1.1× and not 1×; one the graph uses as an integer gets whole
speeds. A graph that lacks a role, or has an input no role explains, is refused with what was found and what
is needed. Everything else in the engine feeds and reads the graph through this interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import onnx
from onnx import TensorProto, helper

from .voice_styles import STYLE_DIM

# The tensors a graph made batch-capable (batch_graph) adds: its items' lengths in, their durations and
# frame counts out.
LENGTHS, DURATIONS, FRAMES = "lengths", "durations", "frames"
AUDIO_NAMES = ("audio", "waveform", "wav")  # only to choose among several float outputs
INTEGER_TYPES = {TensorProto.INT64, TensorProto.INT32}
FLOAT_TYPES = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE}
NEEDED = (
    "token ids (an int64 or int32 input [1, tokens]), a style (a float input [1, 256]), a speed (an input [1], "
    "float or integer), the audio (a float output) and per-token durations (an integer output, or a CumSum "
    "over rounded durations inside the graph)"
)


class ModelInterfaceError(ValueError):
    """The graph's inputs and outputs are not those of a Kokoro export this engine can speak with."""


# How the speed is fed: a float; an integer the graph only casts to a float (fed as a float once
# ``feed_speed_as_float`` has made the input one); an integer the graph uses as one (whole speeds only).
SpeedFeed = Literal["float", "cast", "whole"]


@dataclass(frozen=True)
class ModelInterface:
    """The names of the graph's tensors, by role; ``durations`` only where the export gives them as an output."""

    tokens: str
    style: str
    speed: str
    audio: str
    durations: str | None = None
    lengths: str | None = None  # a batch-capable graph's item lengths
    speed_feed: SpeedFeed = "float"
    # What each input is built as (numpy dtype names), and the ranks of style and speed.
    tokens_dtype: str = "int64"
    style_dtype: str = "float32"
    speed_dtype: str = "float32"
    style_rank: int = 2
    speed_rank: int = 1

    def describe(self) -> str:
        """One line for the log and ``model check``: which tensor plays which role."""
        speed = self.speed + _SPEED_NOTES[self.speed_feed]
        parts = [f"tokens={self.tokens}", f"style={self.style}", f"speed={speed}", f"audio={self.audio}"]
        parts.append(f"durations={self.durations or 'found in the graph'}")
        if self.lengths:
            parts.append(f"lengths={self.lengths}")
        return ", ".join(parts)

    def speeds(self, values: list[float]) -> list[float]:
        """``values`` as this graph takes them: the nearest whole speed (at least 1) where it takes only those."""
        if self.speed_feed != "whole":
            return values
        return [max(1.0, float(int(value + 0.5))) for value in values]

    def feed_one(self, tokens: Sequence[int], style: np.ndarray, speed: float) -> dict[str, np.ndarray]:
        """What the export takes to speak ``tokens`` (without the pad at each end) alone."""
        return {
            self.tokens: np.array([[0, *tokens, 0]], dtype=self.tokens_dtype),
            self.style: np.asarray(style, dtype=self.style_dtype).reshape([1] * (self.style_rank - 1) + [-1]),
            self.speed: np.array(self.speeds([speed]), dtype=self.speed_dtype).reshape([1] * self.speed_rank),
        }

    def feed_batch(self, items: Sequence[tuple[Sequence[int], np.ndarray, float]]) -> dict[str, np.ndarray]:
        """What a batch-capable graph takes to speak ``items`` (tokens without their pads, style, speed) at once:
        each item's tokens padded with the pad token (0) to the longest, and its length."""
        longest = max(len(tokens) for tokens, _, _ in items) + 2
        padded = np.zeros((len(items), longest), dtype=self.tokens_dtype)
        for row, (tokens, _, _) in enumerate(items):
            padded[row, 1 : len(tokens) + 1] = tokens
        return {
            self.tokens: padded,
            LENGTHS: np.array([len(tokens) + 2 for tokens, _, _ in items], dtype=np.int64),
            self.style: np.stack([np.asarray(style, dtype=self.style_dtype).ravel() for _, style, _ in items]),
            self.speed: np.array(self.speeds([speed for _, _, speed in items]), dtype=self.speed_dtype),
        }


_SPEED_NOTES: dict[SpeedFeed, str] = {
    "float": "",
    "cast": " (int in the export, fed as float)",
    "whole": " (int, whole speeds only)",
}


def _type_name(elem_type: int) -> str:
    return str(TensorProto.DataType.Name(elem_type)).lower()


def _dtype(value: onnx.ValueInfoProto) -> str:
    return str(np.dtype(helper.tensor_dtype_to_np_dtype(value.type.tensor_type.elem_type)))


def _shape(value: onnx.ValueInfoProto) -> list[int | str] | None:
    tensor = value.type.tensor_type
    if not tensor.HasField("shape"):
        return None
    return [dim.dim_value if dim.HasField("dim_value") else (dim.dim_param or "?") for dim in tensor.shape.dim]


def _shown(value: onnx.ValueInfoProto) -> str:
    shape = _shape(value)
    dims = "?" if shape is None else "[" + ", ".join(str(dim) for dim in shape) + "]"
    return f"{value.name} ({_type_name(value.type.tensor_type.elem_type)} {dims})"


def _found(graph: onnx.GraphProto) -> str:
    inputs = ", ".join(_shown(value) for value in _graph_inputs(graph)) or "none"
    outputs = ", ".join(_shown(value) for value in graph.output) or "none"
    return f"inputs {inputs}; outputs {outputs}"


def _refuse(graph: onnx.GraphProto, problem: str) -> ModelInterfaceError:
    return ModelInterfaceError(f"{problem}. The graph has {_found(graph)}. The server needs {NEEDED}")


def _graph_inputs(graph: onnx.GraphProto) -> list[onnx.ValueInfoProto]:
    """The inputs a caller feeds (older exports also list their weights among the inputs)."""
    weights = {tensor.name for tensor in graph.initializer}
    return [value for value in graph.input if value.name not in weights]


def _rank(value: onnx.ValueInfoProto) -> int | None:
    shape = _shape(value)
    return None if shape is None else len(shape)


def _is_tokens(value: onnx.ValueInfoProto, elem: int) -> bool:
    return elem in INTEGER_TYPES and _rank(value) in (2, None)


def _is_style(value: onnx.ValueInfoProto, elem: int) -> bool:
    shape = _shape(value)
    return elem in FLOAT_TYPES and (shape is None or (1 <= len(shape) <= 3 and shape[-1] == STYLE_DIM))


def _one(
    graph: onnx.GraphProto, candidates: list[onnx.ValueInfoProto], role: str, declared: bool = True
) -> onnx.ValueInfoProto:
    """The one candidate for ``role``; with ``declared``, one whose shape is declared wins over those without."""
    if declared and len(candidates) > 1:
        candidates = [value for value in candidates if _rank(value) is not None] or candidates
    if len(candidates) != 1:
        found = ", ".join(value.name for value in candidates) or "none"
        raise _refuse(graph, f"expected one input that is the {role}, found {found}")
    return candidates[0]


def _subgraph_names(graph: onnx.GraphProto) -> set[str]:
    """Every tensor name a node inside one of ``graph``'s subgraphs (If, Loop, Scan bodies) reads."""
    names: set[str] = set()
    for node in graph.node:
        for attribute in node.attribute:
            for body in [attribute.g] if attribute.HasField("g") else list(attribute.graphs):
                names.update(name for inner in body.node for name in inner.input)
                names |= _subgraph_names(body)
    return names


def _only_cast_to_float(graph: onnx.GraphProto, name: str) -> bool:
    readers = [node for node in graph.node if name in node.input]
    return (
        bool(readers)
        and name not in _subgraph_names(graph)
        and all(
            node.op_type == "Cast"
            and any(attribute.name == "to" and attribute.i in FLOAT_TYPES for attribute in node.attribute)
            for node in readers
        )
    )


def _audio(graph: onnx.GraphProto, elem: dict[str, int]) -> str:
    floats = [value.name for value in graph.output if elem[value.name] in FLOAT_TYPES]
    if len(floats) > 1:
        floats = [name for name in floats if name.lower() in AUDIO_NAMES]
    if len(floats) != 1:
        raise _refuse(graph, "expected one float output that is the audio")
    return floats[0]


def _durations(graph: onnx.GraphProto, elem: dict[str, int], batch_capable: bool) -> str | None:
    integers = [value.name for value in graph.output if elem[value.name] in INTEGER_TYPES]
    if batch_capable and DURATIONS in integers:
        return DURATIONS
    if len(integers) > 1:
        raise _refuse(graph, f"expected at most one integer output (the durations), found {', '.join(integers)}")
    return integers[0] if integers else None


def find_interface(model: onnx.ModelProto) -> ModelInterface:
    """``model``'s interface by role. Raises ``ModelInterfaceError`` naming what is missing or unexplained."""
    graph = model.graph
    inputs = _graph_inputs(graph)
    elem = {value.name: value.type.tensor_type.elem_type for value in [*inputs, *graph.output]}
    lengths = next((value for value in inputs if value.name == LENGTHS), None)
    others = [value for value in inputs if value is not lengths]
    tokens = _one(graph, [v for v in others if _is_tokens(v, elem[v.name])], "token ids (integer [1, tokens])")
    style = _one(graph, [v for v in others if _is_style(v, elem[v.name])], f"style (float [1, {STYLE_DIM}])")
    rest = [value for value in others if value.name not in {tokens.name, style.name}]
    speed = _one(graph, [value for value in rest if (_rank(value) or 0) <= 1], "speed (rank 0 or 1)", declared=False)
    unexplained = [value.name for value in rest if value is not speed]
    if unexplained:
        raise _refuse(graph, f"inputs {', '.join(unexplained)} are neither token ids, style nor speed")
    feed: SpeedFeed = "float"
    speed_rank = _rank(speed)
    if elem[speed.name] in INTEGER_TYPES:
        feed = "cast" if _only_cast_to_float(graph, speed.name) else "whole"
    return ModelInterface(
        tokens=tokens.name,
        style=style.name,
        speed=speed.name,
        audio=_audio(graph, elem),
        durations=_durations(graph, elem, lengths is not None),
        lengths=lengths.name if lengths is not None else None,
        speed_feed=feed,
        tokens_dtype=_dtype(tokens),
        style_dtype=_dtype(style),
        speed_dtype=_dtype(speed),
        style_rank=_rank(style) or 2,
        speed_rank=1 if speed_rank is None else speed_rank,
    )


def feed_speed_as_float(model: onnx.ModelProto, interface: ModelInterface) -> ModelInterface:
    """Where the graph only casts its integer speed to a float, make the speed a float input (in place: each
    cast then turns a float into a float), so that fractional speeds reach it; ``interface`` fed so."""
    if interface.speed_feed != "cast":
        return interface
    for value in model.graph.input:
        if value.name == interface.speed:
            value.type.tensor_type.elem_type = TensorProto.FLOAT
    return replace(interface, speed_dtype="float32")
