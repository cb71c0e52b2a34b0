"""The int8 Kokoro graph's quantized operators rebuilt as the float operators they came from.

The int8 export is dynamically quantized: every quantized layer is a DynamicQuantizeLinear of its
input feeding a ConvInteger or MatMulInteger (then a Cast and a Mul by the two scales, and for
convolutions an integer bias), and the LSTMs are DynamicQuantizeLSTM. This rebuilds each as the float
operator it came from (Conv, MatMul, LSTM) with its weights dequantized, ``(q - zero_point) * scale``:
the architecture of the production fp32 model with the int8 model's precision, and no hub download.

The GPU runs the whole graph rebuilt (the CUDA provider has none of the integer kernels, so the int8
model would fall back to the CPU node by node; ``kokoro_bench.float_model`` writes it as a model folder).
The batch-capable int8 graph rebuilds only its LSTMs (``batch_graph``): DynamicQuantizeLSTM quantizes its
input and state over the whole batch, so an item's result would depend on the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection

import numpy as np
import onnx
from onnx import numpy_helper

from .graph_edit import drop_unused, topological

QUANTIZED_OPERATORS = ("ConvInteger", "MatMulInteger", "DynamicQuantizeLSTM")


class FloatGraphError(RuntimeError):
    """A quantized operator does not have the shape this rebuild expects."""


class _Graph:
    """Lookups over a graph being edited: producers, consumers, initializers as arrays."""

    def __init__(self, graph: onnx.GraphProto) -> None:
        self.graph = graph
        self.initializers = {tensor.name: tensor for tensor in graph.initializer}
        self.producer = {name: node for node in graph.node for name in node.output}
        self.consumers: dict[str, list[onnx.NodeProto]] = defaultdict(list)
        for node in graph.node:
            for name in node.input:
                self.consumers[name].append(node)
        self.new_initializers: list[onnx.TensorProto] = []
        self.dequantized: dict[tuple[str, ...], str] = {}  # one float weight per quantized weight, however shared
        self.removed: set[int] = set()
        self.added: list[onnx.NodeProto] = []

    def array(self, name: str) -> np.ndarray:
        return numpy_helper.to_array(self.initializers[name])

    def only_consumer(self, name: str, op_type: str) -> onnx.NodeProto:
        found = self.consumers[name]
        if len(found) != 1 or found[0].op_type != op_type:
            raise FloatGraphError(f"{name} feeds {[n.op_type for n in found]}, expected one {op_type}")
        return found[0]

    def quantized_input(self, node: onnx.NodeProto) -> str:
        """The float tensor a DynamicQuantizeLinear turned into ``node``'s first input."""
        quantize = self.producer.get(node.input[0])
        if quantize is None or quantize.op_type != "DynamicQuantizeLinear":
            raise FloatGraphError(f"{node.name}: its input is not dynamically quantized")
        return quantize.input[0]

    def weight_scale(self, scale_product: str) -> str:
        """The weight's scale: the initializer among the inputs of the Mul that forms input scale × weight scale."""
        mul = self.producer[scale_product]
        names = [name for name in mul.input if name in self.initializers]
        if mul.op_type != "Mul" or len(names) != 1:
            raise FloatGraphError(f"{scale_product}: not a product of the input scale and a weight scale")
        return names[0]

    def add_weight(self, name: str, sources: tuple[str, ...], dequantize: Callable[[], np.ndarray]) -> str:
        """The float weight made from the quantized ``sources`` by ``dequantize()``, made once."""
        if sources not in self.dequantized:
            self.new_initializers.append(numpy_helper.from_array(dequantize().astype(np.float32), name))
            self.dequantized[sources] = name
        return self.dequantized[sources]

    def replace(self, old: list[onnx.NodeProto], new: onnx.NodeProto) -> None:
        self.removed.update(id(node) for node in old)
        self.added.append(new)


def _per_channel(values: np.ndarray, ndim: int, axis: int) -> np.ndarray:
    """A scale or zero point (scalar or one per channel) shaped to broadcast along ``axis``."""
    if values.ndim == 0:
        return values
    shape = [1] * ndim
    shape[axis] = values.size
    return values.reshape(shape)


def _float_conv(g: _Graph, conv: onnx.NodeProto, count: int) -> None:
    after = g.consumers[conv.output[0]][0]
    bias_add = after if after.op_type == "Add" else None
    cast = g.only_consumer(bias_add.output[0], "Cast") if bias_add else g.only_consumer(conv.output[0], "Cast")
    scale_mul = g.only_consumer(cast.output[0], "Mul")
    scale_name = g.weight_scale(next(name for name in scale_mul.input if name != cast.output[0]))

    def dequantize() -> np.ndarray:
        weights = g.array(conv.input[1]).astype(np.int32)  # [out channels, in channels, kernel]
        zero_point = _per_channel(g.array(conv.input[3]).astype(np.int32), weights.ndim, 0)
        return np.asarray((weights - zero_point) * _per_channel(g.array(scale_name), weights.ndim, 0))

    sources = (conv.input[1], conv.input[3], scale_name)
    inputs = [g.quantized_input(conv), g.add_weight(f"float_conv_{count}.weight", sources, dequantize)]
    if bias_add is not None:
        channels = g.initializers[conv.input[1]].dims[0]
        inputs.append(_float_bias(g, bias_add, conv.output[0], channels))
    node = onnx.helper.make_node("Conv", inputs, [scale_mul.output[0]], name=f"float_conv_{count}")
    node.attribute.extend(conv.attribute)
    g.replace([conv, bias_add, cast, scale_mul] if bias_add else [conv, cast, scale_mul], node)


