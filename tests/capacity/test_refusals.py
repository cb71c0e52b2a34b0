"""What the capacity tool says instead of a traceback. Where an extra is not installed it goes on without the
plot and says so, and refuses a server started here before starting anything, naming the extra (the wheel
installed alone is checked for real by .ci/wheels.py; here the extras' modules are hidden from the lookup).
A server that does not answer, or a log that holds nothing, is a clear refusal too."""

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


def says(output: str, text: str) -> bool:
    """Whether an error panel says ``text``: the panel wraps long words (paths) too, so spacing is not compared."""
    return "".join(text.split()) in "".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


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
        (["measure", "--hold", "1", "--window", "1"], "measuring with no --url and no --endpoint starts a server"),
        (["measure", "--emulate", "--hold", "1", "--window", "1"], "--emulate starts a server and the emulator"),
        (["duty", "--seconds", "1"], "measuring with no --url and no --endpoint starts a server"),
        (["scale-out"], "capacity scale-out without --endpoint starts a server and the emulator"),
    ],
)
def test_a_server_started_here_without_the_local_extra_is_refused_naming_it(
    arguments: list[str], what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hide(monkeypatch, kokoro_capacity.local, "kokoro_server")
    result = CliRunner().invoke(app, ["capacity", *arguments, "--out", str(tmp_path)], env={"TERMINAL_WIDTH": "400"})
    assert result.exit_code == 2, result.output
    assert says(result.output, what)
    assert says(result.output, "kokoro_server is not installed: install kokoro-stream-capacity[local]")
    assert says(result.output, "or give --endpoint" if arguments[0] == "scale-out" else "or give --url")
    assert not any(tmp_path.iterdir())  # refused before anything ran or was written


def test_a_url_nobody_answers_at_is_refused_before_measuring(tmp_path: Path) -> None:
    from kokoro_tools.ports import free_port

    url = f"http://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(
        app, ["capacity", "measure", "--url", url, "--out", str(tmp_path)], env={"TERMINAL_WIDTH": "400"}
    )
    assert result.exit_code == 2, result.output
    assert says(result.output, f"no speech server answered at {url}/ping")
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(("log", "said"), [("missing.log", "missing.log"), ("empty.log", "no load samples")])
def test_duty_from_a_log_that_holds_nothing_is_refused(log: str, said: str, tmp_path: Path) -> None:
    (tmp_path / "empty.log").write_text("")
    arguments = ["capacity", "duty", "--server-log", str(tmp_path / log), "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(app, arguments, env={"TERMINAL_WIDTH": "400"})
    assert result.exit_code == 2, result.output
    assert says(result.output, said)
