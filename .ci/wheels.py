"""The wheels a user installs alone, each in a fresh virtual environment with only its dependencies (from
the package index):

- the client: it runs the README's client example against a local server, and each integration extra
  (Pipecat, LiveKit) installs cleanly, in an environment of its own, with the framework's current release;
- the capacity tool: without the server, the tools or the bench, its commands run (``--help``, a plan and a
  validation from this repository's measurement), a local server is refused with what to install, and
  the ``plot`` extra draws the plot.

Run by .ci/run (it needs the package index, as installing does): uv run python .ci/wheels.py
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kokoro_tools.ports import free_port, wait_ready

ROOT = Path(__file__).resolve().parents[1]
LOCAL_URL = "ws://127.0.0.1:8080/invocations-bidirectional-stream"
EXTRAS = {"pipecat": "pipecat-ai", "livekit": "livekit-agents"}
HEAVY = ("onnxruntime", "kokoro_onnx", "numpy", "soxr", "strands", "bedrock_agentcore", "matplotlib", "kokoro_server")
CAPACITY_COMMANDS = ("measure", "duty", "scale-out", "plan", "validate")
MEASUREMENT = ROOT / "docs" / "bench" / "capacity" / "server" / "measure.json"
SCALE_OUT = ROOT / "docs" / "bench" / "capacity" / "scale-out" / "scale-out.json"


def run(*command: str | Path, **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], check=True, text=True, capture_output=True, **options)  # type: ignore[call-overload]


def main() -> int:
    uv = shutil.which("uv")
    assert uv, "uv is needed on PATH"
    with tempfile.TemporaryDirectory() as scratch:
        wheels = Path(scratch) / "wheels"
        for package in ("kokoro-stream-core", "kokoro-stream", "kokoro-stream-capacity"):
            run(uv, "build", "--package", package, "--wheel", "--out-dir", wheels, "--quiet", cwd=ROOT)
        venv = Path(scratch) / "venv"
        run(uv, "venv", "--quiet", "--python", sys.executable, venv)
        python = venv / "bin" / "python"
        run(uv, "pip", "install", "--quiet", "--python", python, *client_wheels(wheels))
        present = run(python, "-c", f"import importlib.util as u; print([m for m in {HEAVY!r} if u.find_spec(m)])")
        assert present.stdout.strip() == "[]", f"the client wheel pulled in {present.stdout.strip()}"
        commands = run(venv / "bin" / "kokoro-stream", "--help", env={**os.environ, "COLUMNS": "200"}).stdout
        assert " say " in commands and " demo " not in commands, commands  # the tools add theirs when installed
        # The other environments are independent of each other and of the README example: installing is
        # mostly waiting on the index and the disk, so they are made meanwhile.
        with ThreadPoolExecutor() as pool:
            extras = {
                extra: pool.submit(install_extra, uv, wheels, extra, framework, Path(scratch))
                for extra, framework in EXTRAS.items()
            }
            capacity = pool.submit(capacity_alone, uv, wheels, Path(scratch))
            example = readme_example(uv, python)
            for extra, installed in extras.items():
                with_framework = f"{EXTRAS[extra]} {installed.result()}"
                print(f"the client wheel's [{extra}] extra installs alone with {with_framework}, its newest release")
            print(capacity.result())
    print(f"the client wheel, installed alone, ran the README example: {example}")
    return 0


def readme_example(uv: str, python: Path) -> str:
    """The README's client example, run in the wheel's environment against a local server on the fake engine;
    its first line."""
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
    return lines[0]


def install_extra(uv: str, wheels: Path, extra: str, framework: str, scratch: Path) -> str:
    """The wheel with one integration extra, in a fresh environment of its own: it resolves against the
    framework's newest release, and the integration module imports."""
    venv = scratch / f"venv-{extra}"
    run(uv, "venv", "--quiet", "--python", sys.executable, venv)
    python = venv / "bin" / "python"
    core, client = client_wheels(wheels)
    run(uv, "pip", "install", "--quiet", "--python", python, core, f"{client}[{extra}]")
    probe = f"import kokoro_stream.{extra}, importlib.metadata as m; print(m.version({framework!r}))"
    return run(python, "-c", probe).stdout.strip()


def client_wheels(wheels: Path) -> tuple[Path, Path]:
    """The core's wheel and the client's."""
    (core,), (client,) = wheels.glob("kokoro_stream_core-*.whl"), wheels.glob("kokoro_stream-*.whl")
    return core, client


def capacity_alone(uv: str, wheels: Path, scratch: Path) -> str:
    """The capacity tool with the client and the core, nothing else of this project: the commands a user runs
    against their endpoint work, and what needs more says what to install."""
    venv = scratch / "venv-capacity"
    run(uv, "venv", "--quiet", "--python", sys.executable, venv)
    python, program = venv / "bin" / "python", venv / "bin" / "kokoro-stream"
    (capacity,) = wheels.glob("kokoro_stream_capacity-*.whl")
    run(uv, "pip", "install", "--quiet", "--python", python, *client_wheels(wheels), capacity)
    absent = HEAVY + ("kokoro_tools", "kokoro_bench")
    present = run(python, "-c", f"import importlib.util as u; print([m for m in {absent!r} if u.find_spec(m)])")
    assert present.stdout.strip() == "[]", f"the capacity wheel pulled in {present.stdout.strip()}"
    environment = {**os.environ, "COLUMNS": "200"}
    listed = run(program, "capacity", "--help", env=environment).stdout
    assert all(f" {command} " in listed for command in CAPACITY_COMMANDS), listed
    for command in CAPACITY_COMMANDS:
        run(program, "capacity", command, "--help", env=environment)
    out = scratch / "capacity-results"
    plan = run(
        program, "capacity", "plan", "--measure", MEASUREMENT, "--scale-out", SCALE_OUT, "--scale-out-seconds", "300",
        "--growth", "0.5", "--peak-sessions", "20", "--instance-type", "ml.c7i.xlarge",
        "--profile", out / "profile.json", "--out", out, "--repository", ROOT,
    ).stdout  # fmt: skip
    assert "target 1, instances 3-20" in plan, plan
    validate = [program, "capacity", "validate", "--profile", out / "profile.json", "--measure", MEASUREMENT]
    drawn = run(*validate, "--trace", "steady", "--out", out).stdout
    assert "no plot drawn" in drawn and "[plot]" in drawn and not (out / "validate-steady.png").exists(), drawn
    measure_here = [program, "capacity", "measure", "--hold", "1", "--window", "1"]
    refused = subprocess.run(measure_here, capture_output=True, text=True, env=environment)
    assert refused.returncode == 2 and "kokoro-stream-capacity[local]" in refused.stderr, refused.stderr
    run(uv, "pip", "install", "--quiet", "--python", python, f"{capacity}[plot]")
    run(*validate, "--trace", "steady", "--out", out / "plotted")  # a folder the plot is the first file of
    assert (out / "plotted" / "validate-steady.png").read_bytes()[:4] == b"\x89PNG"
    return f"the capacity wheel, installed alone, lists {', '.join(CAPACITY_COMMANDS)}; plans: {plan.strip()}"


if __name__ == "__main__":
    sys.exit(main())
