"""The code asset shared by the project's custom-resource Lambda functions.

The functions run the handlers in ``stacks/handlers`` and read the model-cache layout from the
server's own module, so the bundle is assembled from both places at synth time, with no
Docker: ``handlers/`` plus the ``kokoro_server.model_cache*`` modules.
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
SERVER_PACKAGE = REPO_ROOT / "container" / "kokoro_server"
SHARED_MODULES = ("__init__.py", "model_cache.py", "model_cache_s3.py")
RUNTIME = lambda_.Runtime.PYTHON_3_14


@jsii.implements(cdk.ILocalBundling)
class _CopyHandlers:
    def try_bundle(self, output_dir: str, *args: Any, **kwargs: Any) -> bool:
        output = Path(output_dir)
        shutil.copytree(HANDLERS, output / "handlers", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        (output / "kokoro_server").mkdir()
        for name in SHARED_MODULES:
            shutil.copy2(SERVER_PACKAGE / name, output / "kokoro_server" / name)
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
