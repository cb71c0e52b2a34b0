"""A float32 Kokoro-82M graph rebuilt from the int8 model's weights, for GPUs, with no hub download.

    uv run python -m kokoro_bench.float_model OUT_DIR [--model-dir INT8_DIR]

The int8 export is dynamically quantized: every quantized layer is a DynamicQuantizeLinear of its
input feeding a ConvInteger or MatMulInteger (then a Cast and a Mul by the two scales, and for
convolutions an integer bias), and the LSTMs are DynamicQuantizeLSTM. The CUDA provider runs none
of these integer kernels, so the model would fall back to the CPU node by node. This rebuilds each
as the float operator it came from (Conv, MatMul, LSTM) with its weights dequantized,
``(q - zero_point) * scale``, which is the architecture of the production fp32 model with the int8
model's precision. Everything else is left as it is. The output is a model folder in the
model-cache layout (manifest with every sha256, voices copied), which the server loads like any
other.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from collections import defaultdict
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from kokoro_core.model_cache import MANIFEST_NAME, FileEntry, Manifest, verify_directory

FLOAT_ONNX = "onnx/model_float32_from_int8.onnx"


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

    def add_weight(self, name: str, sources: tuple[str, ...], dequantize) -> str:
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
        return (weights - zero_point) * _per_channel(g.array(scale_name), weights.ndim, 0)

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
        return (weights - zero_point) * _per_channel(g.array(scale_name), weights.ndim, -1)

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
            return floats.transpose(0, 2, 1)  # ONNX LSTM wants [directions, 4 × hidden, input]

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


REBUILDERS = {"ConvInteger": _float_conv, "MatMulInteger": _float_matmul, "DynamicQuantizeLSTM": _float_lstm}


def float_graph(model: onnx.ModelProto) -> dict[str, int]:
    """Rebuild every quantized operator of ``model`` in float, in place; return how many of each."""
    g = _Graph(model.graph)
    counts: dict[str, int] = defaultdict(int)
    for node in list(model.graph.node):
        rebuild = REBUILDERS.get(node.op_type)
        if rebuild is not None:
            rebuild(g, node, counts[node.op_type])
            counts[node.op_type] += 1
    nodes = [node for node in model.graph.node if id(node) not in g.removed] + g.added
    outputs = {output.name for output in model.graph.output}
    while True:  # drop what only fed the removed operators: the quantization of inputs and biases
        used = {name for node in nodes for name in node.input} | outputs
        kept = [node for node in nodes if any(name in used for name in node.output)]
        if len(kept) == len(nodes):
            break
        nodes = kept
    used = {name for node in nodes for name in node.input}
    initializers = [t for t in model.graph.initializer if t.name in used] + g.new_initializers
    del model.graph.initializer[:]
    model.graph.initializer.extend(initializers)
    del model.graph.node[:]
    model.graph.node.extend(_topological(model.graph, nodes))
    leftovers = sorted({node.op_type for node in nodes} & {"DynamicQuantizeLinear", *REBUILDERS})
    if leftovers:
        raise FloatGraphError(f"quantized operators left after the rebuild: {leftovers}")
    return dict(counts)


def _topological(graph: onnx.GraphProto, nodes: list[onnx.NodeProto]) -> list[onnx.NodeProto]:
    available = {value.name for value in graph.input} | {tensor.name for tensor in graph.initializer} | {""}
    ordered, pending = [], nodes
    while pending:
        waiting = []
        for node in pending:
            if all(name in available for name in node.input):
                ordered.append(node)
                available.update(node.output)
            else:
                waiting.append(node)
        if len(waiting) == len(pending):
            raise FloatGraphError("the rebuilt graph has a cycle or a missing input")
        pending = waiting
    return ordered


def build(int8_dir: Path, out_dir: Path) -> Manifest:
    """Write the float model folder (model-cache layout) for the int8 model folder ``int8_dir``."""
    source = verify_directory(int8_dir)
    model = onnx.load(str(int8_dir / source.onnx))
    counts = float_graph(model)
    (out_dir / FLOAT_ONNX).parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out_dir / FLOAT_ONNX))
    files = {}
    for name, entry in source.files.items():
        if name != source.onnx:
            (out_dir / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(int8_dir / name, out_dir / name)
            files[name] = entry
    data = (out_dir / FLOAT_ONNX).read_bytes()
    files[FLOAT_ONNX] = FileEntry(hashlib.sha256(data).hexdigest(), len(data))
    manifest = Manifest(
        source=f"{source.source}+float32 ({', '.join(f'{n} {op}' for op, n in sorted(counts.items()))})",
        files=files,
        onnx=FLOAT_ONNX,
        voices=source.voices,
        default_voice=source.default_voice,
    )
    (out_dir / MANIFEST_NAME).write_text(manifest.to_json())
    return verify_directory(out_dir)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--model-dir", type=Path, help="the int8 model folder (default: the embedded model)")
    args = parser.parse_args()
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    manifest = build(args.model_dir, args.out_dir)
    print(json.dumps({"out_dir": str(args.out_dir), "source": manifest.source, "onnx": manifest.onnx}))


if __name__ == "__main__":
    main()
