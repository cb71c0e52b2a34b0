"""Per-item quantization gives each item of a batch the integers ONNX Runtime gives it alone: the quantized
values, and the products of a convolution and a matrix product with each item's own zero point."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from onnx import TensorProto, helper, numpy_helper

from kokoro_server.engine.graph_edit import GraphEdit, GraphEditError
from kokoro_server.engine.item_quantization import quantize_per_item
from kokoro_server.engine.time_axes import TimeAxis

CHANNELS, OUT, TAPS = 5, 3, 3
WEIGHTS = np.random.default_rng(3).integers(0, 256, (OUT, CHANNELS, TAPS), dtype=np.uint8)
MATRIX = np.random.default_rng(4).integers(0, 256, (CHANNELS, OUT), dtype=np.uint8)


def quantized_products(dilation: int) -> onnx.ModelProto:
    """x [batch, channels, time] → DynamicQuantizeLinear → a padded, dilated ConvInteger; and x as [batch, time,
    channels] → DynamicQuantizeLinear → a MatMulInteger over channels: as the int8 export has them."""
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"], name="quantize"),
        helper.make_node(
            "ConvInteger",
            ["xq", "w", "xz", "wz"],
            ["conv"],
            name="conv",
            kernel_shape=[TAPS],
            dilations=[dilation],
            pads=[dilation, dilation],
        ),
        helper.make_node("Transpose", ["x"], ["x_t"], perm=[0, 2, 1]),
        helper.make_node("DynamicQuantizeLinear", ["x_t"], ["tq", "ts", "tz"], name="quantize_t"),
        helper.make_node("MatMulInteger", ["tq", "m", "tz", "mz"], ["product"], name="product"),
    ]
    initializers = [
        numpy_helper.from_array(WEIGHTS, "w"),
        numpy_helper.from_array(np.array(131, np.uint8), "wz"),
        numpy_helper.from_array(MATRIX, "m"),
        numpy_helper.from_array(np.arange(120, 120 + OUT, dtype=np.uint8), "mz"),
    ]
    graph = helper.make_graph(
        nodes,
        "quantized",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", CHANNELS, "time"])],
        [helper.make_tensor_value_info(name, TensorProto.INT32, None) for name in ("conv", "product")],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])  # as the export


def run(model: onnx.ModelProto, x: np.ndarray) -> list[np.ndarray]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(["conv", "product"], {"x": x})


def per_item(model: onnx.ModelProto) -> onnx.ModelProto:
    edit = GraphEdit(model, "batch")
    axis = TimeAxis(rank=3, batch=0, time=2, level="frames", factor=1, offset=0)
    steps_last = TimeAxis(rank=3, batch=0, time=1, level="frames", factor=1, offset=0)
    quantize_per_item(edit, {"x": axis, "x_t": steps_last}, {"x": 3, "x_t": 3})
    return model


batches = st.integers(1, 4).flatmap(
    lambda batch: st.integers(1, 9).flatmap(
        lambda steps: arrays(
            np.float32,
            (batch, CHANNELS, steps),
            elements=st.floats(-8, 8, width=32, allow_nan=False, allow_infinity=False),
        )
    )
)


@settings(max_examples=60, deadline=None)
@given(x=batches, dilation=st.sampled_from([1, 2]), scales=st.lists(st.sampled_from([1e-3, 1.0, 30.0]), min_size=4))
def test_each_item_gets_the_integers_it_gets_alone(x: np.ndarray, dilation: int, scales: list[float]) -> None:
    x = x * np.array(scales[: len(x)], dtype=np.float32).reshape(-1, 1, 1)  # items of very different ranges
    alone = [run(quantized_products(dilation), x[index : index + 1]) for index in range(len(x))]
    conv, product = run(per_item(quantized_products(dilation)), x)
    for index, (item_conv, item_product) in enumerate(alone):
        np.testing.assert_array_equal(conv[index : index + 1], item_conv)
        np.testing.assert_array_equal(product[index : index + 1], item_product)


def test_a_whole_batch_quantized_as_one_would_not_be() -> None:
    """The check above can fail: the export's own quantization gives a quiet item the loud one's precision."""
    rng = np.random.default_rng(5)
    quiet, loud = rng.normal(0, 0.01, (1, CHANNELS, 6)), rng.normal(0, 10, (1, CHANNELS, 6))
    batch = np.concatenate([quiet, loud]).astype(np.float32)
    together, _ = run(quantized_products(1), batch)
    (alone, _) = run(quantized_products(1), batch[:1])
    assert not np.array_equal(together[:1], alone)


def test_a_product_it_does_not_know_is_refused() -> None:
    model = quantized_products(1)
    model.graph.node.append(helper.make_node("Cast", ["xq"], ["cast"], to=TensorProto.INT32, name="cast"))
    model.graph.output.append(helper.make_tensor_value_info("cast", TensorProto.INT32, None))
    with pytest.raises(GraphEditError, match="cast: a Cast reads quantized values"):
        per_item(model)
