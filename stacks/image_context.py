"""Both images build from the repository root; each asset's context holds only what its Dockerfile
copies, so an unrelated change neither rebuilds it nor changes its hash."""

from __future__ import annotations

from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_ecr_assets as ecr_assets
from constructs import Construct

REPO_ROOT = Path(__file__).resolve().parents[1]


def image_from_root(
    scope: Construct,
    id: str,
    *,
    dockerfile: str,
    copies: list[str],
    platform: ecr_assets.Platform,
    build_args: dict[str, str] | None = None,
) -> ecr_assets.DockerImageAsset:
    """An image asset built from the repository root with ``dockerfile``, seeing only ``copies``."""
    return ecr_assets.DockerImageAsset(
        scope,
        id,
        directory=str(REPO_ROOT),
        file=dockerfile,
        exclude=["*", f"!{dockerfile}", *(f"!{path}" for path in copies), "**/__pycache__"],
        ignore_mode=cdk.IgnoreMode.DOCKER,
        platform=platform,
        build_args=build_args,
    )
