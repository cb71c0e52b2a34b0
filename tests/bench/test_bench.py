"""The benchmark: playback arithmetic, and a smoke run of `kokoro-stream bench --quick`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kokoro_capacity.timeline import Timeline, percentile
from kokoro_stream.cli import app


def test_a_stall_is_silence_between_chunks_after_playback_began():
    second = 48_000  # one second of 16-bit audio at 24 kHz
    timeline = Timeline(arrivals=[(1.0, second), (1.5, second), (3.5, second)])
    assert timeline.first_audio_s == 1.0 and timeline.audio_s == 3.0
    # plays 1.0-2.0, then 2.0-3.0 (it arrived at 1.5), then waits for the third until 3.5
    assert timeline.stalls() == (1, 0.5)
    assert timeline.playback_end_s() == 1.0 + 3.0 + 0.5


def test_audio_arriving_ahead_of_playback_never_stalls():
    timeline = Timeline(arrivals=[(0.5, 48_000), (0.9, 48_000), (1.2, 96_000)])
    assert timeline.stalls() == (0, 0.0)


def test_percentile_is_nearest_rank():
    assert percentile([5, 1, 3, 2, 4], 50) == 3 and percentile([5, 1, 3, 2, 4], 95) == 5


def test_bench_quick_smoke_run_writes_json_table_and_plots(server, idle_after, tmp_path):
    out = tmp_path / "bench"
    result = CliRunner().invoke(app, ["bench", "--quick", "--url", server.url, "--out", str(out)])
    assert result.exit_code == 0, result.output
    results = json.loads((out / "bench.json").read_text())
    figures = results["replies"]["short-yes"]["by_rate"]["30"]
    assert set(figures) >= {"wait_full", "sentence_post", "bidi", "engine", "physical_limit_ms"}
    for strategy in ("wait_full", "sentence_post", "bidi", "engine"):
        assert figures[strategy]["audio_s"] > 1 and figures[strategy]["ttfa_ms"] > 0
    assert [level["sessions"] for level in results["concurrency"]] == [1, 2]
    assert set(results["summary"]["targets"]) and "bidi session" in (out / "bench.md").read_text()
    for plot in ("ttfa_by_strategy.png", "stall_timeline.png", "concurrency.png"):
        assert (out / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_quick_runs_against_an_endpoint_through_the_emulator(server, idle_after, tmp_path, monkeypatch):
    """`--endpoint` as on AWS (the SDK's bidirectional stream, boto3's response streams), here through
    `kokoro-stream emulate` in front of the local server."""
    from kokoro_tools.emulator_host import emulating
    from tests.tools.emulated import ENDPOINT, REGION, any_credentials

    any_credentials(monkeypatch)
    out = tmp_path / "bench"
    with emulating(server.url, ENDPOINT, REGION) as emulator:
        endpoint = ["--endpoint", ENDPOINT, "--region", REGION, "--endpoint-url", emulator.url]
        arguments = ["bench", "--quick", *endpoint, "--ca-file", str(emulator.ca_file), "--levels", "1"]
        result = CliRunner().invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 0, result.output
    results = json.loads((out / "bench.json").read_text())
    assert results["machine"]["target"] == f"SageMaker endpoint {ENDPOINT} ({REGION}) at {emulator.url}"
    figures = results["replies"]["short-yes"]["by_rate"]["30"]
    # Every strategy's audio came through the runtime's wire formats: the whole reply, however it was cut
    # (a POST per sentence trims each sentence's silence, one request the reply's: within 10 %).
    lengths = [figures[strategy]["audio_s"] for strategy in ("wait_full", "sentence_post", "bidi")]
    assert min(lengths) > 1 and max(lengths) < 1.1 * min(lengths), lengths
