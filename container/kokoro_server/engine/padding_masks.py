"""Keeping a padded item's padding out of everything it reads.

An item shorter than its batch's longest ends in padding at every resolution, and three kinds of
operator would read it:
- a convolution, transposed convolution or resampling near the item's end reads past it: alone it
  reads zeros there (its padding), so its input is multiplied by the item's mask first;
- an instance norm averages over time (65 of them, in the AdaIN blocks, two means each): each ``ReduceMean``
  over time becomes a sum of the masked input divided by the item's own length at that resolution;
- an LSTM reads its sequence backwards from the end: it is told each item's length (``sequence_lens``).
A dynamic quantization's input is masked too, so its range is the item's own (``item_quantization``).

The STFT of the harmonic source pads each end by reflection: alone, an item's end reflects its own last
samples, so those few samples are gathered into place before the STFT pads the batch.
"""

from __future__ import annotations

from collections import Counter

import onnx
from onnx import TensorProto

from .graph_edit import GraphEdit, GraphEditError
from .time_axes import TimeAxis

MASKED_INPUTS = ("Conv", "ConvTranspose", "Resize", "DynamicQuantizeLinear")
LSTMS = ("LSTM", "DynamicQuantizeLSTM")


class Masks:
    """Each item's valid length and 0/1 mask at each resolution, made once per resolution and layout."""

    def __init__(self, edit: GraphEdit, lengths: str, frames: str) -> None:
        self._edit = edit
        self._base = {"tokens": lengths, "frames": frames}
        self._valid: dict[tuple[str, int, int], str] = {}
        self._masks: dict[tuple[object, ...], str] = {}

    def valid(self, axis: TimeAxis) -> str:
        """Each item's length at ``axis``'s resolution, [batch] int64."""
        key = (axis.level, axis.factor, axis.offset)
        if key not in self._valid:
            e, length = self._edit, self._base[axis.level]
            if axis.factor != 1:
                length = e.node("Mul", [length, e.const(axis.factor)])
            if axis.offset:
                length = e.node("Add", [length, e.const(axis.offset)])
            self._valid[key] = length
        return self._valid[key]

    def mask(self, tensor: str, axis: TimeAxis) -> str:
        """1 over each item's valid steps, 0 over its padding, shaped to broadcast against ``tensor`` (float)."""
        key = (axis.level, axis.factor, axis.offset, axis.rank, axis.batch, axis.time)
        if key not in self._masks:
            e = self._edit
            steps = e.node("Gather", [e.node("Shape", [tensor]), e.const(axis.time)])
            positions = e.node("Unsqueeze", [e.node("Range", [e.const(0), steps, e.const(1)]), e.const([0])])
            valid = e.node("Less", [positions, e.node("Unsqueeze", [self.valid(axis), e.const([1])])])  # [batch, time]
            if axis.time < axis.batch:
                valid = e.node("Transpose", [valid], perm=[1, 0])
            others = [k for k in range(axis.rank) if k not in (axis.batch, axis.time)]
            if others:
                valid = e.node("Unsqueeze", [valid, e.const(others)])
            self._masks[key] = e.node("Cast", [valid], to=TensorProto.FLOAT)
        return self._masks[key]

    def count(self, axis: TimeAxis) -> str:
        """Each item's valid length as a double shaped [batch, 1, ...] (to divide a sum over time by)."""
        shape = [1] * axis.rank
        shape[axis.batch] = -1
        e = self._edit
        return e.node("Reshape", [e.node("Cast", [self.valid(axis)], to=TensorProto.DOUBLE), e.const(shape)])


def _reduced_axes(edit: GraphEdit, node: onnx.NodeProto, rank: int) -> list[int]:
    if len(node.input) > 1 and node.input[1]:
        axes = edit.array(node.input[1])
        if axes is None:
            raise GraphEditError(f"{node.name}: its axes are computed, not constant")
        listed = [int(axis) for axis in axes.ravel()]
    else:
        listed = [list(attribute.ints) for attribute in node.attribute if attribute.name == "axes"][0]
    return sorted(axis % rank for axis in listed)


def _keeps_dims(node: onnx.NodeProto) -> bool:
    return all(attribute.i for attribute in node.attribute if attribute.name == "keepdims")


def mask_padding(edit: GraphEdit, axes: dict[str, TimeAxis], ranks: dict[str, int], masks: Masks) -> Counter[str]:
    """Apply every rule above to the graph; return how many operators each rule changed. ``axes`` and ``ranks``
    gain the masked inputs (a quantization reads them)."""
    changed: Counter[str] = Counter()
    for node in list(edit.graph.node):
        source = node.input[0] if node.input else ""
        axis = axes.get(source)
        if axis is None:
            if node.op_type in LSTMS:
                raise GraphEditError(f"{node.name}: no time axis measured for its input")
            continue
        if node.op_type in MASKED_INPUTS:
            masked = edit.node("Mul", [source, masks.mask(source, axis)])
            node.input[0] = masked
            axes[masked], ranks[masked] = axis, axis.rank
            changed[node.op_type] += 1
        elif node.op_type == "ReduceMean" and axis.time in _reduced_axes(edit, node, axis.rank):
            if _reduced_axes(edit, node, axis.rank) != [axis.time] or not _keeps_dims(node):
                raise GraphEditError(f"{node.name}: a mean over time and more, or without its dimensions")
            masked = edit.node("Cast", [edit.node("Mul", [source, masks.mask(source, axis)])], to=TensorProto.DOUBLE)
            mean = edit.node("Div", [edit.node("ReduceSum", [masked, node.input[1]]), masks.count(axis)])
            edit.rewire(node.output[0], edit.node("Cast", [mean], to=TensorProto.FLOAT))
            changed["ReduceMean"] += 1
        elif node.op_type in LSTMS:
            if (axis.time, axis.batch) != (0, 1):
                raise GraphEditError(f"{node.name}: its input is not [time, batch, features]")
            while len(node.input) < 5:
                node.input.append("")
            node.input[4] = edit.node("Cast", [masks.valid(axis)], to=TensorProto.INT32)
            changed["LSTM"] += 1
    edit.commit()
    return changed


def reflect_each_end(edit: GraphEdit, pad: onnx.NodeProto, axis: TimeAxis, masks: Masks) -> None:
    """Before ``pad`` (a reflection pad of [batch, 1, samples] on its last axis), put each item's reflection
    after its own end: position ``s`` past an item's ``n`` samples reads sample ``2(n - 1) - s``."""
    e = edit
    source = pad.input[0]
    steps = e.node("Gather", [e.node("Shape", [source]), e.const(axis.time)])
    valid = e.node("Unsqueeze", [masks.valid(axis), e.const([1])])  # [batch, 1]
    position = e.node("Unsqueeze", [e.node("Range", [e.const(0), steps, e.const(1)]), e.const([0])])  # [1, samples]
    mirrored = e.node("Sub", [e.node("Sub", [e.node("Mul", [valid, e.const(2)]), e.const(2)]), position])
    index = e.node("Where", [e.node("Less", [position, valid]), position, e.node("Max", [mirrored, e.const(0)])])
    pad.input[0] = e.node("GatherElements", [source, e.node("Unsqueeze", [index, e.const([1])])], axis=axis.time)
    edit.commit()
