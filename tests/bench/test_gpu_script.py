"""bench/gpu.py's dry run on the CPU: the GPU script's steps work before a GPU is ever lent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.model  # the script loads the embedded model itself
def test_the_dry_run_builds_the_float_model_times_the_engine_and_sweeps_a_server(tmp_path: Path) -> None:
    out = tmp_path / "gpu"
    done = subprocess.run(
        [sys.executable, "-m", "kokoro_bench.gpu", "--dry-run", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads((out / "gpu.json").read_text())
    assert result["machine"]["dry_run"] is True
    (engine,) = result["engine"]
    assert engine["providers"] == ["CPUExecutionProvider"] and engine["audio_s"] > 0 and engine["rtf"] > 0
    (server,) = result["server"]
    assert [level["sessions"] for level in server["levels"]] == [1, 2]
    assert all(level["audio_s"] > 0 and level["ttfa_p50_ms"] > 0 for level in server["levels"])
    table = (out / "gpu.md").read_text()
    assert "| HEURISTIC | CPUExecutionProvider |" in table and "| 1 | 2 |" in table


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
