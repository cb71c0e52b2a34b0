"""The model-cache layout: manifest round trip, verification, prefixes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kokoro_core.model_cache import (
    MANIFEST_NAME,
    FileEntry,
    Manifest,
    ModelCacheError,
    cache_prefix,
    verify_directory,
)
from tests.model_dirs import SOURCE, make_model_dir


def test_manifest_round_trips_through_json(tmp_path: Path) -> None:
    manifest = make_model_dir(tmp_path)
    document = json.loads(manifest.to_json())
    assert document["model"] == "kokoro-82m"
    assert document["sample_rate"] == 24000
    assert document["default_voice"] == "af_heart"
    assert Manifest.from_json(manifest.to_json()) == manifest
    assert manifest.voice_names == ("af_heart", "am_michael")


def test_verified_directory_returns_its_manifest(tmp_path: Path) -> None:
    manifest = make_model_dir(tmp_path)
    assert verify_directory(tmp_path) == manifest


def test_directory_without_manifest_is_incomplete(tmp_path: Path) -> None:
    make_model_dir(tmp_path)
    (tmp_path / MANIFEST_NAME).unlink()
    with pytest.raises(ModelCacheError, match="has no manifest.json: it is not a complete model cache"):
        verify_directory(tmp_path)


def test_every_missing_or_altered_file_is_named(tmp_path: Path) -> None:
    make_model_dir(tmp_path)
    (tmp_path / "voices/am_michael.bin").unlink()
    model = tmp_path / "onnx/model.onnx"
    data = bytearray(model.read_bytes())
    data[100] ^= 0xFF
    model.write_bytes(bytes(data))
    (tmp_path / "voices/af_heart.bin").write_bytes(b"short")
    with pytest.raises(ModelCacheError) as caught:
        verify_directory(tmp_path)
    message = str(caught.value)
    assert "voices/am_michael.bin: missing" in message
    assert "onnx/model.onnx: sha256" in message
    assert "voices/af_heart.bin: 5 bytes, manifest says 522240" in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must hold a JSON object"),
        ('{"source": "x"}', "lacks the key 'files'"),
    ],
)
def test_malformed_manifest_says_what_is_wrong(tmp_path: Path, text: str, expected: str) -> None:
    (tmp_path / MANIFEST_NAME).write_text(text)
    with pytest.raises(ModelCacheError, match=expected):
        verify_directory(tmp_path)


def test_manifest_rules(tmp_path: Path) -> None:
    entry = FileEntry("a" * 64, 1)
    with pytest.raises(ModelCacheError, match="must be a plain relative path"):
        Manifest(
            source=SOURCE,
            files={"../etc/passwd": entry, "v/a.bin": entry},
            onnx="v/a.bin",
            voices="v",
            default_voice="a",
        )
    with pytest.raises(ModelCacheError, match="onnx file 'm.onnx' is not among the listed files"):
        Manifest(source=SOURCE, files={"v/a.bin": entry}, onnx="m.onnx", voices="v", default_voice="a")
    with pytest.raises(ModelCacheError, match="default voice 'b' is not in the cache; choose one of: a"):
        Manifest(source=SOURCE, files={"m.onnx": entry, "v/a.bin": entry}, onnx="m.onnx", voices="v", default_voice="b")
    with pytest.raises(ModelCacheError, match="not 64 lowercase hex digits"):
        FileEntry("ABC", 1)
    single = Manifest(
        source=SOURCE, files={"m.onnx": entry, "af.bin": entry}, onnx="m.onnx", voices="af.bin", default_voice="af"
    )
    assert single.voice_names == ("af",)


def test_prefix_changes_with_revision_and_file_selection() -> None:
    files = ["onnx/model.onnx", "voices/af_heart.bin"]
    prefix = cache_prefix(SOURCE, files)
    assert prefix.startswith("models/onnx-community--Kokoro-82M-v1.0-ONNX/1939ad2a8e416c0acfeecc08a694d14ef25f2231/")
    assert prefix.endswith("/")
    assert cache_prefix(SOURCE, list(reversed(files))) == prefix
    assert cache_prefix(SOURCE.replace("1939ad", "0000ad"), files) != prefix
    assert cache_prefix(SOURCE, files[:1]) != prefix
    with pytest.raises(ModelCacheError, match="must look like '<repo>@<revision>'"):
        cache_prefix("no-revision", files)
