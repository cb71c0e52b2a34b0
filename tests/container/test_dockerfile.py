"""What can be checked about the image without a Docker engine: contract, layers, dependencies."""

from __future__ import annotations

import json
import pkgutil
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

from tests.image_imports import image_modules, imported_in_image

ROOT = Path(__file__).resolve().parents[2]
CONTEXT = ROOT  # the build context: container/Dockerfile copies the server and the shared core
SERVER = ROOT / "container"
BIDI_LABEL = "com.amazonaws.sagemaker.capabilities.bidirectional-streaming=true"
FLAVORS = ("cpu", "gpu")
# The distribution that provides the onnxruntime module in each flavor.
ONNXRUNTIME = {"cpu": "onnxruntime", "gpu": "onnxruntime-gpu"}
COPIED = ("kokoro_server", "kokoro_core")  # the image copies these packages' source
DOCKERFILE = SERVER / "Dockerfile"
JAPANESE = SERVER / "requirements-japanese.txt"  # installed into either flavor unless JAPANESE=0
READERS = ("misaki.espeak", "misaki.zh", "misaki.cutlet", "jieba", "pypinyin", "cn2an", "fugashi", "unidic_lite")


def instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", (SERVER / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def instruction(name: str) -> list[str]:
    return [argument for keyword, argument in instructions() if keyword == name]


def requirement_pins(path: Path) -> dict[str, str]:
    pins = re.findall(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s\\]+)", path.read_text(), re.MULTILINE)
    return {name.lower().replace("_", "-"): version for name, version in pins}


def test_image_carries_the_bidirectional_label_port_and_serve_entrypoint():
    assert BIDI_LABEL in " ".join(instruction("LABEL"))
    assert instruction("EXPOSE") == ["8080"]
    assert json.loads(instruction("ENTRYPOINT")[-1]) == ["python", "-m", "kokoro_server"]  # exec form
    assert json.loads(instruction("CMD")[-1]) == ["serve"]
    assert instruction("FROM") == ["${BASE_IMAGE}"]


def test_both_images_start_from_the_same_base_image_pinned_by_digest():
    pinned = re.compile(r"ARG BASE_IMAGE=(python:3\.12-slim-bookworm@sha256:[0-9a-f]{64})\nFROM \$\{BASE_IMAGE\}\n")
    bases = {path: pinned.findall(path.read_text()) for path in (SERVER / "Dockerfile", ROOT / "agent" / "Dockerfile")}
    assert all(len(found) == 1 for found in bases.values()), bases
    assert len({found[0] for found in bases.values()}) == 1, bases


def in_build_context(path: str) -> bool:
    """Whether .dockerignore lets ``path`` into the context: the last pattern matching it or a parent
    decides, and a ``!`` pattern lets it in."""
    patterns = [line.strip() for line in (CONTEXT / ".dockerignore").read_text().splitlines()]
    parts = Path(path).parts
    included = True
    for pattern in (p for p in patterns if p and not p.startswith("#")):
        negated = pattern.startswith("!")
        glob = pattern.lstrip("!")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        if any(fnmatch(prefix, glob) for prefix in prefixes):
            included = negated
    return included


def test_every_copied_path_is_in_the_build_context_and_not_ignored():
    assert [argument.split("=")[0] for argument in instruction("ARG")] == ["BASE_IMAGE", "FLAVOR", "JAPANESE"]
    copied = []
    for argument in instruction("COPY"):
        for flavor in FLAVORS:
            source = argument.split()[0].replace("${FLAVOR}", flavor).rstrip("/")
            assert (CONTEXT / source).exists(), source
            assert in_build_context(source) and not source.endswith(".in"), source
            copied.append(source)
    assert "core/kokoro_core" in copied and "container/kokoro_server" in copied
    assert not in_build_context(".venv") and not in_build_context("container/requirements-cpu.in")


def test_dependencies_install_by_hash_before_the_code_is_copied():
    kinds = [keyword for keyword, _ in instructions()]
    install = next(i for i, (k, a) in enumerate(instructions()) if k == "RUN" and "requirements.txt" in a)
    code = next(i for i, (k, a) in enumerate(instructions()) if k == "COPY" and "kokoro_core" in a)
    assert install < code and "RUN" not in kinds[code:]
    assert "--require-hashes" in instructions()[install][1]
    for flavor in FLAVORS:
        compiled = SERVER / f"requirements-{flavor}.txt"
        assert compiled.read_text().count("--hash=sha256:") >= len(requirement_pins(compiled))


def test_the_japanese_reader_installs_by_hash_at_the_versions_the_tests_run():
    """requirements-japanese.txt (left out with --build-arg JAPANESE=0) pins what uv.lock runs, by hash."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    locked = {package["name"]: package["version"] for package in lock["package"]}
    declared = requirement_pins(SERVER / "requirements-japanese.in")
    assert declared and all(locked[name] == version for name, version in declared.items()), declared
    compiled = requirement_pins(JAPANESE)
    assert {name: compiled[name] for name in declared} == declared
    assert JAPANESE.read_text().count("--hash=sha256:") >= len(compiled)
    assert "ARG JAPANESE=1" in DOCKERFILE.read_text()


def test_image_pins_match_the_versions_the_tests_run():
    """Both flavors run what the tests run, except the GPU flavor's ONNX Runtime: the newest CUDA 12 build."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    locked = {package["name"]: package["version"] for package in lock["package"]}
    for flavor in FLAVORS:
        declared = requirement_pins(SERVER / f"requirements-{flavor}.in")
        for name, version in declared.items():
            if name != "onnxruntime-gpu":
                assert locked[name] == version, f"{flavor} {name}: image {version}, uv.lock {locked[name]}"
        # The compiled set installs exactly what the flavor declares.
        compiled = requirement_pins(SERVER / f"requirements-{flavor}.txt")
        assert {name: compiled[name] for name in declared} == declared
    assert requirement_pins(SERVER / "requirements-gpu.in")["onnxruntime-gpu"].startswith("1.26.")


def test_every_module_the_server_imports_is_installed_by_the_image():
    """Import the whole server package as each flavor's image would (tests/image_imports.py)."""
    import kokoro_server

    # The embedded model, the kokoro-stream commands and the OpenAI API's PyAV encoders (the openai extra,
    # imported when a compressed format or a stretched speed is asked for) are for local runs only.
    local_only = (
        "kokoro_server.engine.embedded_model",
        "kokoro_server.commands",
        "kokoro_server.__main__",
        *(f"kokoro_server.openai_api.{name}" for name in ("compressed", "time_stretch", "pcm_frames")),
    )
    modules = [
        module.name
        for module in pkgutil.walk_packages(kokoro_server.__path__, "kokoro_server.")
        if module.name not in local_only
    ]
    # The language readers load on first use (kokoro_server/text/g2p.py): import them as the image would too.
    modules += list(READERS)
    for flavor in FLAVORS:
        image = requirement_pins(SERVER / f"requirements-{flavor}.txt") | requirement_pins(JAPANESE)

        def installed(name: str, image: dict[str, str] = image, flavor: str = flavor) -> bool:
            return (ONNXRUNTIME[flavor] if name == "onnxruntime" else name) in image

        loaded = imported_in_image(modules, image_modules(installed, COPIED))
        assert "onnxruntime" in loaded and {"jieba", "fugashi", "unidic_lite", "pypinyin"} <= set(loaded)
        other = ONNXRUNTIME["gpu" if flavor == "cpu" else "cpu"]
        assert ONNXRUNTIME[flavor] in image and other not in image
