"""``python -m kokoro_server serve``: the container's entrypoint (SageMaker runs ``IMAGE serve``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kokoro_server.serving.server import run_server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kokoro_server", description="Kokoro-82M streaming speech server.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="Serve /ping, /invocations and the bidirectional stream.")
    serve_parser.add_argument("--host", help="Address to listen on (default 0.0.0.0; KOKORO_HOST).")
    serve_parser.add_argument("--port", type=int, help="Port (default 8080; KOKORO_PORT).")
    serve_parser.add_argument(
        "--model-dir",
        type=Path,
        help="Model cache folder (default: SM_MODEL_DIR, /opt/ml/model, else the embedded model).",
    )
    args = parser.parse_args(argv)
    return run_server(args.host, args.port, args.model_dir)


if __name__ == "__main__":
    sys.exit(main())
