"""Per-utterance log lines and CloudWatch Embedded Metric Format (EMF) records on stdout.

SageMaker ships the container's stdout to CloudWatch Logs; EMF records there become metrics
without an agent or extra permissions. The metric names are in ``metrics``.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Mapping
from typing import Any

from kokoro_core import metrics

from .utterance import Utterance

log = logging.getLogger("kokoro_server")


def configure_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    root = logging.getLogger("kokoro_server")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False


def event(name: str, **fields: Any) -> None:
    """One JSON log line for a lifecycle event."""
    log.info(json.dumps({"event": name, **fields}, default=str))


def utterance_done(utterance: Utterance, outcome: str, namespace: str, endpoint: str) -> None:
    record = {
        "event": "utterance",
        "outcome": outcome,
        "session": utterance.session,
        "id": utterance.id,
        "chars": len(utterance.text),
        "voice": utterance.options.voice,
        "format": utterance.options.format.encoding,
        "sample_rate": utterance.options.format.sample_rate,
        "ttfa_ms": utterance.ttfa_ms,
        "audio_ms": utterance.audio_ms,
        "rtf": utterance.rtf,
        "synth_ms": round(utterance.progress.synth_seconds * 1000, 1),
        "text_ms": round(utterance.progress.text_seconds * 1000, 1),
        "planning_ms": round(utterance.progress.planning_seconds * 1000, 1),
    }
    log.info(json.dumps(record))
    values: dict[str, tuple[float, str]] = {}
    if utterance.ttfa_ms is not None:
        values[metrics.TIME_TO_FIRST_AUDIO] = (utterance.ttfa_ms, "Milliseconds")
    if utterance.rtf is not None:
        values[metrics.REAL_TIME_FACTOR] = (utterance.rtf, "None")
    if values:
        log.info(json.dumps(emf(namespace, {metrics.DIMENSION: endpoint}, values)))


def load_sample(
    queued_jobs: int,
    active_utterances: int,
    sessions: int,
    batch_size: float,
    on_gpu: bool,
    namespace: str,
    endpoint: str,
) -> None:
    """The gauge every ready server reports each LOAD_SAMPLE_SECONDS, busy or idle."""
    values = {
        metrics.QUEUE_DEPTH: (queued_jobs, "Count"),
        metrics.ACTIVE_UTTERANCES: (active_utterances, "Count"),
        metrics.SESSIONS: (sessions, "Count"),
        metrics.BATCH_SIZE: (batch_size, "Count"),
        metrics.ON_GPU: (1 if on_gpu else 0, "None"),
    }
    log.info(json.dumps(emf(namespace, {metrics.DIMENSION: endpoint}, values)))


def emf(namespace: str, dimensions: dict[str, str], values: Mapping[str, tuple[float, str]]) -> dict[str, Any]:
    return {
        "_aws": {
            "Timestamp": int(time.time() * 1000),
            "CloudWatchMetrics": [
                {
                    "Namespace": namespace,
                    "Dimensions": [sorted(dimensions)],
                    "Metrics": [{"Name": name, "Unit": unit} for name, (_, unit) in values.items()],
                }
            ],
        },
        **dimensions,
        **{name: value for name, (value, _) in values.items()},
    }
