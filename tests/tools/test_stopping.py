"""The long-running commands stop on Ctrl-C or SIGTERM within the bound each states, whatever clients hold
open, with the machine busy.

Each command measures its stop from the signal and prints it last. A stream or request that the test
holds open forever (its sentence never leaves the fake engine's gate) must be cut at the grace deadline,
not waited for: that is the claim, and it holds on any machine. The printed figure is checked against
the stated bound with a scheduling allowance, since a process on a busy machine wakes late after a
deadline; the wait for the process to exit is only a hang guard.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import aiohttp
import pytest

from kokoro_core.protocol import Configure, Speak
from kokoro_tools.emulator_host import RunningEmulator, emulating
from kokoro_tools.ports import free_port
from tests.busy_machine import busy_cores
from tests.fake_server import fake_server
from tests.speech import run
from tests.tools.emulated import ENDPOINT, REGION, any_credentials, bidi
from tests.waiting import HANG_GUARD_SECONDS, await_until, within

STOPPED = re.compile(r"stopped in (?P<seconds>[\d.]+) s \(bound (?P<bound>[\d.]+) s\)(?P<detail>.*)")
SCHEDULING_ALLOWANCE_SECONDS = 1.0  # how late a process on a busy machine may wake after its last deadline


@pytest.fixture(autouse=True)
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    any_credentials(monkeypatch)


def start(*arguments: str, **environment: str) -> subprocess.Popen[str]:
    """``kokoro-stream ARGUMENTS`` as a user starts it; its first line says it is ready."""
    command = [sys.executable, "-c", "from kokoro_stream.cli import main; main()", *arguments]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **environment}
    )


def ready_line(process: subprocess.Popen[str]) -> str:
    return process.stdout.readline() if process.stdout else ""


def stop(process: subprocess.Popen[str], signum: int) -> re.Match[str]:
    """Signal ``process`` with every core busy; its report of the stop, checked against its stated bound."""
    with busy_cores():
        process.send_signal(signum)
        output, _ = process.communicate(timeout=HANG_GUARD_SECONDS)
    assert process.returncode == 0, output
    report = STOPPED.search(output)
    assert report, output
    assert float(report["seconds"]) <= float(report["bound"]) + SCHEDULING_ALLOWANCE_SECONDS, report[0]
    return report


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_emulate_cuts_a_stream_held_open_and_stops_within_its_bound(tmp_path: Path, signum: int) -> None:
    port, ca_file = free_port(), tmp_path / "ca.pem"
    with fake_server(gate=threading.Event()) as (server, engine):
        process = start("emulate", "--url", server.url, "--port", str(port), "--ca-out", str(ca_file))
        try:
            assert f"https://127.0.0.1:{port}" in ready_line(process)
            transport = bidi(RunningEmulator(f"https://127.0.0.1:{port}", ca_file))

            async def held_open_then_stopped() -> re.Match[str]:
                await transport.connect(Configure())
                await transport.send(Speak(text="This sentence never leaves the engine."))
                await await_until(lambda: engine.calls, "the sentence to reach the engine")
                try:
                    return await asyncio.to_thread(stop, process, signum)
                finally:
                    await transport.close()

            report = run(held_open_then_stopped())
        finally:
            process.kill()
    assert "cut" in report["detail"]


def test_emulate_stops_at_once_when_nothing_is_open(tmp_path: Path) -> None:
    with fake_server() as (server, _):
        port = free_port()
        process = start("emulate", "--url", server.url, "--port", str(port), "--ca-out", str(tmp_path / "ca.pem"))
        try:
            assert f"https://127.0.0.1:{port}" in ready_line(process)
            report = stop(process, signal.SIGINT)
        finally:
            process.kill()
    assert "cut" not in report["detail"]


def test_the_proxy_stops_within_its_bound_with_a_request_in_flight() -> None:
    with (
        fake_server(gate=threading.Event()) as (server, engine),
        emulating(server.url, ENDPOINT, REGION) as emulator,
    ):
        port = free_port()
        arguments = ["proxy", "--endpoint", ENDPOINT, "--region", REGION, "--port", str(port)]
        process = start(*arguments, "--endpoint-url", emulator.url, "--ca-file", str(emulator.ca_file))
        try:
            assert f"http://127.0.0.1:{port}/v1" in ready_line(process)

            async def in_flight_then_stopped() -> re.Match[str]:
                async with aiohttp.ClientSession() as session:
                    body = {"model": "tts-1", "input": "This sentence never leaves the engine.", "voice": "af_heart"}
                    request = asyncio.ensure_future(session.post(f"http://127.0.0.1:{port}/v1/audio/speech", json=body))
                    await await_until(lambda: engine.calls, "the sentence to reach the engine")
                    report = await asyncio.to_thread(stop, process, signal.SIGTERM)
                    request.cancel()
                    await asyncio.gather(request, return_exceptions=True)
                    return report

            run(in_flight_then_stopped())
        finally:
            process.kill()


def test_the_playground_stops_within_its_bound_with_a_page_speaking() -> None:
    with fake_server(gate=threading.Event()) as (server, engine):
        port = free_port()
        process = start("playground", "--url", server.url, "--port", str(port))
        try:
            assert f"http://127.0.0.1:{port}/" in ready_line(process)

            async def speaking_then_stopped() -> re.Match[str]:
                page = f"http://127.0.0.1:{port}"
                async with (
                    aiohttp.ClientSession() as session,
                    session.ws_connect(f"{page}/session", headers={"Origin": page}) as ws,
                ):
                    assert (await within(ws.receive_json(), "the page's session"))["type"] == "ready"
                    await ws.send_json({"type": "speak", "text": "This sentence never leaves the engine."})
                    await await_until(lambda: engine.calls, "the sentence to reach the engine")
                    return await asyncio.to_thread(stop, process, signal.SIGINT)

            run(speaking_then_stopped())
        finally:
            process.kill()
