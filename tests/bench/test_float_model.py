"""The float32 graph rebuilt from the int8 model's weights (what a GPU runs): every quantized operator is
its float operator again, with float weights, and the graph keeps the durations word marks need."""

from __future__ import annotations

from pathlib import Path

import onnx


def test_the_float_graph_has_no_integer_operators_left(tmp_path: Path, embedded_model_dir: Path) -> None:
    from kokoro_bench.float_model import FLOAT_ONNX, build

    manifest = build(embedded_model_dir, tmp_path / "float32")
    assert manifest.onnx == FLOAT_ONNX and "87 ConvInteger, 6 DynamicQuantizeLSTM, 148 MatMulInteger" in manifest.source
    graph = onnx.load(str(tmp_path / "float32" / FLOAT_ONNX)).graph
    operators = {node.op_type for node in graph.node}
    assert operators.isdisjoint({"ConvInteger", "MatMulInteger", "DynamicQuantizeLinear", "DynamicQuantizeLSTM"})
    assert {"Conv", "MatMul", "LSTM"} <= operators
    weights = {tensor.name: tensor for tensor in graph.initializer}
    rebuilt = [node for node in graph.node if node.op_type in ("Conv", "MatMul", "LSTM")]
    assert all(
        weights[name].data_type == onnx.TensorProto.FLOAT for node in rebuilt for name in node.input if name in weights
    )
    # The fp32 architecture keeps the duration predictor's alignment, so word marks work on it too.
    from kokoro_server.engine.durations import durations_tensor

    assert durations_tensor(graph) == "/encoder/Gather_output_0"
