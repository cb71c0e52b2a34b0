"""The custom-resource Lambda bundle may use only the standard library and boto3 (the runtime's own).

The bundle carries the shared core package whole; what the handlers import of it, and everything
that imports in turn, must need nothing else.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from stacks.constructs.handler_code import CORE_PACKAGE, HANDLERS

RUNTIME_MODULES = set(sys.stdlib_module_names) | {"boto3", "botocore"}


BUNDLED_PACKAGES = {"handlers": HANDLERS, "kokoro_core": CORE_PACKAGE}


def imported_modules(path: Path) -> set[str]:
    """Absolute module names ``path`` imports (relative imports resolved within its package)."""
    package = next(name for name, folder in BUNDLED_PACKAGES.items() if path.parent == folder)
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            names.add(f"{package}.{node.module}" if node.level else str(node.module))
    return names


def bundled_closure(start: Path) -> dict[str, set[str]]:
    """Each bundled module reachable from ``start``, with what it imports."""
    seen: dict[str, set[str]] = {}
    pending = [start]
    while pending:
        path = pending.pop()
        if str(path) in seen:
            continue
        seen[str(path)] = imports = imported_modules(path)
        for name in imports:
            package, _, module = name.partition(".")
            if package in BUNDLED_PACKAGES and module:
                pending.append(BUNDLED_PACKAGES[package] / f"{module.split('.')[0]}.py")
    return seen


@pytest.mark.parametrize("handler", sorted(HANDLERS.glob("*.py")), ids=lambda p: p.name)
def test_handler_needs_only_the_lambda_runtime_and_the_bundled_core(handler: Path) -> None:
    for path, imports in bundled_closure(handler).items():
        roots = {name.split(".")[0] for name in imports} - set(BUNDLED_PACKAGES)
        assert roots <= RUNTIME_MODULES, f"{Path(path).name} imports {sorted(roots - RUNTIME_MODULES)}"


def test_the_closure_follows_core_imports() -> None:
    closure = bundled_closure(HANDLERS / "model_cache_populator.py")
    assert str(CORE_PACKAGE / "model_cache_s3.py") in closure
    assert str(CORE_PACKAGE / "model_cache.py") in closure
    # A module that needs pydantic is caught when a handler reaches it.
    assert "pydantic" in {name.split(".")[0] for name in imported_modules(CORE_PACKAGE / "env_settings.py")}
