"""Bench results as files: raw JSON, a markdown table, and PNG plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kokoro_capacity.timeline import Timeline

from .strategies import STRATEGIES

LABELS = {
    "wait_full": "wait for full text",
    "sentence_post": "POST per sentence",
    "bidi": "bidi session",
    "engine": "bare engine",
    "physical_limit": "physical limit",
}


def write_report(results: dict[str, Any], out: Path, command: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    results = {**results, "command": command}
    written = [out / "bench.json", out / "bench.md"]
    written[0].write_text(json.dumps(results, indent=1) + "\n")
    written[1].write_text(markdown(results))
    written += plots(results, out)
    return written


def markdown(results: dict[str, Any]) -> str:
    summary = results["summary"]
    machine = results["machine"]
    lines = [
        "# Benchmark results",
        "",
        f"Command: `{results['command']}`",
        "",
        f"Machine: {machine['platform']}, {machine['cpus']} CPUs, server device {machine.get('server_device', '?')}, "
        f"target {machine.get('target', '?')}. Tokens arrive at {summary['tokens_per_second']:g} tokens/s.",
        "",
        "## Time to first audio (over replies) and stalls after first audio",
        "",
        "| strategy | TTFA p50 ms | TTFA p95 ms | stalls | stall ms |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for strategy in (*STRATEGIES, "physical_limit"):
        row = summary["ttfa_ms"][strategy]
        lines.append(
            f"| {LABELS[strategy]} | {row['p50']:.0f} | {row['p95']:.0f} | {row.get('stalls', '–')} | "
            f"{row.get('stall_ms', '–')} |"
        )
    lines += [
        "",
        f"- bidi TTFA is **{summary['bidi_vs_wait_full']}×** lower than waiting for the full text (p50).",
        f"- bidi TTFA is **{summary['bidi_vs_physical_limit']}×** the physical limit (p50).",
        f"- Server overhead: **{summary['server_overhead_ratio']}×** the bare engine's first-chunk time "
        f"({summary['server_overhead_ms']} ms, median over replies).",
        f"- Engine real-time factor: {results['engine_rtf']} (capacity {results['engine_capacity_audio_s_per_s']} "
        "audio s per wall s).",
        "",
        "## Concurrency (bidi sessions speaking at once)",
        "",
        "| sessions | audio s per s | share of engine capacity | TTFA p50 ms | TTFA p95 ms | fairness | stalls |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for level in results["concurrency"]:
        lines.append(
            f"| {level['sessions']} | {level['throughput_audio_s_per_s']} | {level['share_of_engine_capacity']} | "
            f"{level['ttfa_p50_ms']:.0f} | {level['ttfa_p95_ms']:.0f} | {level['fairness_max_over_min_ttfa']} | "
            f"{level['stalls']} |"
        )
    lines += ["", "## Targets", ""]
    lines += [f"- {'met' if met else '**missed**'}: {name}" for name, met in summary["targets"].items()]
    return "\n".join(lines) + "\n"


def plots(results: dict[str, Any], out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    summary = results["summary"]
    names = [*STRATEGIES, "physical_limit"]
    figure, axis = plt.subplots(figsize=(8, 4))
    p50 = [summary["ttfa_ms"][name]["p50"] for name in names]
    p95 = [summary["ttfa_ms"][name]["p95"] for name in names]
    positions = range(len(names))
    axis.bar([p - 0.2 for p in positions], p50, width=0.4, label="p50")
    axis.bar([p + 0.2 for p in positions], p95, width=0.4, label="p95")
    axis.set_xticks(list(positions), [LABELS[name] for name in names], rotation=15)
    axis.set_ylabel("time to first audio (ms)")
    axis.set_title(f"Time to first audio at {summary['tokens_per_second']:g} tokens/s")
    axis.legend()
    figure.tight_layout()
    written.append(out / "ttfa_by_strategy.png")
    figure.savefig(written[-1], dpi=120)
    plt.close(figure)

    reply_id, reply = max(results["replies"].items(), key=lambda item: item[1]["chars"])
    figures = reply["by_rate"][f"{summary['tokens_per_second']:g}"]
    figure, axis = plt.subplots(figsize=(9, 4))
    for row, strategy in enumerate(STRATEGIES):
        timeline = Timeline(arrivals=[tuple(pair) for pair in figures[strategy]["arrivals"]])
        clock = timeline.first_audio_s
        for at, size in timeline.arrivals:
            if at > clock:
                axis.broken_barh([(clock, at - clock)], (row - 0.3, 0.6), color="tab:red")
                clock = at
            axis.broken_barh([(clock, size / timeline.bytes_per_second)], (row - 0.3, 0.6), color="tab:green")
            clock += size / timeline.bytes_per_second
        axis.plot([at for at, _ in timeline.arrivals], [row + 0.35] * len(timeline.arrivals), "k|")
    axis.set_yticks(range(len(STRATEGIES)), [LABELS[s] for s in STRATEGIES])
    axis.set_xlabel("seconds since the first token (green: playing, red: stall, ticks: audio arrives)")
    axis.set_title(f"Playback of '{reply_id}'")
    figure.tight_layout()
    written.append(out / "stall_timeline.png")
    figure.savefig(written[-1], dpi=120)
    plt.close(figure)

    levels = results["concurrency"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    sessions = [level["sessions"] for level in levels]
    left.plot(sessions, [level["throughput_audio_s_per_s"] for level in levels], "o-", label="throughput")
    left.axhline(results["engine_capacity_audio_s_per_s"], color="gray", linestyle="--", label="engine capacity")
    left.set_xlabel("concurrent sessions")
    left.set_ylabel("audio seconds per wall second")
    left.legend()
    right.plot(sessions, [level["ttfa_p95_ms"] for level in levels], "o-", label="TTFA p95")
    right.plot(sessions, [level["ttfa_p50_ms"] for level in levels], "o-", label="TTFA p50")
    right.set_xlabel("concurrent sessions")
    right.set_ylabel("ms")
    right.legend()
    figure.suptitle("Concurrency sweep")
    figure.tight_layout()
    written.append(out / "concurrency.png")
    figure.savefig(written[-1], dpi=120)
    plt.close(figure)
    return written
