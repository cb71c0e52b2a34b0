"""The event loop never runs inference: with every worker busy, accepts and pings stay fast."""

from __future__ import annotations

import time

import aiohttp

from tests.local_server import start_server, wait_until_idle
from tests.server.speech import connect, receive, run, speak_and_collect, until

BUSY_TEXT = " ".join(f"Sentence number {i} keeps every engine worker busy for a while." for i in range(6))
LIMIT_SECONDS = 0.25


def test_new_websocket_and_ping_are_answered_within_250_ms_while_workers_are_busy(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            busy = []
            for i in range(server.server.runtime.scheduler.workers + 1):
                ws = await connect(session, server.ws_url)
                await ws.send_json({"type": "speak", "id": f"busy{i}", "text": BUSY_TEXT})
                busy.append(ws)
            await until(busy[0], "audio")  # synthesis is under way
            assert server.stats()["running_jobs"] == server.server.runtime.scheduler.workers

            timings = {}
            started = time.perf_counter()
            probe = await session.ws_connect(server.ws_url, autoping=False)  # let the pong reach us
            ready = await receive(probe)
            timings["accept_and_ready"] = time.perf_counter() - started

            started = time.perf_counter()
            await probe.ping()
            pong = await probe.receive(timeout=5)
            timings["ping"] = time.perf_counter() - started

            started = time.perf_counter()
            async with session.get(f"{server.url}/ping") as response:
                timings["http_ping"] = time.perf_counter() - started
                status = response.status

            for ws in [*busy, probe]:
                await ws.send_json({"type": "cancel"})
                await ws.close()
            return ready, pong, status, timings

    ready, pong, status, timings = run(scenario())
    assert ready.type == "ready" and status == 200
    assert pong.type == aiohttp.WSMsgType.PONG
    assert all(seconds < LIMIT_SECONDS for seconds in timings.values()), timings


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
