"""``capacity validate``: the profile's policy replayed on a trace, in simulation, against alternatives."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

TIMELINE_ROWS = 300  # the JSON keeps this many timeline rows per policy at most: files stay small


def validate(
    profile: Annotated[Path, typer.Option(help="The capacity profile (capacity plan).")],
    measured: Annotated[Path, typer.Option("--measure", help="measure.json: the latency-vs-concurrency curve.")],
    trace: Annotated[str, typer.Option(help="steady, diurnal, surge, or a JSONL file of {t_s, sessions}.")] = "surge",
    out: Annotated[Path, typer.Option(help="Folder for validate-<trace>.json, .md and .png.")] = Path(
        "capacity-results"
    ),
) -> None:
    """Simulate Application Auto Scaling on the trace: SLO breaches, refusals, instance-hours and cost per policy."""
    from kokoro_core.capacity_profile import CapacityProfileError, load_profile

    from .plots import validate_plot
    from .report import command_line, read_json, validate_markdown, write_json, write_text
    from .traces import trace as load_trace
    from .validate import curve_from_measure
    from .validate import validate as run_validate

    try:
        document = load_profile(profile)
        results = read_json(measured, "measurement")
        curve = curve_from_measure(results, document.route)
        demand = load_trace(trace, document.peak_sessions, document.growth.sessions_per_minute)
    except (CapacityProfileError, OSError, ValueError) as error:
        raise typer.BadParameter(str(error)) from None
    q_max = document.q_max[document.route]
    sessions_per_utterance = q_max / document.policy.admission_limit  # admission was set at Q_max's utterances
    validation = run_validate(document, curve, demand, sessions_per_utterance)
    name = Path(trace).stem if trace not in ("steady", "diurnal", "surge") else trace
    command = command_line()
    plot = validate_plot(validation, out, name)
    for run in validation["results"]:
        step = max(1, len(run["timeline"]) // TIMELINE_ROWS)
        run["timeline"] = run["timeline"][::step]
    write_json(out, f"validate-{name}.json", {**validation, "trace": trace, "command": command})
    write_text(out, f"validate-{name}.md", validate_markdown(validation, name, command))
    typer.echo(f"wrote {out}/validate-{name}.json, .md and {plot.name}")
    for run in validation["results"]:
        typer.echo(
            f"  {run['policy']}: breach {run['breach_share']:.2%}, refused {run['refused_session_minutes']:g} "
            f"session-min, {run['instance_hours']:g} instance-hours, {run['cost_usd']:g} USD"
        )
