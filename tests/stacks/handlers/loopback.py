"""A real HTTP server on 127.0.0.1 that stands in for the hub or for presigned ECR blob URLs."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    seconds_per_64k: float = 0.0  # > 0: the body trickles out, 64 KiB at a time, like a slow link


Route = Callable[[str, str, bytes], Reply]  # (method, path, request body) -> reply


@dataclass
class Loopback:
    url: str
    requests: list[tuple[str, str]]
    headers: list[dict[str, str]]  # each request's headers, in the order of ``requests``


@contextmanager
def serve(route: Route) -> Iterator[Loopback]:
    requests: list[tuple[str, str]] = []
    headers: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            requests.append((self.command, self.path))
            headers.append(dict(self.headers.items()))
            reply = route(self.command, self.path, body)
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            if "Content-Length" not in reply.headers:
                self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            if not reply.seconds_per_64k:
                self.wfile.write(reply.body)
                return
            for start in range(0, len(reply.body), 65536):
                try:
                    self.wfile.write(reply.body[start : start + 65536])
                except ConnectionError:
                    return  # the client gave up on the transfer
                time.sleep(reply.seconds_per_64k)

        do_GET = do_POST = _answer

        def log_message(self, *args) -> None:  # keep test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Loopback(url=f"http://127.0.0.1:{server.server_port}", requests=requests, headers=headers)
    finally:
        server.shutdown()
        server.server_close()
