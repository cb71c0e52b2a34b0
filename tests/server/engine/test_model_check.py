"""`kokoro-stream model check`: the CUDA kernel table of the pinned runtime, the word-mark check on audio made to
order, and the command on the deploy-shaped model directory."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto, helper
from typer.testing import CliRunner

from kokoro_server.engine.model_check import cuda_kernels, mark_problems, without_cuda_kernel
from kokoro_server.text.word_timing import TimedWord
from kokoro_stream.cli import app
from kokoro_tools.deploy_shaped import deploy_shaped

ROOT = Path(__file__).resolve().parents[3]


def test_the_kernel_table_is_the_pinned_gpu_runtime_s() -> None:
    runtime, table = cuda_kernels()
    pinned = re.search(r"^onnxruntime-gpu==(\S+)", (ROOT / "container/requirements-gpu.txt").read_text(), re.M)
    assert pinned is not None and runtime == f"onnxruntime-gpu {pinned.group(1)}"
    assert ("ai.onnx", "Conv") in table and ("com.microsoft", "FastGelu") in table


def model_with(nodes: list[tuple[str, str]], opset: int = 17) -> object:
    """A graph of one node per (domain, operator), for the kernel lookup only (never run)."""
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], [f"y{i}"], domain=domain) for i, (domain, op) in enumerate(nodes)],
        "ops",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("y0", TensorProto.FLOAT, None)],
    )
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset), helper.make_opsetid("com.microsoft", 1)]
    )


def test_nodes_without_a_cuda_kernel_are_counted_by_operator() -> None:
    model = model_with(
        [("", "Sin"), ("", "STFT"), ("", "Atan"), ("", "Atan"), ("com.microsoft", "DynamicQuantizeLSTM"), ("", "Conv")]
    )
    assert without_cuda_kernel(model) == {"STFT": 1, "Atan": 2, "com.microsoft.DynamicQuantizeLSTM": 1}  # type: ignore[arg-type]


def test_a_kernel_is_matched_by_the_version_the_graph_s_opset_gives_its_operator() -> None:
    _, table = cuda_kernels()
    assert (10, None) in table[("ai.onnx", "MatMulInteger")]
    assert without_cuda_kernel(model_with([("", "MatMulInteger")], opset=10)) == {}  # type: ignore[arg-type]
    assert without_cuda_kernel(model_with([("", "ConvInteger")], opset=10)) == {"ConvInteger": 1}  # type: ignore[arg-type]


RATE = 24000


def tone_speech(spans: list[tuple[int, int]], marks: list[tuple[str, int, int]]) -> tuple[np.ndarray, list[TimedWord]]:
    """Audio that sounds in ``spans`` (samples) and is silent elsewhere, with ``marks`` as its word marks."""
    audio = np.zeros(RATE * 2, dtype=np.float32)
    for start, end in spans:
        audio[start:end] = 0.3 * np.sin(np.arange(end - start) * 2 * np.pi * 200 / RATE)
    return audio, [TimedWord(text, start, end) for text, start, end in marks]


SPANS = [(2400, 12000), (14400, 30000)]


def test_marks_on_the_words_sound_pass() -> None:
    assert mark_problems(*tone_speech(SPANS, [("Hello", 2400, 12000), ("there.", 14400, 30000)]), "Hello there.") == []


def test_marks_off_the_sound_or_the_words_are_problems() -> None:
    late = tone_speech(SPANS, [("Hello", 31000, 36000), ("there.", 36000, 40000)])  # where the audio is silent
    problems = mark_problems(*late, "Hello there.")
    assert "'Hello' is marked where the audio is silent" in problems
    assert any("of the speech lies within the word marks" in problem for problem in problems)
    missing = mark_problems(*tone_speech(SPANS, [("Hello", 2400, 30000)]), "Hello there.")
    assert missing == ["marks for ['Hello'], the sentence has ['Hello', 'there.']"]
    crossed = tone_speech(SPANS, [("Hello", 2400, 20000), ("there.", 14400, 60000)])
    assert mark_problems(*crossed, "Hello there.") == [
        "'there.' starts before 'Hello' ends",
        "'there.' is marked at samples 14400–60000 of 48000",
    ]


@pytest.fixture(scope="module")
def onnx_community_dir(embedded_model_dir: Path) -> Path:
    return deploy_shaped("onnx-community")


def test_model_check_loads_the_deploy_shaped_model_and_lists_what_cuda_lacks(onnx_community_dir: Path) -> None:
    result = CliRunner().invoke(app, ["model", "check", str(onnx_community_dir), "--device", "cpu"])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(None, 1) for line in result.output.splitlines() if line.strip())
    assert lines["interface"].startswith("tokens=input_ids, style=style, speed=speed, audio=waveform")
    assert lines["runs"].startswith("on    CPUExecutionProvider: cpu")
    assert lines["on"].endswith("copies each call: Atan (1), STFT (1)")  # the fp32 graph's two host nodes
    assert "13 word marks" in lines["spoke"] and lines["ok"] == "the marks match the audio"


def test_model_check_refuses_what_the_server_could_not_load(tmp_path: Path) -> None:
    from tests.model_dirs import make_model_dir

    make_model_dir(tmp_path)  # every file matches the manifest, and the model is random bytes
    result = CliRunner().invoke(app, ["model", "check", str(tmp_path)])
    assert result.exit_code == 1 and f"error: the server could not use {tmp_path}" in result.output
    (tmp_path / "voices/af_heart.bin").write_bytes(b"tampered")
    result = CliRunner().invoke(app, ["model", "check", str(tmp_path)])
    assert result.exit_code == 2 and "voices/af_heart.bin: 8 bytes, manifest says 522240" in result.output
