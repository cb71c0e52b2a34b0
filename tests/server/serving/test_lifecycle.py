"""The server as SageMaker runs it: a process that listens, gets ready, and drains on SIGTERM."""

from __future__ import annotations

import contextlib
import shutil
import signal
import time

import aiohttp
import pytest

from kokoro_server.serving.server import ABORT_SECONDS, CUT_SECONDS
from kokoro_tools.ports import free_port
from tests.busy_machine import busy_cores
from tests.server.serving.server_process import (
    SCHEDULING_ALLOWANCE_SECONDS,
    log_events,
    ping_statuses,
    start,
    stopped_within_bound,
)
from tests.speech import connect, receive, run

EXIT_HANG_GUARD_SECONDS = 90  # the stop's own bound is checked on the server's report (stopped_within_bound)
SAGEMAKER_KILLS_AFTER_SECONDS = 30  # the process, teardown included, must be gone by then


def exits_in_time(process, signaled: float) -> str:
    """Wait for the process signaled at ``signaled``; its output. It must be gone before SageMaker would kill
    it: the server's own report covers its stop, this covers what follows (the interpreter's teardown)."""
    output, _ = process.communicate(timeout=EXIT_HANG_GUARD_SECONDS)
    assert time.monotonic() - signaled < SAGEMAKER_KILLS_AFTER_SECONDS, output
    return output


def test_ping_is_503_until_ready_then_sigterm_drains_and_exits_0(embedded_model_dir):
    port = free_port()
    process = start(embedded_model_dir, port, KOKORO_DRAIN_SECONDS="10")
    try:
        statuses = ping_statuses(port, process)
        assert statuses[0] == 503 and statuses[-1] == 200, statuses

        async def drain():
            async with aiohttp.ClientSession() as session:
                ws = await connect(session, f"http://127.0.0.1:{port}/invocations-bidirectional-stream")
                await ws.send_json({"type": "speak", "id": "last-words", "text": "Finishing this before I go."})
                assert (await receive(ws)).type == "start"
                process.send_signal(signal.SIGTERM)
                events = []
                while (event := await receive(ws)) is not None:
                    events.append(event)
                try:
                    async with session.get(f"http://127.0.0.1:{port}/ping") as response:
                        late_status = response.status
                except aiohttp.ClientConnectionError:
                    late_status = None  # already stopped listening
                return events, ws.close_code, late_status

        events, close_code, late_status = run(drain())
        output, _ = process.communicate(timeout=EXIT_HANG_GUARD_SECONDS)
        assert process.returncode == 0, output
        assert stopped_within_bound(output)["bound_seconds"] == 10 + CUT_SECONDS
        assert [e.type for e in events if e.type != "audio"] == ["done"]
        assert events[-1].message["id"] == "last-words"
        assert close_code == 1001  # going away: reconnect to another instance
        assert late_status in (503, None)
        assert [e["event"] for e in log_events(output)][-2:] == ["stopping", "stopped"]
    finally:
        process.kill()


def test_sigterm_cuts_off_work_beyond_the_drain_deadline(embedded_model_dir):
    """An inference call in flight when the drain deadline passes is stopped, not waited for.

    The engine is slowed 10x here so that a chunk is certainly in inference at the deadline on any
    machine; the stop must then end within its bound of the signal, however long the chunk would have
    taken (on a slow CPU, a full chunk alone takes longer than SageMaker's 30 s after SIGTERM), with
    every core busy.
    """
    port = free_port()
    process = start(embedded_model_dir, port, KOKORO_DRAIN_SECONDS="1", KOKORO_ENGINE_SLOWDOWN="10")
    try:
        assert ping_statuses(port, process)[-1] == 200
        long_text = " ".join(f"Sentence {i} is part of a reply far too long to finish." for i in range(20))

        async def cut():
            async with aiohttp.ClientSession() as session:
                ws = await connect(session, f"http://127.0.0.1:{port}/invocations-bidirectional-stream")
                await ws.send_json({"type": "speak", "id": "long", "text": long_text})
                while (await receive(ws, timeout=300)).type != "audio":
                    pass  # the first chunk is out: the next one is in inference
                with busy_cores():
                    process.send_signal(signal.SIGTERM)
                    signaled = time.monotonic()
                    while await receive(ws, timeout=300) is not None:
                        pass
                    return ws.close_code, exits_in_time(process, signaled)

        close_code, output = run(cut())
        assert process.returncode == 0, output
        assert close_code == 1001
        events = {event["event"]: event for event in log_events(output)}
        assert events["stopping"]["unfinished"] == 1
        assert events["stopped"]["interrupted_inference_calls"] == 1
        assert stopped_within_bound(output)["bound_seconds"] == 1 + CUT_SECONDS
    finally:
        process.kill()


