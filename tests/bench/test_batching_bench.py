"""The batching bench's steps, on the fake engine (a device that speaks a batch in the time of its longest
item): the engine at each batch size, servers with batching off and on at each level, the JSON and the plot.
What it measures on the real model is in docs/bench/batching.json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_the_bench_writes_engine_and_server_figures_side_by_side(tmp_path: Path) -> None:
    out, plot = tmp_path / "batching.json", tmp_path / "batching.png"
    done = subprocess.run(
        [sys.executable, "-m", "kokoro_bench.batching", "--engine", "fake", "--out", str(out), "--plot", str(plot)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads(out.read_text())
    assert [row["batch"] for row in result["engine"]["sizes"]] == [1, 2, 4]
    assert all(row["audio_s_per_s"] > 0 and row["item_latency_ms"] > 0 for row in result["engine"]["sizes"])
    server = result["server"]
    assert server["configs"]["off"]["max_batch"] == 1 and server["configs"]["on"]["max_batch"] == 4
    for rows in server["levels"].values():
        assert [row["sessions"] for row in rows] == [1, 2, 4]
        assert all(row["ttfa_p95_ms"] > 0 and row["throughput_audio_s_per_s"] > 0 for row in rows)
    assert [row["sessions"] for row in server["against_off"]] == [1, 2, 4]
    # Four sessions at once on a device that batches: the calls held more than one chunk each.
    assert server["levels"]["on"][-1]["chunks_per_call"] > 1 and server["levels"]["off"][-1]["chunks_per_call"] == 1
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
