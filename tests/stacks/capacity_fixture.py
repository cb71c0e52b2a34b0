"""A capacity profile for the tests: the fixture file, written out with changes.

The fixture (fixtures/capacity-g5-xlarge.json) is a profile as ``kokoro-stream capacity plan`` writes
it for ml.g5.xlarge. Its image fingerprint is refreshed to this checkout's requirements when it is
written, so a new pin in container/requirements-gpu.txt fails only the test that asks for a stale one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kokoro_core.capacity_profile import flavor_requirements, requirements_sha256

from .conftest import REPO_ROOT

FIXTURE = Path(__file__).parent / "fixtures" / "capacity-g5-xlarge.json"


def fixture_profile() -> dict[str, Any]:
    profile = json.loads(FIXTURE.read_text(encoding="utf-8"))
    flavor = profile["image"]["flavor"]
    profile["image"]["requirements_sha256"] = requirements_sha256(flavor_requirements(REPO_ROOT, flavor))
    return profile


def merged(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes`` laid over it, nested objects merged key by key."""
    out = dict(base)
    for key, value in changes.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def profile_file(folder: Path, name: str = "profile.json", **changes: Any) -> str:
    """Write the fixture profile with ``changes`` into ``folder``; its absolute path, for the context."""
    path = folder / name
    path.write_text(json.dumps(merged(fixture_profile(), changes), indent=2), encoding="utf-8")
    return str(path)