def test_a_crafted_text_leaves_ping_and_sigterm_answered(embedded_model_dir):
    """The text that once froze the event loop for minutes (19.6 KB of "Ab St. "): /ping answers while it
    is served, and SIGTERM ends the process within the same bound as any other work, every core busy."""
    port = free_port()
    process = start(embedded_model_dir, port, KOKORO_DRAIN_SECONDS="1")
    try:
        assert ping_statuses(port, process)[-1] == 200

        async def served():
            url = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as session:
                async with session.post(f"{url}/invocations", json={"text": "Ab St. " * 2800}) as response:
                    assert response.status == 200
                    await response.content.readany()  # its first audio: the rest is being planned and spoken
                    async with session.get(f"{url}/ping") as ping:
                        ping_status = ping.status
                    with busy_cores():
                        process.send_signal(signal.SIGTERM)
                        signaled = time.monotonic()
                        with contextlib.suppress(aiohttp.ClientError):
                            await response.read()
                        return ping_status, exits_in_time(process, signaled)

        ping_status, output = run(served())
        assert ping_status == 200
        assert process.returncode == 0, output
        stopped = stopped_within_bound(output)
        assert stopped["bound_seconds"] == 1 + CUT_SECONDS
        # The request was cut at the drain deadline, not left to the web server's graceful wait.
        assert stopped["seconds"] < 1 + ABORT_SECONDS + SCHEDULING_ALLOWANCE_SECONDS
    finally:
        process.kill()


def test_model_file_that_fails_its_sha256_is_a_clear_fatal_error(embedded_model_dir, tmp_path):
    broken = tmp_path / "model"
    shutil.copytree(embedded_model_dir, broken)
    voice = broken / "voices" / "af_heart.bin"
    voice.write_bytes(b"\0" + voice.read_bytes()[1:])
    port = free_port()
    process = start(broken, port)
    try:
        statuses = ping_statuses(port, process, timeout=60)
        output, _ = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 1
    assert 200 not in statuses
    fatal = [event for event in log_events(output) if event["event"] == "fatal"]
    assert "voices/af_heart.bin: sha256" in fatal[0]["error"]


def test_an_invalid_server_wide_lexicon_is_a_clear_fatal_error(embedded_model_dir, tmp_path):
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text('{"Kokoro": "/kə€kˈɔːɹoʊ/"}', encoding="utf-8")
    process = start(embedded_model_dir, free_port(), KOKORO_LEXICON_FILE=str(lexicon))
    try:
        output, _ = process.communicate(timeout=90)
    finally:
        process.kill()
    assert process.returncode == 1
    fatal = [event for event in log_events(output) if event["event"] == "fatal"]
    assert f"lexicon file {lexicon}" in fatal[0]["error"] and "'€'" in fatal[0]["error"]


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("KOKORO_WORKERS", "many", "KOKORO_WORKERS='many' is invalid"),
        ("KOKORO_CUDNN_CONV_ALGO_SEARCH", "FASTEST", "KOKORO_CUDNN_CONV_ALGO_SEARCH='FASTEST' is invalid"),
        ("KOKORO_DRAIN_SECONDS", "60", "KOKORO_DRAIN_SECONDS='60' is invalid"),
        ("KOKORO_ENGINE_SLOWDOWN", "0.5", "KOKORO_ENGINE_SLOWDOWN='0.5' is invalid"),
        # What is allowed, and what the setting does (its 0 included):
        ("KOKORO_MAX_BATCH", "100", "less than or equal to 64 (chunks one model call speaks, across sessions; 0:"),
    ],
)
def test_invalid_setting_exits_2_naming_it(embedded_model_dir, variable, value, expected):
    process = start(embedded_model_dir, free_port(), **{variable: value})
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 2
    assert expected in output
