"""The int8 model's convolutions as u8 × s8 matrix products, which ONNX Runtime computes faster on a CPU.

The int8 export's convolutions are ``ConvInteger`` with uint8 inputs and uint8 weights, computed by
ONNX Runtime's u8 × u8 kernels. Its u8 × s8 matrix kernels (``MatMulInteger`` with int8 weights) are
the ones built on the CPU's dot-product instructions (AVX-VNNI, AVX512-VNNI), and they are faster. A
one-dimensional convolution is a matrix product over its input unrolled by taps ("im2col"): output
step ``t`` reads the padded input at steps ``t + j × dilation``. So each convolution of stride 1 and
one group becomes: transpose the quantized input to time-major, pad it with its zero point (what
``ConvInteger`` pads with), gather the rows each output step reads, multiply them by the weights
unrolled the same way, and transpose back. The weights move to int8 exactly: each is
``weight - zero_point``, which fits int8 for every convolution of the model (checked, else that
convolution is left as it is).

The products are exact only within what the CPU's kernel adds without saturating. With VNNI the
kernel adds u8 × s8 products in int32: every int8 weight is exact. With AVX2 alone it multiplies with
``vpmaddubsw``, which adds two products in int16 and saturates: 2 × 255 × 64 fits, 2 × 255 × 127 does
not. So on such a CPU only convolutions whose weights lie within ±64 are rewritten
(``exact_weight_bound``), and the audio is the same to the sample on every CPU.

Measured side by side in ``docs/bench/cpu_runtime.md``.
"""

from __future__ import annotations

import platform
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper


def _attribute(node: onnx.NodeProto, name: str, default: list[int]) -> list[int]:
    for attribute in node.attribute:
        if attribute.name == name:
            return list(attribute.ints) if attribute.ints else [attribute.i]
    return default


def _explicit_pads(node: onnx.NodeProto) -> bool:
    """Whether ``node`` pads as its ``pads`` say (no ``auto_pad`` mode that computes them)."""
    modes = [attribute.s for attribute in node.attribute if attribute.name == "auto_pad"]
    return not modes or modes[0] in (b"", b"NOTSET")


VNNI_BOUND = 128  # every int8 weight: VNNI adds the products in int32
PAIRED_INT16_BOUND = 64  # 2 × 255 × 64 = 32640 fits the int16 that vpmaddubsw adds two products in


def exact_weight_bound(cpuinfo: Path = Path("/proc/cpuinfo")) -> int:
    """The largest magnitude of an int8 weight that this CPU's u8 × s8 kernel multiplies exactly."""
    if platform.machine().lower() in ("x86_64", "amd64"):
        try:
            flags = cpuinfo.read_text().split()
        except OSError:
            flags = []
        if "avx512_vnni" in flags or "avx_vnni" in flags:
            return VNNI_BOUND
    return PAIRED_INT16_BOUND  # without VNNI, or a CPU this does not know: only what is exact anywhere


def _signed_weights(weights: np.ndarray, zero_point: np.ndarray, bound: int) -> np.ndarray | None:
    """``weights - zero_point`` as int8, unrolled to [taps × in channels, out channels]; None unless every
    one lies within ``-bound`` to ``bound`` (and int8)."""
    shifted = weights.astype(np.int32) - zero_point.astype(np.int32).reshape(-1, *([1] * (weights.ndim - 1)))
    if shifted.min() < max(-bound, -128) or shifted.max() > min(bound, 127):
        return None
    out_channels, in_channels, taps = shifted.shape
    return shifted.transpose(2, 1, 0).reshape(taps * in_channels, out_channels).astype(np.int8)


