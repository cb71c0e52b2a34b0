"""cdk-nag (AwsSolutions) and cfn-lint over the real app: no unacknowledged finding, no lint error."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from aws_cdk import aws_s3 as s3
from cfnlint.api import lint_file

from .conftest import REPO_ROOT, Assembly, synthesize


def test_app_has_no_unacknowledged_nag_findings(assembly: Assembly) -> None:
    # Synthesis raises on any error-level finding; warnings land in the report.
    violations = [
        violation
        for report in assembly.validation_report["pluginReports"]
        for violation in report.get("violations", [])
    ]
    assert violations == []


def test_nag_check_fails_on_a_new_unacknowledged_finding(tmp_path: Path, monkeypatch) -> None:
    """The check above can fail: an unlogged, plain-HTTP bucket added to the app stops synth."""
    from . import conftest

    original = conftest.build_app

    def with_sloppy_bucket(app, settings, env=None):
        stacks = original(app, settings, env)
        s3.Bucket(stacks.cache, "Sloppy")
        return stacks

    monkeypatch.setattr(conftest, "build_app", with_sloppy_bucket)
    with pytest.raises(RuntimeError, match="AwsSolutions-S1"):
        synthesize(tmp_path)


@pytest.mark.parametrize("stack", ["KokoroModelCache", "KokoroEndpoint"])
def test_cfn_lint_finds_no_errors(assembly: Assembly, stack: str) -> None:
    matches = lint_file(assembly.outdir / f"{stack}.template.json")
    errors = [f"{m.rule.id}: {m.message}" for m in matches if m.rule.id.startswith("E")]
    assert errors == []


def test_cfn_lint_of_every_configuration_variant(tmp_path: Path) -> None:
    variant = synthesize(
        tmp_path,
        instance_type="ml.c7i.2xlarge",
        image_uri="210987654321.dkr.ecr.us-west-2.amazonaws.com/team/kokoro@sha256:" + "ab" * 32,
        bucket_removal_policy="destroy",
        container_env='{"KOKORO_WORKERS": "2"}',
    )
    for stack in variant.templates:
        errors = [m for m in lint_file(tmp_path / f"{stack}.template.json") if m.rule.id.startswith("E")]
        assert errors == [], stack


def test_cdk_cli_synth_works_without_credentials_or_docker_engine(tmp_path: Path) -> None:
    """`npx cdk synth` as a newcomer runs it: no AWS credentials, no Docker engine, no network."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "CDK_DEFAULT_"))}
    env.update(AWS_EC2_METADATA_DISABLED="true", DOCKER_HOST="unix:///nonexistent.sock", AWS_CONFIG_FILE="/dev/null")
    env["AWS_SHARED_CREDENTIALS_FILE"] = "/dev/null"
    result = subprocess.run(
        ["npx", "--no-install", "cdk", "synth", "--quiet", "--output", str(tmp_path)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert {p.name for p in tmp_path.glob("*.template.json")} == {
        "KokoroModelCache.template.json",
        "KokoroEndpoint.template.json",
    }
    staged = next(tmp_path.glob("asset.*/container/Dockerfile"))  # staged from the repository root
    assert (staged.parent.parent / "core" / "kokoro_core" / "protocol.py").is_file()
    assert not (staged.parent.parent / ".venv").exists()
    assert "LABEL com.amazonaws.sagemaker.capabilities.bidirectional-streaming=true" in staged.read_text()
