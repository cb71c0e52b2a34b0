"""The custom-resource Lambda bundle may use only the standard library and boto3 (the runtime's own)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from stacks.constructs.handler_code import HANDLERS, SERVER_PACKAGE, SHARED_MODULES

ALLOWED = set(sys.stdlib_module_names) | {"boto3", "botocore", "kokoro_server"}
BUNDLED = sorted(HANDLERS.glob("*.py")) + [SERVER_PACKAGE / name for name in SHARED_MODULES]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_module_imports_only_stdlib_boto3_and_bundled_code(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots = [str(node.module).split(".")[0]]
            if roots == ["kokoro_server"]:
                assert f"{node.module.split('.')[-1]}.py" in SHARED_MODULES, node.module
        else:
            continue
        assert set(roots) <= ALLOWED, f"{path.name} imports {roots}"
