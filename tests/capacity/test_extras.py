"""What the capacity tool does where an extra is not installed: it goes on without the plot and says so, and
refuses a server started here before starting anything, naming the extra. (The wheel installed alone is
checked for real by .ci/wheels.py; here the extras' modules are hidden from the lookup.)"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kokoro_capacity.local
import kokoro_capacity.plots
from kokoro_stream.cli import app

from .test_plan import run_plan


def hide(monkeypatch: pytest.MonkeyPatch, module: Any, *names: str) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(module, "find_spec", lambda name, *rest: None if name in names else real(name, *rest))


def unwrapped(output: str) -> str:
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


def test_without_matplotlib_validate_writes_its_files_and_says_no_plot_was_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_plan(tmp_path, "--instance-type", "ml.c7i.xlarge").exit_code == 0
    hide(monkeypatch, kokoro_capacity.plots, "matplotlib")
    arguments = ["capacity", "validate", "--profile", str(tmp_path / "profile.json")]
    arguments += ["--measure", str(tmp_path / "measure.json"), "--trace", "steady", "--out", str(tmp_path)]
    result = CliRunner().invoke(app, arguments, env={"TERMINAL_WIDTH": "400"})
    assert result.exit_code == 0, result.output
    assert "no plot drawn: matplotlib is not installed (kokoro-stream-capacity[plot])" in result.output
    assert json.loads((tmp_path / "validate-steady.json").read_text())["results"]
    assert not (tmp_path / "validate-steady.png").exists()


@pytest.mark.parametrize(
    ("arguments", "what"),
    [
        (["measure", "--hold", "1", "--window", "1"], "a server started here"),
        (["measure", "--emulate", "--hold", "1", "--window", "1"], "--emulate"),
        (["duty", "--seconds", "1"], "a server started here"),
        (["scale-out"], "capacity scale-out without --endpoint"),
    ],
)
def test_a_server_started_here_without_the_local_extra_is_refused_naming_it(
    arguments: list[str], what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hide(monkeypatch, kokoro_capacity.local, "kokoro_server")
    result = CliRunner().invoke(app, ["capacity", *arguments, "--out", str(tmp_path)], env={"TERMINAL_WIDTH": "400"})
    assert result.exit_code == 2, result.output
    said = unwrapped(result.output)
    assert what in said and "install kokoro-stream-capacity[local]" in said and "--url" in said
    assert not any(tmp_path.iterdir())  # refused before anything ran or was written