class _Rewrite:
    """The nodes and constants that compute one ``ConvInteger`` as a matrix product, named after it."""

    def __init__(self, conv: onnx.NodeProto, graph: onnx.GraphProto) -> None:
        self.prefix = f"{conv.name or conv.output[0]}/as_matmul"
        self.graph = graph
        self.nodes: list[onnx.NodeProto] = []

    def constant(self, name: str, array: np.ndarray) -> str:
        self.graph.initializer.append(numpy_helper.from_array(array, f"{self.prefix}/{name}"))
        return f"{self.prefix}/{name}"

    def node(self, op_type: str, inputs: list[str], name: str, output: str | None = None, **attributes: Any) -> str:
        output = output or f"{self.prefix}/{name}"
        self.nodes.append(helper.make_node(op_type, inputs, [output], name=f"{self.prefix}/{name}", **attributes))
        return output


def _as_matmul(conv: onnx.NodeProto, signed: np.ndarray, taps: int, graph: onnx.GraphProto) -> list[onnx.NodeProto]:
    x, _, x_zero = conv.input[:3]
    dilation = _attribute(conv, "dilations", [1])[0]
    begin, end = _attribute(conv, "pads", [0, 0])
    r = _Rewrite(conv, graph)
    time_major = r.node("Transpose", [x], "time_major", perm=[0, 2, 1])  # [batch, time, in channels]
    pads = r.constant("pads", np.array([0, begin, 0, 0, end, 0], np.int64))
    unrolled = padded = r.node("Pad", [time_major, pads, x_zero], "padded")
    if taps > 1:
        # Output step t reads input steps t + j × dilation: one Gather of those rows, [batch, time, taps, in
        # channels], flattened to the weights' [taps × in channels] rows.
        padded_length = r.node("Shape", [padded], "padded_length", start=1, end=2)
        reach = r.constant("reach", np.array([dilation * (taps - 1)], np.int64))
        length = r.node("Squeeze", [r.node("Sub", [padded_length, reach], "length")], "steps")
        zero, one = r.constant("zero", np.array(0, np.int64)), r.constant("one", np.array(1, np.int64))
        steps = r.node(
            "Unsqueeze",
            [r.node("Range", [zero, length, one], "range"), r.constant("axis", np.array([1], np.int64))],
            "step",
        )
        offsets = r.constant("offsets", (np.arange(taps, dtype=np.int64) * dilation)[None, :])
        rows = r.node("Gather", [padded, r.node("Add", [steps, offsets], "rows")], "gathered", axis=1)
        unrolled = r.node(
            "Reshape", [rows, r.constant("shape", np.array([0, -1, signed.shape[0]], np.int64))], "unrolled"
        )
    weights, weight_zero = r.constant("weights", signed), r.constant("weight_zero", np.array(0, np.int8))
    product = r.node("MatMulInteger", [unrolled, weights, x_zero, weight_zero], "product")
    r.node("Transpose", [product], "channel_major", output=conv.output[0], perm=[0, 2, 1])
    return r.nodes


def convolutions_as_matmuls(model: onnx.ModelProto, weight_bound: int | None = None) -> int:
    """Rewrite, in place, each 1-D ``ConvInteger`` of stride 1, one group and explicit pads whose weights
    this CPU multiplies exactly as int8 (``weight_bound``: by default ``exact_weight_bound()``); return how
    many."""
    bound = exact_weight_bound() if weight_bound is None else weight_bound
    graph = model.graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    rewritten: list[onnx.NodeProto] = []
    count = 0
    for node in graph.node:
        signed = None
        if (
            node.op_type == "ConvInteger"
            and len(node.input) == 4
            and {node.input[1], node.input[3]} <= initializers.keys()
        ):
            weights = numpy_helper.to_array(initializers[node.input[1]])
            single = _attribute(node, "strides", [1]) == [1] and _attribute(node, "group", [1]) == [1]
            if weights.ndim == 3 and single and _explicit_pads(node):
                signed = _signed_weights(weights, numpy_helper.to_array(initializers[node.input[3]]), bound)
        if signed is None:
            rewritten.append(node)
            continue
        rewritten += _as_matmul(node, signed, weights.shape[2], graph)
        count += 1
    del graph.node[:]
    graph.node.extend(rewritten)
    used = {name for node in graph.node for name in node.input}
    kept = [tensor for tensor in graph.initializer if tensor.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    return count
