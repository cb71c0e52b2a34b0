"""The local servers stay this machine's: the playground's session opens only for its own page, never
for a page of another site nor under a rebound domain name; the commands that could be reached from
other machines say so; the emulated image listens on loopback only."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp import web

from kokoro_core.loopback import exposure_warning, is_loopback
from kokoro_server.settings import settings_from_env
from kokoro_stream import WebSocketTransport
from kokoro_tools.image_run import serve_command
from kokoro_tools.local_guard import host_allowed, same_origin
from kokoro_tools.playground import playground_app
from kokoro_tools.ports import free_port
from tests.fake_server import fake_server
from tests.speech import run


async def _open_session(ws_url: str, port: int, headers: dict[str, str]) -> tuple[int, dict]:
    """The playground's /session as a browser opens it: the answer's status and first message."""
    runner = web.AppRunner(playground_app(lambda: WebSocketTransport(ws_url)))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with aiohttp.ClientSession() as http:
            try:
                async with http.ws_connect(f"http://127.0.0.1:{port}/session", headers=headers) as ws:
                    return 101, await ws.receive_json(timeout=30)
            except aiohttp.WSServerHandshakeError as refused:
                return refused.status, {}
    finally:
        await runner.cleanup()


@pytest.fixture(scope="module")
def speech_url():
    with fake_server() as (server, _):
        yield server.ws_url


def test_the_playground_session_opens_for_its_own_page(speech_url) -> None:
    port = free_port()
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        status, message = run(_open_session(speech_url, port, {"Host": host, "Origin": f"http://{host}"}))
        assert status == 101 and message["type"] == "ready" and message["voices"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://attacker.example"},  # any page of another site: WebSockets know no CORS
        {"Host": "attacker.example:8090", "Origin": "http://attacker.example:8090"},  # its name rebound here
    ],
)
def test_the_playground_session_refuses_other_sites(speech_url, headers) -> None:
    status, _ = run(_open_session(speech_url, free_port(), headers))
    assert status == 403


def test_which_hosts_and_origins_are_this_server() -> None:
    assert host_allowed("127.0.0.1:8000", "127.0.0.1") and host_allowed("[::1]:8000", "127.0.0.1")
    assert host_allowed("localhost:8000", "127.0.0.1") and host_allowed("192.168.1.20:8000", "0.0.0.0")
    assert host_allowed("speech.lan:8000", "speech.lan")  # the name it was told to listen on
    assert not host_allowed("attacker.example:8000", "0.0.0.0") and not host_allowed("", "127.0.0.1")
    assert same_origin("http://127.0.0.1:8090", "127.0.0.1:8090")
    assert not same_origin("http://127.0.0.1:8091", "127.0.0.1:8090")
    assert not same_origin("null", "127.0.0.1:8090")  # a sandboxed frame or a file:// page


def test_a_command_listening_beyond_loopback_warns() -> None:
    assert all(is_loopback(host) for host in ("127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(host) for host in ("0.0.0.0", "::", "192.168.1.20", "speech.lan"))
    assert exposure_warning("127.0.0.1", "the speech server") is None
    warning = exposure_warning("0.0.0.0", "your endpoint with your AWS credentials")
    assert warning is not None and "0.0.0.0" in warning and "AWS credentials" in warning and "127.0.0.1" in warning


def test_the_emulated_image_listens_on_loopback_only(tmp_path) -> None:
    command = serve_command("kokoro-server:cpu", tmp_path, 8123, "emulated")
    pairs = zip(command, command[1:], strict=False)
    environment = dict(value.split("=", 1) for flag, value in pairs if flag == "--env")
    settings = settings_from_env(environment)
    assert is_loopback(settings.host) and settings.port == 8123
    assert "--network" in command and "--publish" not in command  # no port published on other interfaces
