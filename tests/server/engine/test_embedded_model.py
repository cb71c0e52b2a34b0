"""The embedded default model: built from PyPI and npm packages, verified, rebuilt when damaged."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kokoro_core.model_cache import verify_directory
from kokoro_server.engine import embedded_model


def test_embedded_model_is_a_verified_model_cache(embedded_model_dir: Path):
    manifest = verify_directory(embedded_model_dir)
    assert manifest.onnx == embedded_model.MODEL_FILE and manifest.default_voice == "af_heart"
    assert len(manifest.voice_names) == 54
    for name, sha256 in embedded_model.VOICE_SHA256.items():
        assert manifest.files[f"voices/{name}.bin"].sha256 == sha256


def test_a_damaged_cache_is_rebuilt_from_the_packages(embedded_model_dir: Path, tmp_path, monkeypatch):
    monkeypatch.setenv("KOKORO_CACHE_DIR", str(tmp_path))
    built = embedded_model.model_directory()
    voice = built / "voices" / "am_michael.bin"
    voice.write_bytes(b"\1" * voice.stat().st_size)
    rebuilt = embedded_model.model_directory()
    assert rebuilt == built
    assert hashlib.sha256(voice.read_bytes()).hexdigest() == embedded_model.VOICE_SHA256["am_michael"]


def test_without_npm_the_error_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("KOKORO_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))  # no npm anywhere
    with pytest.raises(embedded_model.EmbeddedModelError, match="npm is not on PATH.*--model-dir"):
        embedded_model.model_directory()
    assert not any(tmp_path.iterdir())  # nothing half-built left behind
