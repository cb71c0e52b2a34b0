"""Embedded Metric Format records: the structure CloudWatch needs to turn log lines into metrics."""

from __future__ import annotations

from kokoro_server.telemetry import emf


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
