"""Speech duty: seconds of audio per second of session, from the server's own telemetry (its utterance
records and its load gauge), read from a server here, a log file or the endpoint's CloudWatch Logs."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from .corpus import AGENT_REPLIES, load_replies
from .local import Opened
from .server_log import Telemetry, read_log_file
from .sessions import hold, new_load, ticking
from .traffic import TrafficModel


def _result(telemetry: Telemetry, start: float, end: float, source: str) -> dict[str, Any]:
    duty = telemetry.duty(start, end)
    if duty is None:
        raise ValueError(
            f"{source}: no load samples with open sessions between the window's ends: nothing to divide by"
        )
    return {**{key: round(value, 4) for key, value in duty.items()}, "source": source, "start": start, "end": end}


def local_duty(opened: Opened, sessions: int, seconds: float, traffic: TrafficModel | None = None) -> dict[str, Any]:
    """Agent sessions run against a server whose telemetry is read here, for ``seconds``."""
    assert opened.telemetry is not None
    traffic = traffic or TrafficModel(load_replies(AGENT_REPLIES))
    load = new_load(opened.target, traffic)

    async def run() -> tuple[float, float]:
        async with ticking(seconds, f"capacity duty ({sessions} sessions)"):
            return await hold(load, sessions, seconds)

    start, end = asyncio.run(run())
    result = _result(opened.telemetry, start, end, f"{opened.kind}: the server's log lines, read here")
    result["traffic"] = traffic.described()
    return result


def log_file_duty(path: Path, sample_seconds: float) -> dict[str, Any]:
    telemetry = read_log_file(path, Telemetry(sample_seconds=sample_seconds))
    if not telemetry.loads:
        raise ValueError(f"{path}: no load samples (EMF lines with Sessions) in it")
    return _result(telemetry, telemetry.loads[0].at, telemetry.loads[-1].at, f"log file {path}")


def endpoint_duty(
    endpoint: str, region: str, minutes: float, sample_seconds: float, logs: Any = None, now: float | None = None
) -> dict[str, Any]:
    """The endpoint's log lines of the last ``minutes`` (CloudWatch Logs ``filter_log_events``)."""
    from .aws import endpoint_telemetry, log_group

    if logs is None:
        import boto3

        logs = boto3.client("logs", region_name=region)
    end = time.time() if now is None else now
    start = end - minutes * 60
    telemetry = endpoint_telemetry(logs, endpoint, start, end, sample_seconds)
    return _result(telemetry, start, end, f"CloudWatch Logs {log_group(endpoint)}, last {minutes:g} min")


def duty_markdown(result: dict[str, Any]) -> str:
    return (
        "# Capacity: speech duty\n\n"
        f"Command: `{result.get('command', '')}`\n\nSource: {result['source']}.\n\n"
        "| speech duty | engine duty | audio s | engine s | session s | utterances | characters per audio s |\n"
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        f"| {result['speech_duty']} | {result['engine_duty']} | {result['audio_s']} | {result['synth_s']} | "
        f"{result['session_s']} | {result['utterances']} | {result['chars_per_audio_s']} |\n\n"
        "Speech duty: audio seconds per session-second (what `plan` sizes with); engine duty: the engine's "
        "seconds per session-second on this hardware.\n"
    )
