"""The event loop never runs inference: with every worker busy, accepts and pings are answered; past the
admission bound, work is refused at once."""

from __future__ import annotations

import threading

import aiohttp

from tests.fake_server import fake_server
from tests.local_server import start_server, wait_until_idle
from tests.speech import connect, receive, run, speak_and_collect, until
from tests.waiting import HANG_GUARD_SECONDS, await_until

BUSY_TEXT = " ".join(f"Sentence number {i} keeps every engine worker busy for a while." for i in range(6))


def test_new_websocket_and_ping_are_answered_while_every_worker_is_held_in_synthesis():
    """Every worker is held inside a synthesis call (the fake engine's gate) for as long as the test likes:
    were the event loop to run any of it, no probe would be answered until the gate opened. How fast the
    probes are answered under real load is the planning bench's figure (docs/bench/planning.json)."""
    gate = threading.Event()
    with fake_server(gate=gate) as (server, engine):

        async def scenario():
            async with aiohttp.ClientSession() as session:
                workers = server.server.runtime.scheduler.workers
                busy = []
                for i in range(workers + 1):
                    ws = await connect(session, server.ws_url)
                    await ws.send_json({"type": "speak", "id": f"busy{i}", "text": BUSY_TEXT})
                    busy.append(ws)
                await await_until(lambda: len(engine.calls) == workers, "every worker to hold a synthesis call")

                probe = await session.ws_connect(server.ws_url, autoping=False)  # let the pong reach us
                ready = await receive(probe)
                await probe.ping()
                pong = await probe.receive(timeout=HANG_GUARD_SECONDS)
                async with session.get(f"{server.url}/ping") as response:
                    status = response.status
                still_held = server.stats()["running_jobs"]
                gate.set()
                for ws in [*busy, probe]:
                    await ws.send_json({"type": "cancel"})
                    await ws.close()
                return ready, pong, status, still_held, workers

        ready, pong, status, still_held, workers = run(scenario())
    assert ready.type == "ready" and status == 200
    assert pong.type == aiohttp.WSMsgType.PONG
    assert still_held == workers  # every answer came while every worker was still inside synthesis


def test_past_the_admission_bound_work_is_refused_at_once_and_accepted_again_after(embedded_model_dir):
    small = start_server(embedded_model_dir, workers=1, max_active_utterances=1)
    try:

        async def scenario():
            async with aiohttp.ClientSession() as session:
                holder = await connect(session, small.ws_url)
                await holder.send_json({"type": "speak", "id": "hold", "text": BUSY_TEXT})
                await until(holder, "start")

                async with session.post(f"{small.url}/invocations", json={"text": "Refused."}) as response:
                    refused = (response.status, response.headers.get("Retry-After"), await response.json())
                other = await connect(session, small.ws_url)
                await other.send_json({"type": "speak", "id": "x", "text": "Refused too."})
                busy = (await receive(other)).message

                await holder.send_json({"type": "cancel"})
                await until(holder, "canceled")
                audio = await speak_and_collect(other, "Accepted now.", "y")
                await holder.close()
                await other.close()
                return refused, busy, audio

        refused, busy, audio = run(scenario())
        assert refused[0] == 503 and refused[1] == "1" and refused[2]["error"] == "busy"
        assert "capacity" in refused[2]["message"]
        assert busy["type"] == "error" and busy["code"] == "busy" and busy["id"] == "x"
        assert len(audio) > 0
        assert wait_until_idle(small)["active_utterances"] == 0
    finally:
        small.stop()
