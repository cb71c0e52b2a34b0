"""Each step's files: its JSON, a Markdown table and its plots (plots.py)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from .batching import described


def command_line() -> str:
    """The command as typed, for the reports."""
    return "kokoro-stream " + shlex.join(sys.argv[1:])


def read_json(path: Path, what: str) -> dict[str, Any]:
    """A step's JSON, or a ValueError that names the file and what is wrong with it."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{what} {path}: {error}") from None
    if not isinstance(loaded, dict):
        raise ValueError(f"{what} {path}: expected a JSON object")
    return loaded


def write_json(out: Path, name: str, document: Any, indent: int | None = 1) -> Path:
    """``indent=None`` for long tables of numbers: one line, a third of the size."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(json.dumps(document, indent=indent, default=str) + "\n", encoding="utf-8")
    return path


def write_text(out: Path, name: str, text: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_text(text, encoding="utf-8")
    return path


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, dict) and {"min", "median", "max"} <= set(value):
        return f"{value['median']:g} ({value['min']:g}–{value['max']:g})"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def measure_markdown(results: dict[str, Any]) -> str:
    slo = results["slo"]
    ladder = results["ladder"]
    lines = [
        "# Capacity: one instance's concurrency ladder",
        "",
        f"Command: `{results.get('command', '')}`",
        "",
        f"Target: {results['machine']['target']} "
        f"({results['machine']['platform']}, {results['machine']['cpus']} CPUs).",
        f"Traffic: {results['traffic']['listen']} s listening, {results['traffic']['think']} s thinking, "
        f"{results['traffic']['turns_per_session']} turns a session, replies streamed at "
        f"{results['traffic']['tokens_per_second']:g} tokens/s.",
        f"Each level held {ladder['hold_seconds']:g} s and measured over its last {ladder['window_seconds']:g} s, "
        f"{ladder['repeats']} repeat(s). SLO: TTFA p95 ≤ {slo['ttfa_p95_ms']:g} ms (from the first sentence "
        f"complete to its first audio), at most {slo['max_stalls']} stalls, no errors.",
        f"Server-side concurrency: {results['metric_source']}.",
        f"Batching: {described(results.get('server'))}. Q_max holds for this batching: deploy the same "
        "(`plan` pins it in the profile when it is known).",
        "",
    ]
    for route, measured in results["routes"].items():
        summary = measured["summary"]
        lines += [
            f"## Route {route}: Q_max = **{summary['q_max']}** sessions, metric ratio {summary['metric_ratio']:g}, "
            f"speech duty {_cell(summary['speech_duty'])}",
            "",
            "| sessions | met SLO, every repeat | TTFA p95 ms (median, min–max) | TTFA p50 ms | stalls | errors "
            "| audio s per s | metric / client |",
            "| ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in summary["levels"]:
            lines.append(
                f"| {row['level']} | {'yes' if row['met_every_repeat'] else 'no'} | {_cell(row['ttfa_p95_ms'])} | "
                f"{_cell(row['ttfa_p50_ms'])} | {_cell(row['stalls'])} | {_cell(row['errors'])} | "
                f"{_cell(row['audio_s_per_s'])} | {_cell(row['metric_ratio'])} |"
            )
        lines.append("")
    return "\n".join(lines)


def validate_markdown(validation: dict[str, Any], trace: str, command: str) -> str:
    world = validation["world"]
    lines = [
        f"# Capacity: the policy against the `{trace}` trace (simulated Application Auto Scaling)",
        "",
        f"Command: `{command}`",
        "",
        f"SLO TTFA p95 ≤ {world['slo_ms']:g} ms; scale-out {world['scale_out_seconds']:g} s; metric ratio "
        f"{world['metric_ratio']:g}; {world['usd_per_instance_hour']:g} USD per instance-hour.",
        "",
        "| policy | breach (session-min) | breach share | refused (session-min) | instance-hours | cost USD "
        "| USD per audio hour | peak instances |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for run in validation["results"]:
        lines.append(
            f"| {run['policy']} | {run['breach_session_minutes']:g} | {run['breach_share']:.2%} | "
            f"{run['refused_session_minutes']:g} | {run['instance_hours']:g} | {run['cost_usd']:g} | "
            f"{_cell(run['usd_per_audio_hour'])} | {run['peak_instances']} |"
        )
    return "\n".join(lines) + "\n"


def stages_markdown(report: dict[str, Any], command: str) -> str:
    lines = ["# Capacity: time to add one instance", "", f"Command: `{command}`", ""]
    lines += [
        "| run | " + " | ".join(report["stages"]) + " | total s |",
        "| ---: |" + " ---: |" * (len(report["stages"]) + 1),
    ]
    for number, run in enumerate(report["runs"], 1):
        cells = " | ".join(_cell(run["stages_s"].get(stage)) for stage in report["stages"])
        lines.append(f"| {number} | {cells} | {_cell(run['total_s'])} |")
    lines += [
        "",
        f"Scale-out time used by `plan`: **{report['scale_out_seconds']:g} s** ({report['scale_out_basis']}).",
    ]
    for stage, why in report.get("not_shown", {}).items():
        lines.append(f"- {stage}: not shown here: {why}.")
    return "\n".join(lines) + "\n"
