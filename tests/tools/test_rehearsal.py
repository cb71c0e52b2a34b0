"""The first deploy rehearsed offline, in order, with the deploy-shaped model: the populator's handler fills an S3
stand-in from a hub stand-in, SageMaker's /opt/ml/model is laid out read-only and owned by another user, the
server starts as the image starts it, answers /ping, and speaks over POST and the bidirectional stream."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kokoro_core.model_cache import verify_directory
from kokoro_server.engine.device import GPU_MAX_BATCH
from kokoro_stream.cli import app
from kokoro_tools.deploy_shaped import ANOTHER_USER
from kokoro_tools.ports import free_port
from kokoro_tools.rehearsal import cdk_settings, rehearse

pytestmark = pytest.mark.model  # the server loads the deploy-shaped model


def test_the_first_deploy_goes_in_service_and_speaks(embedded_model_dir: Path) -> None:
    settings = cdk_settings()
    delivered: dict[str, object] = {}

    def look(line: str) -> None:
        """While the server runs: what SageMaker's folder holds, as the server reads it."""
        if found := re.match(r"/opt/ml/model: \d+ files at (\S+),", line):
            folder = Path(found.group(1))
            paths = [folder, *folder.rglob("*")]
            delivered["manifest"] = verify_directory(folder)  # every byte the populator wrote, as pinned
            delivered["writable"] = [path for path in paths if path.stat().st_mode & 0o222]
            delivered["owners"] = {(path.stat().st_uid, path.stat().st_gid) for path in paths}
            delivered["folders"] = {stat.S_IMODE(path.stat().st_mode) for path in paths if path.is_dir()}

    result = rehearse(port=free_port(), say=look)
    steps = result.steps
    assert steps[0].startswith(f"hub: {settings.model_source.source}, served on loopback")
    assert steps[1].startswith(f"model cache: the populator wrote {len(settings.model_source.files)} files")
    assert f"/{settings.cache_prefix}" in steps[1]
    assert delivered["manifest"].source == settings.model_source.source  # type: ignore[attr-defined]
    assert delivered["writable"] == [] and delivered["folders"] == {0o555}  # read-only, as SageMaker delivers it
    if os.geteuid() == 0:
        assert delivered["owners"] == {(ANOTHER_USER, ANOTHER_USER)}  # not the server's user
    assert "KOKORO_DEVICE=cuda" in steps[3]  # the GPU instance type's setting, on a host without a GPU
    spoken = [step for step in steps if step.startswith(("POST", "WS"))]
    routes = ["POST /invocations", "WS /invocations-bidirectional-stream", "WS /invocations-bidirectional-stream"]
    assert [step.split(":")[0] for step in spoken] == routes
    assert all("word marks on it" in step for step in spoken)
    (loaded,) = [event for event in result.events if event["event"] == "model_loaded"]
    assert loaded["interface"].startswith("tokens=input_ids, style=style, speed=speed, audio=waveform")
    assert loaded["source"] == settings.model_source.source
    assert "running on the CPU (KOKORO_ALLOW_CPU_FALLBACK)" in loaded["note"]  # and says so
    assert loaded["max_batch"] == GPU_MAX_BATCH and "batching off" not in loaded["note"]  # the GPU's batched plan
    assert any(event["event"] == "stopped" for event in result.events)  # SIGTERM, as SageMaker stops it


def test_the_rehearsal_is_a_command() -> None:
    result = CliRunner().invoke(app, ["rehearse", "--help"])
    assert result.exit_code == 0 and "Rehearse the first" in result.output


def test_the_rehearsal_finds_the_cdk_app_from_any_folder(tmp_path: Path) -> None:
    """The console script runs without the repository on sys.path, as `uv run kokoro-stream rehearse` does."""
    code = "from kokoro_tools.rehearsal import cdk_settings; print(cdk_settings().endpoint_name)"
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == cdk_settings().endpoint_name
