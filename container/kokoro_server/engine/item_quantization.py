"""The int8 graph's dynamic quantization, taken per item: an item's integers are those it gets alone.

Each ``DynamicQuantizeLinear`` takes one scale and zero point from its whole input, so in a batch the
loudest item would set everyone's precision. Here each item's are its own, computed as ONNX Runtime does
(the range widened to hold 0; the zero point rounded half to even; each value divided, rounded, offset
and clamped). An item's padding is masked to 0 first (``padding_masks``), which its range holds anyway.

ONNX Runtime's integer kernels take a single zero point for the quantized input, so they run with 0 and
subtract each item's own afterwards, exactly, in int32: ``Σ (q - z)·w = Σ q·w - z·Σ w``. For a matrix
product ``Σ w`` is a column sum of the weights; for a convolution it counts only the taps inside the
input (the export pads with the zero point, whose term is 0), which a float convolution of ones over
the per-tap weight sums gives. The integer bias, quantized with the input's scale, becomes one per item.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from .graph_edit import GraphEdit, GraphEditError
from .time_axes import TimeAxis

QMAX = 255.0  # uint8


def _float(edit: GraphEdit, value: float) -> str:
    return edit.const(value, np.float32)


def _quantized(edit: GraphEdit, source: str, rank: int) -> tuple[str, str, str]:
    """Per item: (uint8 values, scale, zero point as int32), the last two shaped [batch, 1, ...]."""
    e = edit
    others = e.const(list(range(1, rank)))
    low = e.node("Min", [e.node("ReduceMin", [source, others], keepdims=1), _float(e, 0.0)])
    high = e.node("Max", [e.node("ReduceMax", [source, others], keepdims=1), _float(e, 0.0)])
    span = e.node("Sub", [high, low])
    flat = e.node("Equal", [span, _float(e, 0.0)])
    scale = e.node("Where", [flat, _float(e, 1.0), e.node("Div", [span, _float(e, QMAX)])])
    zero_point = e.node(
        "Round", [e.node("Clip", [e.node("Neg", [e.node("Div", [low, scale])]), _float(e, 0.0), _float(e, QMAX)])]
    )
    shifted = e.node("Add", [e.node("Round", [e.node("Div", [source, scale])]), zero_point])
    values = e.node("Cast", [e.node("Clip", [shifted, _float(e, 0.0), _float(e, QMAX)])], to=TensorProto.UINT8)
    return values, scale, e.node("Cast", [zero_point], to=TensorProto.INT32)


def _weights(edit: GraphEdit, node: onnx.NodeProto) -> tuple[np.ndarray, np.ndarray]:
    weights, zero_point = edit.array(node.input[1]), edit.array(node.input[3])
    if weights is None or zero_point is None:
        raise GraphEditError(f"{node.name}: its weights are computed, not constant")
    return weights.astype(np.int32), zero_point.astype(np.int32)


def _column_sums(edit: GraphEdit, node: onnx.NodeProto) -> str:
    """``Σ_k (w[k, n] - z_n)`` for a MatMulInteger's [K, N] weights, int32 [N]."""
    weights, zero_point = _weights(edit, node)
    return edit.const((weights - zero_point.reshape(1, -1)).sum(axis=0), np.int32)


def _taps_inside(edit: GraphEdit, node: onnx.NodeProto, values: str) -> str:
    """``Σ (w - z)`` over the taps of each output step that fall inside the input, int32 [1, out, steps]."""
    weights, zero_point = _weights(edit, node)
    per_tap = (weights - zero_point.reshape(-1, 1, 1)).sum(axis=1, keepdims=True).astype(np.float32)  # [out, 1, k]
    attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute if a.name != "auto_pad"}
    if attributes.get("group", 1) != 1:
        raise GraphEditError(f"{node.name}: a grouped convolution")
    e = edit
    steps = e.node("Slice", [e.node("Shape", [values]), e.const([2]), e.const([3])])
    ones = e.node(
        "ConstantOfShape",
        [e.node("Concat", [e.const([1, 1]), steps], axis=0)],
        value=numpy_helper.from_array(np.ones(1, np.float32)),
    )
    return e.node("Cast", [e.node("Conv", [ones, e.const(per_tap, np.float32)], **attributes)], to=TensorProto.INT32)


def _per_item_bias(edit: GraphEdit) -> None:
    """The convolutions' integer biases, ``floor(bias / (input scale × weight scale))``, one per item:
    [batch, channels, 1] instead of [1, channels, 1]."""
    for node in edit.graph.node:
        if node.op_type == "Div" and node.name.endswith("bias_tmp_qaunt"):  # the quantizer's own spelling
            node.input[0] = edit.node("Reshape", [node.input[0], edit.const([1, -1, 1])])
        elif node.op_type == "Reshape" and node.name.endswith("bias_quantizedreshape"):
            node.input[1] = edit.const([0, -1, 1])


def quantize_per_item(edit: GraphEdit, axes: dict[str, TimeAxis], ranks: dict[str, int]) -> int:
    """Rewrite every ``DynamicQuantizeLinear`` and the integer products reading it; return how many."""
    zero = edit.const(0, np.uint8)
    quantizers = [node for node in edit.graph.node if node.op_type == "DynamicQuantizeLinear"]
    for quantizer in quantizers:
        source = quantizer.input[0]
        axis = axes.get(source)
        if source not in ranks:
            raise GraphEditError(f"{quantizer.name}: the rank of its input was not measured")
        rank = ranks[source]
        if axis is not None and axis.batch != 0:
            raise GraphEditError(f"{quantizer.name}: its input's batch axis is {axis.batch}, not 0")
        values, scale, zero_point = _quantized(edit, source, rank)
        for user in list(edit.consumers[quantizer.output[0]]):
            if user.op_type == "MatMulInteger":
                correction = edit.node("Mul", [zero_point, _column_sums(edit, user)])
            elif user.op_type == "ConvInteger":
                correction = edit.node("Mul", [zero_point, _taps_inside(edit, user, values)])
            else:
                raise GraphEditError(f"{user.name}: a {user.op_type} reads quantized values")
            product = user.output[0]
            user.input[2] = zero
            user.output[0] = f"{product}/zero_point_0"
            edit.add(helper.make_node("Sub", [user.output[0], correction], [product], name=f"{product}/per_item"))
        edit.rewire(quantizer.output[0], values)
        edit.rewire(quantizer.output[1], scale)
    _per_item_bias(edit)
    edit.commit()
    return len(quantizers)
