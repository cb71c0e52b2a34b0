"""Finding Kokoro's per-token durations in a model graph, exposing them, and refusing a graph without."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from kokoro_server.engine.durations import NoDurations, durations_tensor, expose_durations
from kokoro_server.engine.model_interface import ModelInterface


def graph_model(nodes: list[onnx.NodeProto], outputs: list[str]) -> onnx.ModelProto:
    """A tiny graph from ``x`` (float, per token) through ``nodes``; ``audio`` is always an output."""
    graph = helper.make_graph(
        nodes,
        "kokoro-like",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None])],
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, None) for name in outputs],
        [
            helper.make_tensor("one", TensorProto.FLOAT, [], [1.0]),
            helper.make_tensor("axis", TensorProto.INT64, [], [0]),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


# Kokoro's alignment in miniature: round the predicted lengths, clip to at least one frame, cast,
# then the running sum that lays tokens out in frames.
ALIGNMENT = [
    helper.make_node("Round", ["x"], ["rounded"]),
    helper.make_node("Clip", ["rounded", "one"], ["clipped"]),
    helper.make_node("Cast", ["clipped"], ["frames"], to=TensorProto.INT64),
    helper.make_node("CumSum", ["frames", "axis"], ["ends"]),
    helper.make_node("Cast", ["ends"], ["audio"], to=TensorProto.FLOAT),
]


def test_the_frames_feeding_the_alignment_are_found_and_exposed(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    onnx.save(graph_model(ALIGNMENT, ["audio"]), str(path))
    assert durations_tensor(onnx.load(str(path)).graph) == "frames"
    model = onnx.load(str(path))
    name = expose_durations(model, ModelInterface("x", "style", "speed", "audio"))
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    audio, frames = session.run(["audio", name], {"x": np.array([0.2, 2.6, 4.4], dtype=np.float32)})
    assert frames.tolist() == [1, 3, 4] and audio.tolist() == [1, 4, 8]


def test_an_export_with_a_durations_output_is_used_as_it_is() -> None:
    nodes = [*ALIGNMENT, helper.make_node("Identity", ["frames"], ["pred_dur"])]
    model = graph_model(nodes, ["audio", "pred_dur"])
    assert expose_durations(model, ModelInterface("x", "style", "speed", "audio", durations="pred_dur")) == "pred_dur"
    assert [output.name for output in model.graph.output] == ["audio", "pred_dur"]  # nothing added


def test_a_graph_without_rounded_durations_is_refused_clearly() -> None:
    nodes = [helper.make_node("CumSum", ["x", "axis"], ["audio"])]  # a running sum, but of no rounding
    with pytest.raises(NoDurations, match="expected one CumSum over rounded per-token durations.*found 0"):
        durations_tensor(graph_model(nodes, ["audio"]).graph)


def test_the_embedded_int8_model_exposes_its_duration_predictor(embedded_model_dir: Path) -> None:
    from kokoro_core.model_cache import verify_directory

    manifest = verify_directory(embedded_model_dir)
    graph = onnx.load(str(embedded_model_dir / manifest.onnx)).graph
    assert durations_tensor(graph) == "/encoder/Gather_output_0"  # Round → Clip → Cast → Gather → CumSum


def test_rounded_durations_aligned_some_other_way_are_found_from_their_rounding() -> None:
    nodes = [  # no running sum: the frames are aligned by some other operator
        helper.make_node("Round", ["x"], ["rounded"]),
        helper.make_node("Clip", ["rounded", "one"], ["clipped"]),
        helper.make_node("Cast", ["clipped"], ["frames"], to=TensorProto.INT64),
        helper.make_node("Cast", ["frames"], ["audio"], to=TensorProto.FLOAT),
    ]
    assert durations_tensor(graph_model(nodes, ["audio"]).graph) == "frames"


def test_both_ways_of_finding_the_durations_agree_on_the_real_graph(embedded_model_dir: Path) -> None:
    from kokoro_core.model_cache import verify_directory
    from kokoro_server.engine.durations import _rounded_and_cast

    manifest = verify_directory(embedded_model_dir)
    model = onnx.load(str(embedded_model_dir / manifest.onnx))
    (rounded,) = _rounded_and_cast(model.graph)
    summed = durations_tensor(model.graph)
    model.graph.output.extend(helper.make_empty_tensor_value_info(name) for name in (rounded, summed))
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    styles = np.fromfile(embedded_model_dir / "voices/af_heart.bin", dtype=np.float32).reshape(-1, 256)
    feed = {"tokens": np.array([[0, 50, 83, 156, 16, 0]]), "style": styles[4:5], "speed": np.array([1.0], np.float32)}
    first, second = session.run([rounded, summed], feed)
    assert first.ravel().tolist() == second.ravel().tolist() and len(first.ravel()) == 6
