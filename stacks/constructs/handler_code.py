"""The code asset shared by the project's custom-resource Lambda functions.

The functions run the handlers in ``stacks/handlers`` and read the model-cache layout from the
server's own module, so the bundle is assembled from both places at synth time, with no
Docker: ``handlers/`` plus the ``kokoro_core.model_cache*`` modules.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import aws_cdk as cdk
import jsii
from aws_cdk import aws_lambda as lambda_

REPO_ROOT = Path(__file__).resolve().parents[2]
HANDLERS = REPO_ROOT / "stacks" / "handlers"
CORE_PACKAGE = REPO_ROOT / "core" / "kokoro_core"
RUNTIME = lambda_.Runtime.PYTHON_3_14


@jsii.implements(cdk.ILocalBundling)
class _CopyHandlers:
    def try_bundle(self, output_dir: str, *args: Any, **kwargs: Any) -> bool:
        output = Path(output_dir)
        compiled = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(HANDLERS, output / "handlers", ignore=compiled)
        shutil.copytree(CORE_PACKAGE, output / "kokoro_core", ignore=compiled)
        return True


def handler_code() -> lambda_.Code:
    return lambda_.Code.from_asset(
        str(HANDLERS),
        asset_hash_type=cdk.AssetHashType.OUTPUT,
        bundling=cdk.BundlingOptions(
            # Never used: local bundling always succeeds; the image is only a required field.
            image=RUNTIME.bundling_image,
            local=_CopyHandlers(),
        ),
    )
