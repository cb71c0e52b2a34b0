"""Model directories in the model-cache layout, made on the fly for tests of the layout itself."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from kokoro_core.model_cache import MANIFEST_NAME, FileEntry, Manifest

SOURCE = "onnx-community/Kokoro-82M-v1.0-ONNX@1939ad2a8e416c0acfeecc08a694d14ef25f2231"
VOICE_BYTES = 510 * 256 * 4


def make_model_dir(
    root: Path, onnx_bytes: int = 64 * 1024, voices: tuple[str, ...] = ("af_heart", "am_michael")
) -> Manifest:
    rng = random.Random(11)
    files = {"onnx/model.onnx": rng.randbytes(onnx_bytes)}
    files.update({f"voices/{voice}.bin": rng.randbytes(VOICE_BYTES) for voice in voices})
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    manifest = Manifest(
        source=SOURCE,
        files={name: FileEntry(hashlib.sha256(data).hexdigest(), len(data)) for name, data in files.items()},
        onnx="onnx/model.onnx",
        voices="voices",
        default_voice=voices[0],
    )
    (root / MANIFEST_NAME).write_text(manifest.to_json())
    return manifest
