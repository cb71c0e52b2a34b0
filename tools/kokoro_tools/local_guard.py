"""What keeps the local servers (the playground, the OpenAI proxy) for this machine's own programs.

Both act with the user's AWS credentials when they front an endpoint, so a web page the user happens
to visit must not drive them:

- Host: a page can rebind its own domain name to 127.0.0.1 (DNS rebinding), but its requests still
  name that domain. A request is served only when its Host is an IP address, a loopback name, or the
  name the server was told to listen on.
- Origin: a browser names the page behind every WebSocket and cross-site POST. One from a page this
  server did not serve is refused (programs such as the OpenAI SDK send no Origin).
- An API key, where one is set (the proxy's ``--api-key``): ``Authorization: Bearer <key>``, as
  OpenAI's SDKs send it.

Refusals are OpenAI-shaped JSON errors (``openai_error``), which every client of these servers reads.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web

from kokoro_core.loopback import is_loopback
from kokoro_core.validation import shown
from kokoro_server.openai_api.routes import openai_error

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _hostname(authority: str) -> str:
    """The host part of a Host header or an origin's authority, without the port."""
    return (urlsplit(f"//{authority}").hostname or "").lower()


def host_allowed(host_header: str, listening_on: str) -> bool:
    """Whether a request naming ``host_header`` is meant for this server, not for a rebound domain."""
    name = _hostname(host_header)
    if not name:
        return False
    if is_loopback(name) or name == listening_on.strip("[]").lower():
        return True
    try:
        ipaddress.ip_address(name)  # an address names no domain that a page could rebind
        return True
    except ValueError:
        return False


def same_origin(origin: str, host_header: str) -> bool:
    """Whether the page named by ``origin`` was served by the server that ``host_header`` names."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host_header.lower()


def local_guard(
    listening_on: str, api_key: str | None = None
) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    """Middleware: the Host and Origin checks, and the API key when one is given."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        host = request.headers.get("Host", "")
        if not host_allowed(host, listening_on):
            return openai_error(
                403,
                f"Host {shown(host)} is not this server; use its address (http://127.0.0.1:<port>) "
                f"or the name it listens on ({listening_on})",
                code="host_not_allowed",
            )
        origin = request.headers.get("Origin")
        if origin is not None and not same_origin(origin, host):
            return openai_error(
                403,
                f"requests from pages of other sites are refused (Origin {shown(origin)}); "
                "open the page this server serves, or call it from a program",
                code="cross_origin",
            )
        if api_key is not None:
            given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            if not hmac.compare_digest(given.encode(), api_key.encode()):
                return openai_error(
                    401, "this server needs its API key: send Authorization: Bearer <key>", code="invalid_api_key"
                )
        return await handler(request)

    return guard
