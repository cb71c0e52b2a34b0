"""Each workspace package declares what it imports, and the client stays light.

Every third-party module a package imports (anywhere in it, lazily or not) must come from a
distribution it declares, as a dependency or an extra: installed on its own, it works. The client
library must not pull the engine, the agent framework or the plotting stack.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MEMBERS = {"core": "kokoro_core", "client": "kokoro_stream", "container": "kokoro_server", "agent": "kokoro_agent"}
MEMBERS["tools"] = "kokoro_tools"
WORKSPACE_MODULES = {
    "kokoro_core": "kokoro-stream-core",
    "kokoro_stream": "kokoro-stream",
    "kokoro_server": "kokoro-server",
    "kokoro_agent": "kokoro-agent",
    "kokoro_tools": "kokoro-stream-tools",
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


def test_the_core_needs_only_pydantic() -> None:
    _, core = declared("core")
    assert core == {"pydantic", "pydantic-core"}
    assert imported_roots(ROOT / "core" / "kokoro_core") <= {"pydantic", "pydantic_core"}
