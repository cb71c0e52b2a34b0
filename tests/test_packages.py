"""Each workspace package declares what it imports, the client stays light, and every module imports alone.

Every third-party module a package imports (anywhere in it, lazily or not) must come from a
distribution it declares, as a dependency or an extra: installed on its own, it works. The client
library must not pull the engine, the agent framework or the plotting stack. Each module, imported first
in a fresh interpreter, loads: no module works only after another one happened to be imported (an
import cycle does that), so a docs generator, a plugin host or a REPL may import any of them.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MEMBERS = {"core": "kokoro_core", "client": "kokoro_stream", "container": "kokoro_server", "agent": "kokoro_agent"}
MEMBERS["tools"] = "kokoro_tools"
MEMBERS["bench"] = "kokoro_bench"
WORKSPACE_MODULES = {
    "kokoro_core": "kokoro-stream-core",
    "kokoro_stream": "kokoro-stream",
    "kokoro_server": "kokoro-server",
    "kokoro_agent": "kokoro-agent",
    "kokoro_tools": "kokoro-stream-tools",
    "kokoro_bench": "kokoro-stream-bench",
}


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(member: str) -> tuple[str, set[str]]:
    project = tomllib.loads((ROOT / member / "pyproject.toml").read_text())["project"]
    requirements = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    names = {normalized(re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0]) for requirement in requirements}
    return normalized(project["name"]), names


def imported_roots(package: Path) -> set[str]:
    roots: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots.add(node.module.split(".")[0])
    return roots - set(sys.stdlib_module_names) - {"__future__"}


@pytest.mark.parametrize("member", sorted(MEMBERS))
def test_every_imported_module_comes_from_a_declared_distribution(member: str) -> None:
    name, allowed = declared(member)
    owners = packages_distributions()
    missing = {}
    for module in imported_roots(ROOT / member / MEMBERS[member]):
        if module == MEMBERS[member]:
            continue
        distributions = {WORKSPACE_MODULES[module]} if module in WORKSPACE_MODULES else set(owners.get(module, []))
        assert distributions, f"{name} imports {module}, which no installed distribution provides"
        if not {normalized(d) for d in distributions} & allowed:
            missing[module] = sorted(distributions)
    assert missing == {}, f"{name} imports modules it does not declare: {missing}"


def test_the_client_library_pulls_no_engine_agent_or_plotting_stack() -> None:
    project = tomllib.loads((ROOT / "client" / "pyproject.toml").read_text())["project"]
    direct = {normalized(re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0]) for r in project["dependencies"]}
    heavy = {"onnxruntime", "kokoro-onnx", "numpy", "soxr", "strands-agents", "bedrock-agentcore", "matplotlib"}
    assert direct & heavy == set() and "kokoro-server" not in direct
    assert (
        imported_roots(ROOT / "client" / "kokoro_stream") & {"kokoro_server", "kokoro_tools", "kokoro_agent"} == set()
    )


def test_the_core_needs_only_pydantic_and_defusedxml() -> None:
    """Both pure Python: pydantic for the protocol, defusedxml for SSML's parser (kokoro_core.ssml)."""
    _, core = declared("core")
    assert core == {"defusedxml", "pydantic", "pydantic-core"}
    assert imported_roots(ROOT / "core" / "kokoro_core") <= {"defusedxml", "pydantic", "pydantic_core"}


def module_names(package: Path, root: Path) -> list[str]:
    """Every module of ``package`` (a folder under ``root``), dotted, packages included."""
    names = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def imports_alone(module: str) -> str | None:
    """None when ``module`` imports first thing in a fresh interpreter; else the end of its traceback."""
    result = subprocess.run(
        [sys.executable, "-c", "import importlib, sys; importlib.import_module(sys.argv[1])", module],
        cwd=ROOT,  # the CDK app (stacks) imports from the repository root, as `cdk synth` runs it
        capture_output=True,
        text=True,
        timeout=300,
    )
    return None if result.returncode == 0 else result.stderr.strip().splitlines()[-1]


def test_every_module_imports_alone_in_a_fresh_interpreter() -> None:
    modules = [
        name for member, package in MEMBERS.items() for name in module_names(ROOT / member / package, ROOT / member)
    ]
    modules += module_names(ROOT / "stacks", ROOT)
    assert len(modules) > 100 and "kokoro_tools.commands" in modules and "stacks.handlers.hub" in modules
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        failures = {
            module: error for module, error in zip(modules, pool.map(imports_alone, modules), strict=True) if error
        }
    assert failures == {}
