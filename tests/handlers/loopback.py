"""A real HTTP server on 127.0.0.1 that stands in for the hub or for presigned ECR blob URLs."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


Route = Callable[[str, str, bytes], Reply]  # (method, path, request body) -> reply


@dataclass
class Loopback:
    url: str
    requests: list[tuple[str, str]]


@contextmanager
def serve(route: Route) -> Iterator[Loopback]:
    requests: list[tuple[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            requests.append((self.command, self.path))
            reply = route(self.command, self.path, body)
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            if "Content-Length" not in reply.headers:
                self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        do_GET = do_POST = _answer

        def log_message(self, *args) -> None:  # keep test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Loopback(url=f"http://127.0.0.1:{server.server_port}", requests=requests)
    finally:
        server.shutdown()
        server.server_close()
