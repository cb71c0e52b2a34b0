"""Whether a package imports only what its image installs: its modules are imported in a fresh
interpreter that refuses every top-level module no distribution of the image provides, as the image
would. An optional import (``try: import x``) then takes its fallback, as it does in the image; a needed
one fails and is named. What this environment has besides (test tools, integrations) changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterable
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import importlib, importlib.abc, json, sys
allowed = set(json.loads(sys.argv[1]))

class ImageOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in allowed or top in sys.stdlib_module_names or top.startswith("_"):
            return None  # the normal finders look it up
        raise ModuleNotFoundError(f"No module named {top!r} in the image", name=top)

sys.meta_path.insert(0, ImageOnly())
for module in json.loads(sys.argv[2]):
    importlib.import_module(module)
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def image_modules(installed: Callable[[str], bool], copied: Iterable[str]) -> set[str]:
    """Top-level modules the image has: those of its distributions (``installed(name)``), and its copies."""
    owners = packages_distributions()
    provided = {
        module
        for module, distributions in owners.items()
        if any(installed(distribution.lower().replace("_", "-")) for distribution in distributions)
    }
    return provided | set(copied)


def imported_in_image(modules: Iterable[str], allowed: set[str]) -> list[str]:
    """Import ``modules`` as the image would; the top-level modules loaded. Fails naming what is missing."""
    probe = [sys.executable, "-c", _PROBE, json.dumps(sorted(allowed)), json.dumps(list(modules))]
    result = subprocess.run(probe, capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, f"an import the image cannot satisfy:\n{result.stderr[-3000:]}"
    loaded: list[str] = json.loads(result.stdout.splitlines()[-1])
    return loaded
