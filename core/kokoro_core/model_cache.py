"""The model-cache layout shared by the stacks, the cache tools and the server.

A model cache is a folder (locally) or an S3 prefix (in AWS) holding the Kokoro-82M ONNX
export, its voice style vectors and ``manifest.json``, written last: a folder or prefix
without a manifest is incomplete. The manifest lists every file with its sha256 and size, so
whoever reads the cache can prove every byte before using it.

Standard library only: this module also runs inside the cache-populating Lambda function.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

MANIFEST_NAME = "manifest.json"
MODEL_NAME = "kokoro-82m"
SAMPLE_RATE = 24000
HASH_CHUNK_BYTES = 8 * 1024 * 1024

_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class ModelCacheError(ValueError):
    """The cache, or a description of it, is incomplete or inconsistent."""


@dataclass(frozen=True)
class FileEntry:
    """What a cached file must be: its sha256 (lowercase hex) and its size in bytes."""

    sha256: str
    bytes: int

    def __post_init__(self) -> None:
        if not _SHA256.match(self.sha256):
            raise ModelCacheError(f"sha256 {self.sha256!r} is not 64 lowercase hex digits")
        if self.bytes < 0:
            raise ModelCacheError(f"size {self.bytes} is negative")


@dataclass(frozen=True)
class Manifest:
    """The contents of ``manifest.json``: what the cache holds and how to use it."""

    source: str
    files: dict[str, FileEntry]
    onnx: str
    voices: str
    default_voice: str
    model: str = MODEL_NAME
    sample_rate: int = SAMPLE_RATE
    voice_names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        for name in self.files:
            check_relative_path(name)
        if self.onnx not in self.files:
            raise ModelCacheError(f"onnx file {self.onnx!r} is not among the listed files")
        voices = voice_files(self.files, self.voices)
        if not voices:
            raise ModelCacheError(f"voices {self.voices!r} names no listed file: give a .bin file or a folder of them")
        object.__setattr__(self, "voice_names", tuple(sorted(voices)))
        if self.default_voice not in voices:
            raise ModelCacheError(
                f"default voice {self.default_voice!r} is not in the cache; choose one of: {', '.join(sorted(voices))}"
            )

    def to_json(self) -> str:
        document = {
            "model": self.model,
            "source": self.source,
            "sample_rate": self.sample_rate,
            "files": {
                name: {"sha256": entry.sha256, "bytes": entry.bytes} for name, entry in sorted(self.files.items())
            },
            "onnx": self.onnx,
            "voices": self.voices,
            "default_voice": self.default_voice,
        }
        return json.dumps(document, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> Manifest:
        try:
            document = json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ModelCacheError(f"{MANIFEST_NAME} is not valid JSON: {error}") from error
        if not isinstance(document, dict):
            raise ModelCacheError(f"{MANIFEST_NAME} must hold a JSON object")
        try:
            files = {
                name: FileEntry(sha256=str(entry["sha256"]), bytes=int(entry["bytes"]))
                for name, entry in dict(document["files"]).items()
            }
            return cls(
                model=str(document.get("model", MODEL_NAME)),
                source=str(document["source"]),
                sample_rate=int(document.get("sample_rate", SAMPLE_RATE)),
                files=files,
                onnx=str(document["onnx"]),
                voices=str(document["voices"]),
                default_voice=str(document["default_voice"]),
            )
        except KeyError as error:
            raise ModelCacheError(f"{MANIFEST_NAME} lacks the key {error}") from error
        except (TypeError, ValueError) as error:
            if isinstance(error, ModelCacheError):
                raise
            raise ModelCacheError(f"{MANIFEST_NAME} is malformed: {error}") from error


def check_relative_path(name: str) -> str:
    """Reject names that could escape the cache folder or prefix."""
    path = PurePosixPath(name)
    if not name or path.is_absolute() or ".." in path.parts or "\\" in name or name != str(path):
        raise ModelCacheError(f"file name {name!r} must be a plain relative path like 'voices/af_heart.bin'")
    if name == MANIFEST_NAME:
        raise ModelCacheError(f"{MANIFEST_NAME} cannot list itself")
    return name


def voice_files(names: dict[str, Any] | list[str], voices: str) -> dict[str, str]:
    """Map voice name to file for a voices folder (``voices``) or a single ``.bin`` file."""
    folder = voices.rstrip("/")
    found: dict[str, str] = {}
    for name in names:
        path = PurePosixPath(name)
        if path.suffix != ".bin":
            continue
        if name == folder or str(path.parent) == folder:
            found[path.stem] = name
    return found


def sha256_stream(stream: BinaryIO) -> tuple[str, int]:
    """Hash a binary stream; return (sha256 hex, size)."""
    digest = hashlib.sha256()
    size = 0
    while chunk := stream.read(HASH_CHUNK_BYTES):
        digest.update(chunk)
        size += len(chunk)
    return digest.hexdigest(), size


def sha256_file(path: Path) -> tuple[str, int]:
    with path.open("rb") as stream:
        return sha256_stream(stream)


def read_manifest(directory: Path) -> Manifest:
    path = directory / MANIFEST_NAME
    if not path.is_file():
        raise ModelCacheError(
            f"{directory} has no {MANIFEST_NAME}: it is not a complete model cache "
            "(the manifest is written last, after every file is in place)"
        )
    return Manifest.from_json(path.read_bytes())


def verify_directory(directory: Path) -> Manifest:
    """Check every file the manifest lists, byte for byte; raise on any gap or mismatch."""
    manifest = read_manifest(directory)
    problems = []
    for name, expected in sorted(manifest.files.items()):
        path = directory / name
        if not path.is_file():
            problems.append(f"{name}: missing")
            continue
        actual_sha256, actual_bytes = sha256_file(path)
        if actual_bytes != expected.bytes:
            problems.append(f"{name}: {actual_bytes} bytes, manifest says {expected.bytes}")
        elif actual_sha256 != expected.sha256:
            problems.append(f"{name}: sha256 {actual_sha256}, manifest says {expected.sha256}")
    if problems:
        raise ModelCacheError(f"model cache {directory} failed verification: " + "; ".join(problems))
    return manifest


def cache_prefix(source: str, file_names: list[str] | dict[str, Any], root: str = "models") -> str:
    """The S3 prefix for a model source: one per repository, revision and file selection.

    A new revision or a different selection of files lands in a new prefix, so a deployed
    endpoint keeps reading the prefix it was created with until it is updated.
    """
    repo, _, revision = source.partition("@")
    if not repo or not revision:
        raise ModelCacheError(f"source {source!r} must look like '<repo>@<revision>'")
    selection = hashlib.sha256("\n".join(sorted(file_names)).encode()).hexdigest()[:12]
    return f"{root}/{repo.replace('/', '--')}/{revision}/{selection}/"
