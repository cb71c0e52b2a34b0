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

import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import onnx
from onnx import TensorProto, helper

from kokoro_core.model_cache import MANIFEST_NAME, FileEntry, Manifest, sha256_file, verify_directory
from kokoro_server.engine.durations import durations_tensor
from kokoro_server.engine.embedded_model import cache_root, verified_model
from kokoro_server.engine.float_graph import float_graph

ROOT = Path(__file__).resolve().parents[2]
BUILD_VERSION = 1  # bump when what is built changes: a built directory is reused by its name
ANOTHER_USER = 65534  # nobody: what SageMaker's files are owned by is not documented, so not the server's user


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


def stacks_importable() -> None:
    """The CDK app's ``stacks`` package, which lives beside cdk.json and is not installed: importable from
    wherever the command runs, as ``cdk`` runs app.py from the repository root."""
    os.environ.setdefault("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")  # the CDK's banner on Node.js 20
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))


def cdk_settings() -> Any:
    """The settings ``cdk deploy`` would deploy with: cdk.json's context, validated as app.py validates it."""
    stacks_importable()
    from stacks.config import settings_from_context

    return settings_from_context(json.loads((ROOT / "cdk.json").read_text())["context"])


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
    settings = cdk_settings()
    source = settings.model_source
    model = onnx.load(str(int8_dir / manifest.onnx))
    if float32:
        float_graph(model)
    reshape(model, shape)
    files: dict[str, FileEntry] = {}
    for name, pinned in source.files.items():
        target = out_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if name == source.onnx:
            onnx.save(model, str(target))
            files[name] = FileEntry(*sha256_file(target))
            continue
        shutil.copyfile(int8_dir / manifest.voices / Path(name).name, target)
        files[name] = FileEntry(pinned.sha256, pinned.bytes)
    written = Manifest(
        source=source.source,
        files=files,
        onnx=source.onnx,
        voices=source.voices,
        default_voice=settings.default_voice,
    )
    (out_dir / MANIFEST_NAME).write_text(written.to_json())
    return verify_directory(out_dir)  # the voices' bytes checked against the pins they must match


def set_modes(folder: Path, read_only: bool) -> None:
    """``folder`` and everything in it readable by every user and, unless ``read_only``, writable by its owner.
    Read-only is how SageMaker delivers ``/opt/ml/model``: run as root, it is also given to another user."""
    for path in sorted([folder, *folder.rglob("*")], reverse=True):  # files before their folders
        if read_only and os.geteuid() == 0:
            os.chown(path, ANOTHER_USER, ANOTHER_USER)
        if path.is_dir():
            path.chmod(0o555 if read_only else 0o755)
        else:
            path.chmod(0o444 if read_only else 0o644)


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
        set_modes(staging, read_only=False)  # readable by every user, as SageMaker delivers it
        try:
            staging.rename(directory)
        except OSError:
            if not (directory / MANIFEST_NAME).is_file():  # lost a race to a concurrent build: keep the winner
                raise
    return directory
