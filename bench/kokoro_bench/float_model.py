"""A float32 Kokoro-82M graph rebuilt from the int8 model's weights, for GPUs, with no hub download.

    uv run python -m kokoro_bench.float_model OUT_DIR [--model-dir INT8_DIR]

The CUDA provider runs none of the int8 model's integer kernels, so the model would fall back to the
CPU node by node: ``kokoro_server.engine.float_graph`` rebuilds each quantized operator as the float
operator it came from. The output is a model folder in the model-cache layout (manifest with every
sha256, voices copied), which the server loads like any other.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path

import onnx

from kokoro_core.model_cache import MANIFEST_NAME, FileEntry, Manifest, verify_directory
from kokoro_server.engine.float_graph import float_graph

FLOAT_ONNX = "onnx/model_float32_from_int8.onnx"


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
