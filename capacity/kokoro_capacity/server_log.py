"""The server's own telemetry as lines: per-utterance records and the load gauge (EMF), wherever the lines
come from (a server in this process, a log file, CloudWatch Logs).

Speech duty is read from them: seconds of audio the utterances made, over the session-seconds the load
gauge counted (its ``Sessions`` value times the sample period, summed).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kokoro_core import metrics


@dataclass(frozen=True)
class UtteranceLine:
    at: float  # epoch seconds
    stream: str  # the log stream (one per instance on SageMaker)
    chars: int
    audio_s: float
    synth_s: float
    outcome: str


@dataclass(frozen=True)
class LoadLine:
    at: float
    stream: str
    sessions: int
    active_utterances: int
    queued_jobs: int


def parse_line(message: str, at: float, stream: str = "local") -> UtteranceLine | LoadLine | None:
    """One log line, or None when it is neither an utterance record nor a load sample."""
    try:
        record = json.loads(message)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    if record.get("event") == "utterance":
        return UtteranceLine(
            at,
            stream,
            int(record.get("chars") or 0),
            float(record.get("audio_ms") or 0) / 1000,
            float(record.get("synth_ms") or 0) / 1000,
            str(record.get("outcome", "")),
        )
    if "_aws" in record and metrics.SESSIONS in record:
        stamp = record["_aws"].get("Timestamp")
        return LoadLine(
            stamp / 1000 if isinstance(stamp, int | float) else at,
            stream,
            int(record[metrics.SESSIONS]),
            int(record.get(metrics.ACTIVE_UTTERANCES, 0)),
            int(record.get(metrics.QUEUE_DEPTH, 0)),
        )
    return None


@dataclass
class Telemetry:
    """Parsed lines, in arrival order, with the load gauge's sample period."""

    sample_seconds: float = float(metrics.LOAD_SAMPLE_SECONDS)
    utterances: list[UtteranceLine] = field(default_factory=list)
    loads: list[LoadLine] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, line: UtteranceLine | LoadLine | None) -> None:
        with self._lock:
            if isinstance(line, UtteranceLine):
                self.utterances.append(line)
            elif isinstance(line, LoadLine):
                self.loads.append(line)

    def extend(self, messages: Iterable[tuple[str, float, str]]) -> Telemetry:
        for message, at, stream in messages:
            self.add(parse_line(message, at, stream))
        return self

    def gauge(self, start: float, end: float) -> dict[str, float] | None:
        """Mean and peak of the load gauge per instance between ``start`` and ``end``; None without samples."""
        with self._lock:
            samples = [line for line in self.loads if start <= line.at <= end]
        if not samples:
            return None
        streams = {line.stream for line in samples}
        per_instance = len(samples) / len(streams)
        return {
            "sessions_mean": sum(line.sessions for line in samples) / len(streams) / per_instance,
            "active_utterances_mean": sum(line.active_utterances for line in samples) / len(streams) / per_instance,
            "active_utterances_max": max(line.active_utterances for line in samples),
            "samples": len(samples),
        }

    def duty(self, start: float, end: float) -> dict[str, float] | None:
        """Audio and engine seconds per session-second between ``start`` and ``end``; None without sessions."""
        with self._lock:
            utterances = [line for line in self.utterances if start <= line.at <= end]
            loads = [line for line in self.loads if start <= line.at <= end]
        session_seconds = sum(line.sessions for line in loads) * self.sample_seconds
        if session_seconds <= 0:
            return None
        audio = sum(line.audio_s for line in utterances)
        synth = sum(line.synth_s for line in utterances)
        chars = sum(line.chars for line in utterances)
        return {
            "speech_duty": audio / session_seconds,
            "engine_duty": synth / session_seconds,
            "audio_s": audio,
            "synth_s": synth,
            "chars": chars,
            "session_s": session_seconds,
            "utterances": len(utterances),
            "chars_per_audio_s": chars / audio if audio else 0.0,
        }


class CapturedLog(logging.Handler):
    """The in-process server's log lines into ``telemetry`` (the server logs on the ``kokoro_server`` logger)."""

    def __init__(self, telemetry: Telemetry) -> None:
        super().__init__(logging.INFO)
        self.telemetry = telemetry

    def emit(self, record: logging.LogRecord) -> None:
        self.telemetry.add(parse_line(record.getMessage(), record.created))

    def __enter__(self) -> CapturedLog:
        logger = logging.getLogger("kokoro_server")
        logger.addHandler(self)
        if logger.getEffectiveLevel() > logging.INFO:
            logger.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc_info: object) -> None:
        logging.getLogger("kokoro_server").removeHandler(self)


def read_log_file(path: Path, telemetry: Telemetry) -> Telemetry:
    """A server's stdout saved to a file (``kokoro-stream serve > server.log``). Only the load samples carry
    a time (their EMF timestamp): an utterance line takes the time of the sample before it, at most one
    sample period early."""
    clock = 0.0
    for message in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = parse_line(message, clock)
        if isinstance(line, LoadLine):
            clock = line.at
        telemetry.add(line)
    return telemetry
