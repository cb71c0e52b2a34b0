"""The client wheel alone: built, installed in a fresh virtual environment with only its dependencies
(from the package index), it runs the README's client example against a local server; and each
integration extra (Pipecat, LiveKit) installs cleanly, in an environment of its own, with the
framework's current release.

Run by .ci/run (it needs the package index, as installing does): uv run python .ci/client_wheel.py
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from kokoro_tools.ports import free_port, wait_ready

ROOT = Path(__file__).resolve().parents[1]
LOCAL_URL = "ws://127.0.0.1:8080/invocations-bidirectional-stream"
EXTRAS = {"pipecat": "pipecat-ai", "livekit": "livekit-agents"}
HEAVY = ("onnxruntime", "kokoro_onnx", "numpy", "soxr", "strands", "bedrock_agentcore", "matplotlib", "kokoro_server")


def run(*command: str | Path, **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], check=True, text=True, capture_output=True, **options)  # type: ignore[call-overload]


def main() -> int:
    uv = shutil.which("uv")
    assert uv, "uv is needed on PATH"
    with tempfile.TemporaryDirectory() as scratch:
        wheels = Path(scratch) / "wheels"
        for package in ("kokoro-stream-core", "kokoro-stream"):
            run(uv, "build", "--package", package, "--wheel", "--out-dir", wheels, "--quiet", cwd=ROOT)
        venv = Path(scratch) / "venv"
        run(uv, "venv", "--quiet", "--python", sys.executable, venv)
        python = venv / "bin" / "python"
        run(uv, "pip", "install", "--quiet", "--python", python, *sorted(wheels.glob("*.whl")))
        present = run(python, "-c", f"import importlib.util as u; print([m for m in {HEAVY!r} if u.find_spec(m)])")
        assert present.stdout.strip() == "[]", f"the client wheel pulled in {present.stdout.strip()}"
        commands = run(venv / "bin" / "kokoro-stream", "--help", env={**os.environ, "COLUMNS": "200"}).stdout
        assert " say " in commands and " demo " not in commands, commands  # the tools add theirs when installed
        for extra, framework in EXTRAS.items():
            version = install_extra(uv, wheels, extra, framework, Path(scratch))
            print(f"the client wheel's [{extra}] extra installs alone with {framework} {version}, its newest release")

        port = free_port()
        environment = {**os.environ, "KOKORO_ENGINE": "fake"}  # the protocol without the model
        server = subprocess.Popen(
            [uv, "run", "--locked", "kokoro-stream", "serve", "--port", str(port)],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_ready(f"http://127.0.0.1:{port}", server, timeout=120)
            section = (ROOT / "README.md").read_text().split("## The client", 1)[1]
            match = re.search(r"```python\n(.*?)```", section, re.S)
            assert match and LOCAL_URL in match.group(1), "the README's client example is missing"
            example = match.group(1).replace(LOCAL_URL, f"ws://127.0.0.1:{port}/invocations-bidirectional-stream")
            result = run(python, "-c", example, timeout=120)
        finally:
            server.terminate()
            server.wait(timeout=30)
    lines = result.stdout.splitlines()
    assert lines and lines[0].startswith("Sure, I can help with that.") and "pcm16 24000" in lines[0], lines
    print(f"the client wheel, installed alone, ran the README example: {lines[0]}")
    return 0


def install_extra(uv: str, wheels: Path, extra: str, framework: str, scratch: Path) -> str:
    """The wheel with one integration extra, in a fresh environment of its own: it resolves against the
    framework's newest release, and the integration module imports."""
    venv = scratch / f"venv-{extra}"
    run(uv, "venv", "--quiet", "--python", sys.executable, venv)
    python = venv / "bin" / "python"
    core, client = sorted(wheels.glob("kokoro_stream_core-*.whl")), sorted(wheels.glob("kokoro_stream-*.whl"))
    run(uv, "pip", "install", "--quiet", "--python", python, *core, f"{client[0]}[{extra}]")
    probe = f"import kokoro_stream.{extra}, importlib.metadata as m; print(m.version({framework!r}))"
    return run(python, "-c", probe).stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
