"""The event loop never runs inference: with every worker busy, accepts and pings stay fast."""

from __future__ import annotations

import time

import aiohttp

from tests.server.speech import connect, receive, run, until

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
