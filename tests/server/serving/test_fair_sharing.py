"""Fair sharing: a client that stops reading, or asks for more than its share, cannot make another
caller's request fail, and is dropped so that its slots come back.

The misbehaving clients are raw sockets with a small receive buffer that never read: nothing in the
client library can read on their behalf. The server is real, on the fake engine (what is claimed here
is about sockets and slots, not speech); every wait is for a state of the server, never a duration.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import threading

import aiohttp
from websockets.frames import Frame, Opcode

from kokoro_server.settings import ServerSettings
from tests.fake_server import fake_server
from tests.local_server import RunningServer, wait_until_idle
from tests.speech import receive, run
from tests.waiting import wait_until

LONG = " ".join(f"Sentence {i} of a long reply that nobody will ever hear." for i in range(10))
# Minutes of audio: far more than any socket buffers hold, so none of the hog's utterances can finish.
ENDLESS = LONG * 8
OTHER = "The other caller is still served."
DEFAULTS = ServerSettings()


def _unread_socket(port: int) -> socket.socket:
    """A TCP connection that holds almost nothing unread: once its small buffer is full, the server's
    writes to it stall."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    return sock


def _open_websocket(port: int) -> socket.socket:
    sock = _unread_socket(port)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            "GET /invocations-bidirectional-stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)  # only the handshake: the rest stays unread
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def _text_frame(message: dict | str) -> bytes:
    """One masked WebSocket text frame, as a client must send it."""
    payload = (message if isinstance(message, str) else json.dumps(message)).encode()
    return Frame(Opcode.TEXT, payload).serialize(mask=True)


def _closed_by_server(sock: socket.socket, timeout: float = 30.0) -> bool:
    """Read what is left until the server's end closes; True when it did."""
    sock.settimeout(timeout)
    try:
        while sock.recv(1 << 16):
            pass
    except ConnectionResetError:
        pass
    return True


def _post_ok(url: str, text: str) -> tuple[int, int]:
    async def scenario() -> tuple[int, int]:
        async with aiohttp.ClientSession() as http, http.post(f"{url}/invocations", json={"text": text}) as response:
            return response.status, len(await response.read())

    return run(scenario())


def _sessions(server: RunningServer) -> int:
    return server.call(lambda: len(server.server.runtime.sessions))


def test_a_websocket_client_that_never_reads_cannot_make_another_callers_request_fail() -> None:
    gate = threading.Event()  # holds synthesis until the hog is seen holding its share
    with fake_server(gate, send_timeout_seconds=2, heartbeat_seconds=0) as (server, _):
        hog = _open_websocket(server.server.port)
        for index in range(64):
            hog.sendall(_text_frame({"type": "speak", "id": f"hog-{index}", "text": ENDLESS}))
        most = DEFAULTS.max_session_utterances
        wait_until(lambda: server.stats()["active_utterances"] == most, "the hog's utterances to be admitted")
        gate.set()  # its audio flows now, and its writes stall

        status, audio_bytes = _post_ok(server.url, OTHER)
        assert status == 200 and audio_bytes > 24_000  # over half a second of 24 kHz 16-bit audio

        # Its writes stall, the deadline passes, and the server drops it: every slot comes back.
        wait_until(lambda: _sessions(server) == 0, "the hog's session to end")
        assert _closed_by_server(hog)
        assert wait_until_idle(server)["active_utterances"] == 0
        hog.close()


def test_a_post_client_that_never_reads_is_dropped_and_frees_its_slot() -> None:
    with fake_server(send_timeout_seconds=1, max_active_utterances=1) as (server, engine):
        hog = _unread_socket(server.server.port)
        body = json.dumps({"text": LONG * 4}).encode()
        hog.sendall(
            b"POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        wait_until(lambda: len(engine.calls) > 0, "the hog's synthesis to start")
        wait_until(lambda: server.stats()["active_utterances"] == 0, "the hog to be dropped at its write deadline")
        assert _closed_by_server(hog)
        hog.close()
        # The one slot there is serves the next caller.
        status, audio_bytes = _post_ok(server.url, OTHER)
        assert status == 200 and audio_bytes > 24_000


def test_replies_that_pile_up_unread_get_the_client_dropped() -> None:
    """A client that sends without end and never reads: its replies are bounded in bytes, then it is
    dropped, long before the server's memory would notice."""
    with fake_server(heartbeat_seconds=0) as (server, _):
        flood = _open_websocket(server.server.port)
        frame = _text_frame('{"type": "sing"}')  # each answered by an unknown_type error
        dropped = False
        for _ in range(1_000_000):
            try:
                flood.sendall(frame * 100)
            except (BrokenPipeError, ConnectionResetError):
                dropped = True
                break
        assert dropped, "the server kept reading a client that never read its replies"
        wait_until(lambda: _sessions(server) == 0, "the flooding session to end")
        flood.close()
        assert _post_ok(server.url, OTHER)[0] == 200


def test_a_silent_peer_is_dropped_by_heartbeat() -> None:
    with fake_server(heartbeat_seconds=0.5) as (server, _):
        silent = _open_websocket(server.server.port)  # open (its 101 came after the session was), never pongs
        assert _closed_by_server(silent)  # reading is not answering: only the heartbeat can end it
        wait_until(lambda: _sessions(server) == 0, "the heartbeat to drop the silent peer")
        silent.close()


def test_a_session_past_its_share_is_refused_as_busy_and_goes_on() -> None:
    gate = threading.Event()

    async def scenario(url: str) -> tuple[dict, list[dict], list[str]]:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(url)
            ready = (await receive(ws)).message
            for index in range(5):
                await ws.send_json({"type": "speak", "id": f"u{index}", "text": f"Sentence {index}."})
            refusals: list[dict] = []
            while len(refusals) < 2:  # refused at once, while the first is held in synthesis
                event = await receive(ws)
                if event.type == "error":
                    refusals.append(event.message)
            gate.set()
            done: list[str] = []
            while len(done) < 3:
                event = await receive(ws)
                assert event.type != "error", event.message
                if event.type == "done":
                    done.append(event.message["id"])
            await ws.close()
            return ready, refusals, done

    with fake_server(gate, max_session_utterances=3) as (server, _):
        ready, refusals, done = run(scenario(server.ws_url))
    assert ready["max_session_utterances"] == 3
    assert [(r["type"], r["code"], r["id"]) for r in refusals] == [("error", "busy", "u3"), ("error", "busy", "u4")]
    assert "max_session_utterances" in refusals[0]["message"]
    assert done == ["u0", "u1", "u2"]
