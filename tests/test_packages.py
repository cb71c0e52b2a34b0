"""Each workspace package declares what it imports, the client stays light, and every module imports alone.

Every third-party module a package imports (anywhere in it, lazily or not) must come from a
distribution it declares, as a dependency or an extra: installed on its own, it works. The client
library must not pull the engine, the agent framework or the plotting stack. Each module, imported first
in a fresh interpreter, loads: no module works only after another one happened to be imported (an
import cycle does that), so a docs generator, a plugin host or a REPL may import any of them.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MEMBERS = {"core": "kokoro_core", "client": "kokoro_stream", "container": "kokoro_server", "agent": "kokoro_agent"}
MEMBERS["tools"] = "kokoro_tools"
MEMBERS["capacity"] = "kokoro_capacity"
MEMBERS["bench"] = "kokoro_bench"
WORKSPACE_MODULES = {
    "kokoro_core": "kokoro-stream-core",
    "kokoro_stream": "kokoro-stream",
    "kokoro_server": "kokoro-server",
    "kokoro_agent": "kokoro-agent",
    "kokoro_tools": "kokoro-stream-tools",
    "kokoro_capacity": "kokoro-stream-capacity",
    "kokoro_bench": "kokoro-stream-bench",
}


# Modules a member imports from the repository checkout rather than from a distribution: the rehearsal of the
# first deploy (kokoro_tools.rehearsal) runs the CDK app's own code (stacks/, beside cdk.json), as `cdk` does.
FROM_THE_CHECKOUT = {"tools": {"stacks"}}


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(member: str) -> tuple[str, set[str]]:
    project = tomllib.loads((ROOT / member / "pyproject.toml").read_text())["project"]
    requirements = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    names = {normalized(re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0]) for requirement in requirements}
    return normalized(project["name"]), names


def imported_modules(package: Path) -> set[str]:
    """The dotted names that ``package`` imports absolutely, anywhere, lazily or not (``from a import b``: a, a.b)."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)  # a submodule, or not a module
    return {name for name in names if name.split(".")[0] not in sys.stdlib_module_names} - {"__future__"}


def imported_roots(package: Path) -> set[str]:
    return {name.split(".")[0] for name in imported_modules(package)}


@pytest.mark.parametrize("member", sorted(MEMBERS))
def test_every_imported_module_comes_from_a_declared_distribution(member: str) -> None:
    name, allowed = declared(member)
    owners = packages_distributions()
    missing = {}
    for module in imported_roots(ROOT / member / MEMBERS[member]):
        if module == MEMBERS[member] or module in FROM_THE_CHECKOUT.get(member, set()):
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


def test_every_module_imports_alone_in_a_fresh_interpreter() -> None:
    """Each module is imported first, in a process of its own forked after the third-party libraries the
    project imports were loaded (``tests/first_import.py``): a project module's import never follows another's."""
    modules = [
        name for member, package in MEMBERS.items() for name in module_names(ROOT / member / package, ROOT / member)
    ]
    modules += module_names(ROOT / "stacks", ROOT)
    assert len(modules) > 100 and "kokoro_tools.commands" in modules and "stacks.handlers.hub" in modules
    packages = [ROOT / member / package for member, package in MEMBERS.items()] + [ROOT / "stacks"]
    ours = set(WORKSPACE_MODULES) | {"stacks"}
    libraries = {name for package in packages for name in imported_modules(package) if name.split(".")[0] not in ours}
    result = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "first_import.py"), *sorted(libraries), "--", *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    failures = dict(line.split("\t", 1) for line in result.stdout.splitlines() if "\t" in line)
    assert failures == {}
