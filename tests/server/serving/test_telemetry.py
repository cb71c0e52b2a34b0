"""Metrics as CloudWatch receives them: Embedded Metric Format records on the server's stdout."""

from __future__ import annotations

import json
import signal

import aiohttp

from kokoro_core import metrics
from kokoro_server.serving.telemetry import emf
from kokoro_tools.ports import free_port
from tests.server.serving.server_process import OutputReader, ping_statuses, start
from tests.speech import connect, run, until
from tests.waiting import await_until


def test_emf_record_declares_every_metric_it_carries():
    record = emf(
        "KokoroTTS",
        {"Endpoint": "kokoro-tts"},
        {"TimeToFirstAudio": (42.5, "Milliseconds"), "RealTimeFactor": (0.03, "None"), "QueueDepth": (2, "Count")},
    )
    directive = record["_aws"]["CloudWatchMetrics"][0]
    assert directive["Namespace"] == "KokoroTTS"
    assert directive["Dimensions"] == [["Endpoint"]] and record["Endpoint"] == "kokoro-tts"
    declared = {metric["Name"]: metric["Unit"] for metric in directive["Metrics"]}
    assert declared == {"TimeToFirstAudio": "Milliseconds", "RealTimeFactor": "None", "QueueDepth": "Count"}
    assert (record["TimeToFirstAudio"], record["RealTimeFactor"], record["QueueDepth"]) == (42.5, 0.03, 2)
    assert isinstance(record["_aws"]["Timestamp"], int) and record["_aws"]["Timestamp"] > 1_600_000_000_000


def emf_records(output: str) -> list[dict]:
    lines = (json.loads(line) for line in output.splitlines() if line.startswith("{"))
    return [line for line in lines if "_aws" in line or line.get("event") == "stopping"]


def declared(record: dict) -> set[str]:
    return {metric["Name"] for metric in record["_aws"]["CloudWatchMetrics"][0]["Metrics"]}


def test_ready_server_reports_its_load_as_a_gauge_until_it_drains(embedded_model_dir):
    port = free_port()
    process = start(embedded_model_dir, port, KOKORO_LOAD_SAMPLE_SECONDS="0.1", KOKORO_ENDPOINT_NAME="tts-prod")
    reader = OutputReader(process)
    try:
        assert ping_statuses(port, process)[-1] == 200

        def idle_samples_after(line: int) -> int:
            load = [r for r in emf_records("".join(reader.lines[line:])) if metrics.QUEUE_DEPTH in r]
            return sum(1 for r in load if r[metrics.SESSIONS] == 0 and r[metrics.ACTIVE_UTTERANCES] == 0)

        async def speak_while_sampled():
            async with aiohttp.ClientSession() as session:
                ws = await connect(session, f"http://127.0.0.1:{port}/invocations-bidirectional-stream")
                await ws.send_json({"type": "speak", "id": "u1", "text": "Counting the sessions while I talk."})
                await until(ws, "done", "u1")
                await ws.close()
                closed_at = len(reader.lines)
                await await_until(lambda: idle_samples_after(closed_at) >= 2, "samples after the session has gone")

        run(speak_while_sampled())
        process.send_signal(signal.SIGTERM)
        output = reader.output(timeout=60)
    finally:
        process.kill()

    records = emf_records(output)
    stopping = next(i for i, record in enumerate(records) if record.get("event") == "stopping")
    load = [r for r in records[:stopping] if metrics.QUEUE_DEPTH in r]
    utterances = [r for r in records if metrics.TIME_TO_FIRST_AUDIO in r]
    assert len(load) >= 3
    gauges = {metrics.QUEUE_DEPTH, metrics.ACTIVE_UTTERANCES, metrics.SESSIONS, metrics.BATCH_SIZE, metrics.ON_GPU}
    assert all(declared(r) == gauges for r in load)
    assert all(r[metrics.ON_GPU] == 0 for r in load)  # no GPU here: the alarm on GPU types would see it
    assert all(
        r[metrics.DIMENSION] == "tts-prod" and r["_aws"]["CloudWatchMetrics"][0]["Namespace"] == metrics.NAMESPACE
        for r in load
    )
    # The gauge saw the session open and speaking, and saw it go again.
    assert max(r[metrics.SESSIONS] for r in load) == 1 and max(r[metrics.ACTIVE_UTTERANCES] for r in load) == 1
    assert load[-1][metrics.SESSIONS] == 0 and load[-1][metrics.ACTIVE_UTTERANCES] == 0
    # One session's chunks went one per model call; an idle sample counts none.
    assert max(r[metrics.BATCH_SIZE] for r in load) == 1 and load[-1][metrics.BATCH_SIZE] == 0
    # A draining server stops reporting, so it no longer counts as a ready instance.
    assert not any(metrics.QUEUE_DEPTH in r for r in records[stopping:])
    # The utterance's own record carries its latency, not the gauge.
    assert len(utterances) == 1 and declared(utterances[0]) == {metrics.TIME_TO_FIRST_AUDIO, metrics.REAL_TIME_FACTOR}
    assert 0 < utterances[0][metrics.TIME_TO_FIRST_AUDIO] < 30_000
