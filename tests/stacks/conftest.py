"""Synthesize the real CDK app (cdk.json context plus overrides) into a temporary cloud assembly."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aws_cdk as cdk
import pytest

from stacks.app_builder import build_app
from stacks.config import settings_from_context

REPO_ROOT = Path(__file__).resolve().parents[2]
ENV = cdk.Environment(account="123456789012", region="us-east-1")


def cdk_json_context() -> dict[str, Any]:
    return json.loads((REPO_ROOT / "cdk.json").read_text())["context"]


@dataclass
class Assembly:
    outdir: Path
    templates: dict[str, dict[str, Any]]
    validation_report: dict[str, Any]
    messages: dict[str, list[str]]  # per stack, what synth says about it (annotations: info, warnings)

    def resources(self, stack: str, type_name: str) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.templates[stack]["Resources"].items() if v["Type"] == type_name}

    def one(self, stack: str, type_name: str) -> tuple[str, dict[str, Any]]:
        found = self.resources(stack, type_name)
        assert len(found) == 1, f"expected one {type_name} in {stack}, found {sorted(found)}"
        return next(iter(found.items()))


def synthesize(outdir: Path, **overrides: Any) -> Assembly:
    context = {**cdk_json_context(), **overrides}
    app = cdk.App(context=context, outdir=str(outdir))
    build_app(app, settings_from_context(app.node.get_all_context()), env=ENV)
    app.synth()
    messages = {
        path.name.removesuffix(".metadata.json"): synth_messages(json.loads(path.read_text()))
        for path in outdir.glob("*.metadata.json")
    }
    templates = {
        path.name.removesuffix(".template.json"): json.loads(path.read_text())
        for path in outdir.glob("*.template.json")
    }
    report_path = outdir / "validation-report.json"
    report = json.loads(report_path.read_text()) if report_path.exists() else {"pluginReports": []}
    return Assembly(outdir=outdir, templates=templates, validation_report=report, messages=messages)


def synth_messages(metadata: dict[str, list[dict[str, Any]]]) -> list[str]:
    """A stack's synth messages (info, warnings, errors), read from its metadata file: jsii's own reading of
    them depends on which of two installed copies of aws_cdk.cloud_assembly_schema was unpacked last."""
    levels = ("aws:cdk:info", "aws:cdk:warning", "aws:cdk:error")
    return [str(entry["data"]) for entries in metadata.values() for entry in entries if entry["type"] in levels]


@pytest.fixture(scope="session")
def assembly(tmp_path_factory: pytest.TempPathFactory) -> Assembly:
    return synthesize(tmp_path_factory.mktemp("cdk.out"))
