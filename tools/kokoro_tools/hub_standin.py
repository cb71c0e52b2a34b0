"""A loopback HTTP server that answers as the hub does for one repository at one revision, from a local folder.

It speaks the two requests the model-cache populator makes (``stacks.handlers.hub``): ``paths-info`` (each
file's size and LFS sha256) and ``resolve``, which redirects to where the bytes are, as the hub redirects to
its CDN. Files stream from disk, so a model of hundreds of megabytes costs no memory.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, unquote

from kokoro_core.model_cache import check_relative_path, sha256_file


@contextmanager
def serving_hub(folder: Path, repo: str, revision: str, files: list[str]) -> Iterator[str]:
    """The hub's base URL while the block runs, serving ``files`` (relative paths) of ``folder``."""
    info = {}
    for name in files:
        sha256, size = sha256_file(folder / check_relative_path(name))
        info[name] = {
            "type": "file",
            "path": name,
            "size": size,
            "oid": hashlib.sha1(name.encode()).hexdigest(),  # git's id of the LFS pointer: never read
            "lfs": {"oid": sha256, "size": size, "pointerSize": 134},
        }
    paths_info = f"/api/models/{repo}/paths-info/{revision}"
    resolve = f"/{repo}/resolve/{revision}/"

    class Hub(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path != paths_info:
                return self._answer(404, b"not found")
            asked = json.loads(body).get("paths", [])
            self._answer(200, json.dumps([info[name] for name in asked if name in info]).encode(), "application/json")

        def do_GET(self) -> None:
            if self.path.startswith(resolve):
                self.send_response(302)
                self.send_header("Location", "/cdn/" + quote(unquote(self.path.removeprefix(resolve))))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            name = unquote(self.path.removeprefix("/cdn/"))
            if not self.path.startswith("/cdn/") or name not in info:
                return self._answer(404, b"entry not found")
            self.send_response(200)
            self.send_header("Content-Length", str(info[name]["size"]))
            self.end_headers()
            with (folder / name).open("rb") as source:
                try:
                    shutil.copyfileobj(source, self.wfile, 1024 * 1024)
                except ConnectionError:
                    pass  # the client gave up on the transfer

        def _answer(self, status: int, body: bytes, kind: str = "text/plain") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    thread = threading.Thread(target=server.serve_forever, name="hub-standin", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