def _float_bias(g: _Graph, bias_add: onnx.NodeProto, conv_output: str, channels: int) -> str:
    """The float bias the quantized bias was computed from: the float vector of ``channels`` upstream."""
    pending, seen = [name for name in bias_add.input if name != conv_output], set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        tensor = g.initializers.get(name)
        if tensor is not None and tensor.data_type == onnx.TensorProto.FLOAT and list(tensor.dims) == [channels]:
            return name
        if name in g.producer:
            pending.extend(g.producer[name].input)
    raise FloatGraphError(f"{bias_add.name}: no float bias of {channels} channels upstream")


def _float_matmul(g: _Graph, matmul: onnx.NodeProto, count: int) -> None:
    cast = g.only_consumer(matmul.output[0], "Cast")
    scale_mul = g.only_consumer(cast.output[0], "Mul")
    scale_name = g.weight_scale(next(name for name in scale_mul.input if name != cast.output[0]))

    def dequantize() -> np.ndarray:
        weights = g.array(matmul.input[1]).astype(np.int32)  # [K, N]: one zero point and scale per column
        zero_point = _per_channel(g.array(matmul.input[3]).astype(np.int32), weights.ndim, -1)
        return np.asarray((weights - zero_point) * _per_channel(g.array(scale_name), weights.ndim, -1))

    weight = g.add_weight(f"float_matmul_{count}.weight", (matmul.input[1], matmul.input[3], scale_name), dequantize)
    node = onnx.helper.make_node(
        "MatMul", [g.quantized_input(matmul), weight], [scale_mul.output[0]], name=f"float_matmul_{count}"
    )
    g.replace([matmul, cast, scale_mul], node)


def _float_lstm(g: _Graph, lstm: onnx.NodeProto, count: int) -> None:
    names = list(lstm.input) + [""] * (12 - len(lstm.input))
    x, w, r, b, lengths, initial_h, initial_c, peepholes, w_scale, w_zero, r_scale, r_zero = names

    def dequantized(name: str, quantized: str, scale: str, zero: str) -> str:
        def dequantize() -> np.ndarray:
            values = g.array(quantized).astype(np.int32)  # [directions, input, 4 × hidden]
            per_direction = values.ndim * [1]
            per_direction[0] = -1
            zero_points = g.array(zero).astype(np.int32).reshape(per_direction)
            floats = (values - zero_points) * g.array(scale).reshape(per_direction)
            return np.asarray(floats.transpose(0, 2, 1))  # ONNX LSTM wants [directions, 4 × hidden, input]

        return g.add_weight(name, (quantized, scale, zero), dequantize)

    inputs = [
        x,
        dequantized(f"float_lstm_{count}.W", w, w_scale, w_zero),
        dequantized(f"float_lstm_{count}.R", r, r_scale, r_zero),
        b,
        lengths,
        initial_h,
        initial_c,
        peepholes,
    ]
    while inputs and inputs[-1] == "":
        inputs.pop()
    node = onnx.helper.make_node("LSTM", inputs, list(lstm.output), name=f"float_lstm_{count}")
    node.attribute.extend(lstm.attribute)
    g.replace([lstm], node)


REBUILDERS: dict[str, Callable[[_Graph, onnx.NodeProto, int], None]] = {
    "ConvInteger": _float_conv,
    "MatMulInteger": _float_matmul,
    "DynamicQuantizeLSTM": _float_lstm,
}


def float_graph(model: onnx.ModelProto, operators: Collection[str] = QUANTIZED_OPERATORS) -> dict[str, int]:
    """Rebuild ``model``'s quantized ``operators`` in float, in place; return how many of each."""
    g = _Graph(model.graph)
    counts: dict[str, int] = defaultdict(int)
    for node in list(model.graph.node):
        if node.op_type in operators:
            REBUILDERS[node.op_type](g, node, counts[node.op_type])
            counts[node.op_type] += 1
    nodes = [node for node in model.graph.node if id(node) not in g.removed] + g.added
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    model.graph.initializer.extend(g.new_initializers)
    drop_unused(model.graph)  # and what only fed the removed operators: the quantization of inputs and biases
    ordered = topological(model.graph, list(model.graph.node))
    del model.graph.node[:]
    model.graph.node.extend(ordered)
    left = {node.op_type for node in ordered} & set(operators)
    if set(operators) == set(QUANTIZED_OPERATORS) and any(node.op_type == "DynamicQuantizeLinear" for node in ordered):
        left.add("DynamicQuantizeLinear")
    if left:
        raise FloatGraphError(f"quantized operators left after the rebuild: {sorted(left)}")
    return dict(counts)
