"""The int8 model's convolutions rewritten as u8 × s8 matrix products compute exactly what they did."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from kokoro_server.engine import integer_conv
from kokoro_server.engine.integer_conv import (
    PAIRED_INT16_BOUND,
    VNNI_BOUND,
    convolutions_as_matmuls,
    exact_weight_bound,
)

CHANNELS, OUT = 6, 4


def conv(name: str, weights: np.ndarray, zero_point: np.ndarray, **attributes) -> tuple[onnx.NodeProto, list]:
    """A ConvInteger of the dynamically quantized input, as the int8 export has them."""
    node = helper.make_node("ConvInteger", ["xq", f"{name}.w", "xz", f"{name}.wz"], [name], name=name, **attributes)
    return node, [numpy_helper.from_array(weights, f"{name}.w"), numpy_helper.from_array(zero_point, f"{name}.wz")]


def model_of(convolutions: dict[str, dict], spread: int = PAIRED_INT16_BOUND) -> onnx.ModelProto:
    """Convolutions whose weights lie within ``spread`` of their zero point (by default: exact on any CPU)."""
    rng = np.random.default_rng(7)
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"])]
    initializers = []
    for name, spec in convolutions.items():
        taps = spec.pop("taps")
        weights = spec.pop("weights", None)
        zero_point = np.array(rng.integers(100, 156), dtype=np.uint8)  # one per tensor, as ONNX Runtime requires
        if weights is None:
            low, high = int(zero_point) - spread, int(zero_point) + spread
            weights = rng.integers(max(low, 0), min(high, 255) + 1, (OUT, CHANNELS, taps), dtype=np.uint8)
        node, tensors = conv(name, weights, zero_point, kernel_shape=[taps], **spec)
        nodes.append(node)
        initializers += tensors
    graph = helper.make_graph(
        nodes,
        "convolutions",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, CHANNELS, None])],
        [helper.make_tensor_value_info(name, TensorProto.INT32, None) for name in convolutions],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def run(model: onnx.ModelProto, x: np.ndarray) -> list[np.ndarray]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})


def test_dilated_padded_and_pointwise_convolutions_give_the_same_integers() -> None:
    specs = {
        "dilated": {"taps": 5, "dilations": [3], "pads": [6, 6]},
        "unpadded": {"taps": 3},
        "pointwise": {"taps": 1},
        "uneven_pads": {"taps": 4, "pads": [1, 2]},
    }
    original = model_of({name: dict(spec) for name, spec in specs.items()})
    rewritten = model_of({name: dict(spec) for name, spec in specs.items()})
    assert convolutions_as_matmuls(rewritten) == 4
    assert not [node for node in rewritten.graph.node if node.op_type == "ConvInteger"]
    for length in (3, 17, 300):
        x = np.random.default_rng(length).standard_normal((1, CHANNELS, length)).astype(np.float32) * 3
        for expected, got in zip(run(original, x), run(rewritten, x), strict=True):
            assert expected.dtype == got.dtype and expected.shape == got.shape
            assert np.array_equal(expected, got)


def test_convolutions_it_cannot_express_are_left_as_they_are() -> None:
    wide = np.full((OUT, CHANNELS, 3), 255, np.uint8)  # 255 minus a zero point near 128 is over int8's 127
    specs = {
        "strided": {"taps": 3, "strides": [2]},
        "wide": {"taps": 3, "weights": wide},
        "same_padded": {"taps": 3, "auto_pad": "SAME_UPPER"},
        "kept": {"taps": 3},
    }
    original = model_of({name: dict(spec) for name, spec in specs.items()})
    rewritten = model_of({name: dict(spec) for name, spec in specs.items()})
    assert convolutions_as_matmuls(rewritten) == 1
    left = sorted(node.name for node in rewritten.graph.node if node.op_type == "ConvInteger")
    assert left == ["same_padded", "strided", "wide"]
    x = np.random.default_rng(0).standard_normal((1, CHANNELS, 40)).astype(np.float32)
    for expected, got in zip(run(original, x), run(rewritten, x), strict=True):
        assert np.array_equal(expected, got)


def test_weights_beyond_what_the_cpu_adds_exactly_are_left_as_they_are() -> None:
    """Without VNNI, ONNX Runtime adds two u8 × s8 products in int16 and saturates: such weights stay."""
    specs = {"full_range": {"taps": 3}}
    full_range = model_of({name: dict(spec) for name, spec in specs.items()}, spread=127)
    assert convolutions_as_matmuls(full_range, weight_bound=PAIRED_INT16_BOUND) == 0
    assert convolutions_as_matmuls(model_of({n: dict(s) for n, s in specs.items()}, 127), VNNI_BOUND) == 1
    if exact_weight_bound() == VNNI_BOUND:  # this CPU adds in int32: the full range is exact here
        original = model_of({name: dict(spec) for name, spec in specs.items()}, spread=127)
        rewritten = model_of({name: dict(spec) for name, spec in specs.items()}, spread=127)
        assert convolutions_as_matmuls(rewritten) == 1
        x = np.random.default_rng(1).standard_normal((1, CHANNELS, 300)).astype(np.float32) * 3
        assert all(np.array_equal(e, g) for e, g in zip(run(original, x), run(rewritten, x), strict=True))


def test_the_exact_bound_follows_the_cpu(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(integer_conv.platform, "machine", lambda: "x86_64")
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("flags\t\t: fpu sse2 avx2 fma\n")
    assert exact_weight_bound(cpuinfo) == PAIRED_INT16_BOUND
    cpuinfo.write_text("flags\t\t: fpu sse2 avx2 avx_vnni\n")
    assert exact_weight_bound(cpuinfo) == VNNI_BOUND
    assert exact_weight_bound(tmp_path / "missing") == PAIRED_INT16_BOUND
    monkeypatch.setattr(integer_conv.platform, "machine", lambda: "aarch64")
    assert exact_weight_bound(cpuinfo) == PAIRED_INT16_BOUND


def test_the_embedded_model_speaks_the_same_samples_rewritten(embedded_model_dir: Path, engine) -> None:
    """The real int8 model: its convolutions rewritten, the audio is the same to the sample."""
    from kokoro_onnx.tokenizer import Tokenizer

    from kokoro_core.model_cache import verify_directory

    manifest = verify_directory(embedded_model_dir)
    path = embedded_model_dir / manifest.onnx
    original, rewritten = onnx.load(str(path)), onnx.load(str(path))
    count = convolutions_as_matmuls(rewritten)
    # What the CPU engine runs: with VNNI every convolution of the model, without only those within ±64.
    assert count == engine.convolutions_as_matmuls and count >= (80 if exact_weight_bound() == VNNI_BOUND else 1)
    sessions = [
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        for model in (original, rewritten)
    ]
    tokenizer = Tokenizer()
    tokens = tokenizer.tokenize(tokenizer.phonemize("Your refund is on its way.", "en-us"))
    style = np.fromfile(embedded_model_dir / manifest.voices / "af_heart.bin", np.float32).reshape(-1, 256)
    inputs = {
        "tokens": np.array([[0, *tokens, 0]], dtype=np.int64),
        "style": style[len(tokens) - 1 : len(tokens)],
        "speed": np.array([1.0], dtype=np.float32),
    }
    expected, got = (session.run(None, inputs)[0] for session in sessions)
    assert expected.size > 24_000 and np.array_equal(expected, got)
