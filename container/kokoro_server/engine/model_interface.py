"""A Kokoro graph's inputs and outputs, found by what each one is rather than by its name.

Kokoro v1.0 exports agree on what goes in and out, not on what it is called: kokoro-onnx's graph takes
``tokens`` and gives ``audio``; onnx-community's takes ``input_ids`` and gives ``waveform``; other exports
take an int32 speed, or give the per-token durations as a second output (``duration``, ``pred_dur``). The
roles are read off the graph's types and shapes:

- **token ids**: the integer input of rank 2, ``[batch, tokens]``;
- **style**: the float input of rank 2 whose last axis is 256 (a voice's style vector);
- **speed**: the remaining input of rank 0 or 1, float or integer;
- **audio**: the float output (where there are several, the one named audio, waveform or wav);
- **durations**: an integer output, if the export has one; else the engine finds them inside the graph
  (``durations``).

An integer speed read only through a cast to float is made a float input, so that 1.1× is 1.1× and not 1×.
A graph that lacks a role, or has an input no role explains, is refused with what was found and what is
needed. Everything else in the engine feeds and reads the graph through this interface.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class ModelInterface:
    """The names of the graph's tensors, by role; ``durations`` only where the export gives them as an output."""

    tokens: str
    style: str
    speed: str
    audio: str
    durations: str | None = None
    lengths: str | None = None  # a batch-capable graph's item lengths
    speed_whole: bool = False  # the speed is an integer the graph uses as one: only whole speeds are possible
    speed_made_float: bool = False  # an integer speed the graph only casts to float, taken as a float
    # What each input is built as (numpy dtype names).
    tokens_dtype: str = "int64"
    style_dtype: str = "float32"
    speed_dtype: str = "float32"

    def describe(self) -> str:
        """One line for the log and ``model check``: which tensor plays which role."""
        speed = self.speed + (" (int, whole speeds only)" if self.speed_whole else "")
        speed += " (int in the export, fed as float)" if self.speed_made_float else ""
        durations = self.durations or "found in the graph"
        parts = [f"tokens={self.tokens}", f"style={self.style}", f"speed={speed}", f"audio={self.audio}"]
        parts.append(f"durations={durations}")
        if self.lengths:
            parts.append(f"lengths={self.lengths}")
        return ", ".join(parts)


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


def _is_style_shape(shape: list[int | str] | None) -> bool:
    return shape is not None and len(shape) == 2 and (shape[-1] == STYLE_DIM or isinstance(shape[-1], str))


def _one(graph: onnx.GraphProto, candidates: list[onnx.ValueInfoProto], role: str) -> onnx.ValueInfoProto:
    if len(candidates) != 1:
        found = ", ".join(value.name for value in candidates) or "none"
        raise _refuse(graph, f"expected one input that is the {role}, found {found}")
    return candidates[0]


def _speed_only_cast_to_float(graph: onnx.GraphProto, name: str) -> bool:
    readers = [node for node in graph.node if name in node.input]
    return bool(readers) and all(
        node.op_type == "Cast"
        and any(attribute.name == "to" and attribute.i == TensorProto.FLOAT for attribute in node.attribute)
        for node in readers
    )


def find_interface(model: onnx.ModelProto) -> ModelInterface:
    """``model``'s interface by role; an integer speed that is only cast to float becomes a float input (in
    place). Raises ``ModelInterfaceError`` naming what is missing or unexplained."""
    graph = model.graph
    inputs = _graph_inputs(graph)
    elem = {value.name: value.type.tensor_type.elem_type for value in [*inputs, *graph.output]}
    lengths = next((value for value in inputs if value.name == LENGTHS), None)
    tokens = _one(
        graph,
        [value for value in inputs if elem[value.name] in INTEGER_TYPES and _rank(value) == 2],
        "token ids (integer, rank 2)",
    )
    style = _one(
        graph,
        [value for value in inputs if elem[value.name] in FLOAT_TYPES and _is_style_shape(_shape(value))],
        f"style (float [1, {STYLE_DIM}])",
    )
    rest = [value for value in inputs if value.name not in {tokens.name, style.name, LENGTHS}]
    speed = _one(graph, [value for value in rest if (_rank(value) or 0) <= 1], "speed (rank 0 or 1)")
    unexplained = [value.name for value in rest if value is not speed]
    if unexplained:
        raise _refuse(graph, f"inputs {', '.join(unexplained)} are neither token ids, style nor speed")
    whole, made_float = False, False
    if elem[speed.name] in INTEGER_TYPES:
        if _speed_only_cast_to_float(graph, speed.name):
            speed.type.tensor_type.elem_type = TensorProto.FLOAT  # the Cast now turns float into float
            made_float = True
        else:
            whole = True
    floats = [value.name for value in graph.output if elem[value.name] in FLOAT_TYPES]
    if len(floats) > 1:
        floats = [name for name in floats if name.lower() in AUDIO_NAMES]
    if len(floats) != 1:
        raise _refuse(graph, "expected one float output that is the audio")
    integers = [value.name for value in graph.output if elem[value.name] in INTEGER_TYPES]
    durations = DURATIONS if lengths is not None and DURATIONS in integers else None
    if durations is None and integers:
        if len(integers) != 1:
            raise _refuse(graph, f"expected at most one integer output (the durations), found {', '.join(integers)}")
        durations = integers[0]
    return ModelInterface(
        tokens=tokens.name,
        style=style.name,
        speed=speed.name,
        audio=floats[0],
        durations=durations,
        lengths=lengths.name if lengths is not None else None,
        speed_whole=whole,
        speed_made_float=made_float,
        tokens_dtype=_dtype(tokens),
        style_dtype=_dtype(style),
        speed_dtype=_dtype(speed),
    )
