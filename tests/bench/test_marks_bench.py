"""The marks benchmark runs end to end on the embedded model (one reply, one round) and writes its JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_the_marks_bench_times_both_routes_with_marks_on_and_off(tmp_path: Path, embedded_model_dir: Path) -> None:
    out = tmp_path / "marks.json"
    command = [sys.executable, "-m", "kokoro_bench.marks", "--rounds", "1", "--replies", "1", "--out", str(out)]
    done = subprocess.run(
        [*command, "--model-dir", str(embedded_model_dir)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads(out.read_text())
    assert set(result["samples_ms"]) == {"ws_off", "ws_on", "post_off", "post_on"}
    assert all(len(values) == 1 and values[0] > 0 for values in result["samples_ms"].values())
    assert set(result["ttfa_on_over_off_paired_median"]) == {"websocket", "post"}
    assert 0 < result["word_mapping_vs_synthesis"]["share"] < 1
