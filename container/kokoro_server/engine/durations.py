"""Kokoro's per-token durations as a model output, so word times cost no extra inference.

Kokoro predicts how many frames each input token lasts before its decoder runs: the predictor's
output is divided by ``speed``, rounded, clipped to at least one frame, and its running sum
(``CumSum``) aligns tokens to frames. The exported graphs (the fp32 production export, its int8
and fp16 quantizations, and the float graph rebuilt from the int8 weights) keep only the audio as
an output, so this finds that tensor, the input of the ``CumSum`` fed from the ``Round``, and adds it
as an output at load time. An export that already gives them as an output (``model_interface``) is used
as it is. Where the frames are aligned some other way, the rounded durations cast to integers serve. A graph
with none of these cannot give word times, and loading it fails with ``NoDurations``.
"""

from __future__ import annotations

import onnx

from .model_interface import ModelInterface

# What may sit between the rounding and the running sum: clipping, casts, reshapes, batch selection.
_PASS_THROUGH = {"Clip", "Cast", "Gather", "Squeeze", "Unsqueeze", "Reshape", "Max"}
_MAX_HOPS = 6
_INTEGERS = {onnx.TensorProto.INT64, onnx.TensorProto.INT32}


class NoDurations(RuntimeError):
    """The model's graph has no per-token duration tensor to expose."""


def _from_rounding(name: str, producer: dict[str, onnx.NodeProto]) -> bool:
    for _ in range(_MAX_HOPS):
        node = producer.get(name)
        if node is None:
            return False
        if node.op_type == "Round":
            return True
        if node.op_type not in _PASS_THROUGH:
            return False
        name = node.input[0]
    return False


def _rounded_and_cast(graph: onnx.GraphProto) -> list[str]:
    """Each integer tensor that a ``Round`` becomes through clipping and a cast (``round(d).clamp(min=1).long()``,
    the durations as Kokoro's predictor gives them, whatever aligns them to frames afterwards)."""
    readers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    found = []
    for rounding in (node for node in graph.node if node.op_type == "Round"):
        name = rounding.output[0]
        for _ in range(_MAX_HOPS):
            following = readers.get(name, [])
            if len(following) != 1 or following[0].op_type not in ("Clip", "Max", "Cast"):
                break
            node = following[0]
            name = node.output[0]
            if node.op_type == "Cast" and any(a.name == "to" and a.i in _INTEGERS for a in node.attribute):
                found.append(name)
                break
    return found


def durations_tensor(graph: onnx.GraphProto) -> str:
    """The name of the per-token frame counts inside ``graph``: what feeds the running sum that aligns tokens to
    frames, else the rounded durations cast to integers; raises ``NoDurations`` if it has neither, or several."""
    producer = {name: node for node in graph.node for name in node.output}
    cumulative = (node for node in graph.node if node.op_type == "CumSum")
    found = [node.input[0] for node in cumulative if _from_rounding(node.input[0], producer)]
    if not found:
        found = _rounded_and_cast(graph)
    if len(found) != 1:
        raise NoDurations(
            f"expected one CumSum over rounded per-token durations, or one Round cast to integers, in the model's "
            f"graph, found {len(found)}; word times need a Kokoro export with its predicted durations, or one that "
            "gives them as an integer output"
        )
    return str(found[0])


def expose_durations(model: onnx.ModelProto, interface: ModelInterface) -> str:
    """The output holding ``model``'s per-token durations: the export's own, else the tensor inside the graph
    added to its outputs (in place)."""
    if interface.durations is not None:
        return interface.durations
    name = durations_tensor(model.graph)
    if name not in {output.name for output in model.graph.output}:
        model.graph.output.append(onnx.helper.make_empty_tensor_value_info(name))
    return name
