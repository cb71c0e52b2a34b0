"""`kokoro-agent serve` stops on SIGTERM while a caller holds a turn open: the turn's speech never leaves the
fake engine's gate, so only the server's graceful-shutdown bound can end it. Waiting for the process is a
hang guard; the machine is kept busy meanwhile."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import urllib.request

import aiohttp

from kokoro_agent.invoke import invoke
from kokoro_tools.ports import free_port
from tests.busy_machine import busy_cores
from tests.fake_server import fake_server
from tests.speech import run
from tests.waiting import HANG_GUARD_SECONDS, await_until, wait_until


def _answers_ping(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/ping", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def test_the_agent_stops_on_sigterm_with_a_turn_held_open() -> None:
    with fake_server(threading.Event()) as (server, engine):
        port = free_port()
        environment = {
            **os.environ,
            "KOKORO_AGENT_SCRIPT": "This answer is held in the engine. It never ends.",
            "KOKORO_AGENT_TTS_URL": server.ws_url,
        }
        command = [sys.executable, "-m", "kokoro_agent", "serve", "--port", str(port)]
        process = subprocess.Popen(command, env=environment, stderr=subprocess.PIPE, text=True)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until(lambda: _answers_ping(url) or process.poll() is not None, "the agent to answer /ping")

            async def held_then_stopped() -> int:
                async with aiohttp.ClientSession() as http:
                    events = invoke(http, url, {"prompt": "Hold on."}, "held")
                    turn = asyncio.ensure_future(anext(events))  # the turn begins and stays open
                    await await_until(lambda: engine.calls, "the answer's speech to reach the engine")
                    with busy_cores():
                        process.send_signal(signal.SIGTERM)
                        status = await asyncio.to_thread(process.wait, HANG_GUARD_SECONDS)
                    turn.cancel()
                    await asyncio.gather(turn, return_exceptions=True)
                    await events.aclose()
                    return status

            # uvicorn ends by raising the signal it stopped for again, as a process without handlers would.
            status = run(held_then_stopped())
            output = process.stderr.read() if process.stderr else ""
            assert status in (0, -signal.SIGTERM), output
            assert "timeout graceful shutdown exceeded" in output  # the held turn was cut, not waited for
        finally:
            process.kill()
