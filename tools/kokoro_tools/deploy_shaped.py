"""Model directories shaped as a deploy lays them out, built offline from the embedded model.

The default ``model_source`` (cdk.json) is onnx-community's fp32 export: ``onnx/model.onnx``, which takes
``input_ids``, ``style`` and ``speed`` and gives ``waveform``, with no durations output and no metadata,
beside 54 voices under ``voices/``. That file is not to be had offline, so this builds its stand-in from the
embedded int8 weights: the float graph rebuilt (``float_graph``), its inputs and outputs renamed as that
export names them, its metadata dropped. The voices are the very files the default ``model_source`` pins
(the embedded model's come from kokoro-js, which ships the same bytes), and the manifest is the one the
populator writes for that source, but for the graph's own sha256 and size.

Other interfaces a user may deploy are built the same way (``SHAPES``): kokoro-onnx's names, and an export
that gives its durations as an output and takes an int32 speed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import onnx
from onnx import TensorProto, helper

from kokoro_core.model_cache import MANIFEST_NAME, FileEntry, Manifest, verify_directory
from kokoro_server.engine.durations import durations_tensor
from kokoro_server.engine.embedded_model import cache_root, verified_model
from kokoro_server.engine.float_graph import float_graph

ROOT = Path(__file__).resolve().parents[2]
BUILD_VERSION = 1  # bump when what is built changes: a built directory is reused by its name


@dataclass(frozen=True)
class Shape:
    """How an export names its tensors and what it gives."""

    tokens: str
    audio: str
    durations_output: str | None = None  # the per-token durations as an output of this name
    int_speed: bool = False  # an int32 speed, cast to float inside the graph


SHAPES = {
    # onnx-community/Kokoro-82M-v1.0-ONNX, the default model_source (as kokoro.js feeds it).
    "onnx-community": Shape(tokens="input_ids", audio="waveform"),
    # kokoro-onnx's v1.0 export.
    "kokoro-onnx": Shape(tokens="tokens", audio="audio"),
    # An export that gives the durations too, and takes an int32 speed.
    "with-durations": Shape(tokens="input_ids", audio="waveform", durations_output="duration", int_speed=True),
}


def default_model_source() -> dict[str, Any]:
    """The ``model_source`` cdk.json deploys."""
    source: dict[str, Any] = json.loads((ROOT / "cdk.json").read_text())["context"]["model_source"]
    return source


def reshape(model: onnx.ModelProto, shape: Shape) -> None:
    """Rename ``model``'s tokens input and audio output (kokoro-onnx's names) as ``shape`` says, in place, add
    what it gives, and drop the metadata."""
    renames = {"tokens": shape.tokens, "audio": shape.audio}
    graph = model.graph
    if shape.durations_output:
        graph.node.append(helper.make_node("Identity", [durations_tensor(graph)], [shape.durations_output]))
        graph.output.append(helper.make_tensor_value_info(shape.durations_output, TensorProto.INT64, None))
    if shape.int_speed:
        renames["speed"] = "speed_float"
        graph.node.insert(0, helper.make_node("Cast", ["speed"], ["speed_float"], to=TensorProto.FLOAT))
    for node in graph.node:
        if node.op_type == "Cast" and list(node.output) == ["speed_float"]:
            continue
        node.input[:] = [renames.get(name, name) for name in node.input]
        node.output[:] = [renames.get(name, name) for name in node.output]
    for value in [*graph.input, *graph.output]:
        if value.name in ("tokens", "audio"):
            value.name = renames[value.name]
        elif value.name == "speed" and shape.int_speed:
            value.type.tensor_type.elem_type = TensorProto.INT32
    del model.metadata_props[:]


def build(out_dir: Path, shape: Shape, int8_dir: Path, manifest: Manifest, float32: bool = True) -> Manifest:
    """Write the model directory for ``shape`` into ``out_dir`` (which must not exist yet) from the int8 model
    directory ``int8_dir``: the graph at the default ``model_source``'s path, the voices it pins."""
    source = default_model_source()
    model = onnx.load(str(int8_dir / manifest.onnx))
    if float32:
        float_graph(model)
    reshape(model, shape)
    files: dict[str, FileEntry] = {}
    for name, pinned in source["files"].items():
        target = out_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if name == source["onnx"]:
            onnx.save(model, str(target))
            data = target.read_bytes()
            files[name] = FileEntry(hashlib.sha256(data).hexdigest(), len(data))
            continue
        shutil.copyfile(int8_dir / manifest.voices / Path(name).name, target)
        files[name] = FileEntry(pinned["sha256"], pinned["bytes"])
    written = Manifest(
        source=f"{source['repo']}@{source['revision']}",
        files=files,
        onnx=source["onnx"],
        voices=source["voices"],
        default_voice=manifest.default_voice,
    )
    (out_dir / MANIFEST_NAME).write_text(written.to_json())
    return verify_directory(out_dir)  # the voices' bytes checked against the pins they must match


def deploy_shaped(name: str = "onnx-community", float32: bool = True) -> Path:
    """The directory of ``SHAPES[name]``, built once in the model cache folder and verified on later calls."""
    shape = SHAPES[name]
    directory = cache_root() / f"deploy-shaped-{name}-{'fp32' if float32 else 'int8'}-v{BUILD_VERSION}"
    if (directory / MANIFEST_NAME).is_file():
        verify_directory(directory)
        return directory
    int8_dir, manifest = verified_model()
    with tempfile.TemporaryDirectory(dir=directory.parent, prefix=".building-") as scratch:
        staging = Path(scratch) / "model"
        build(staging, shape, int8_dir, manifest, float32)
        for path in [staging, *staging.rglob("*")]:  # as SageMaker delivers it: readable by every user
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        try:
            staging.rename(directory)
        except OSError:
            if not (directory / MANIFEST_NAME).is_file():  # lost a race to a concurrent build: keep the winner
                raise
    return directory
