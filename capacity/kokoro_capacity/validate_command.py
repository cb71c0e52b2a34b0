"""``capacity validate``: the profile's policy replayed on a trace, in simulation against alternatives, or
live against the deployed policy (``--endpoint``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from kokoro_stream.cli_options import RegionOption

TIMELINE_ROWS = 300  # the JSON keeps this many timeline rows per policy at most: files stay small
BUILT_IN = ("steady", "diurnal", "surge")
TIMELINE_COLUMNS = ("t_s", "sessions", "in_service", "desired")


def validate(
    profile: Annotated[Path, typer.Option(help="The capacity profile (capacity plan).")],
    measured: Annotated[Path, typer.Option("--measure", help="measure.json: the latency-vs-concurrency curve.")],
    trace: Annotated[str, typer.Option(help="steady, diurnal, surge, or a JSONL file of {t_s, sessions}.")] = "surge",
    endpoint: Annotated[
        str | None, typer.Option(help="Replay the trace as real sessions against this deployed endpoint.")
    ] = None,
    region: RegionOption = None,
    variant: Annotated[str, typer.Option(help="The endpoint's production variant.")] = "AllTraffic",
    seconds_per_step: Annotated[float, typer.Option(help="Live: wall seconds per trace second.")] = 1.0,
    out: Annotated[Path, typer.Option(help="Folder for validate-<trace>.json, .md and .png.")] = Path(
        "capacity-results"
    ),
) -> None:
    """Replay a trace on the policy: simulated (SLO breaches, refusals, instance-hours and cost per policy,
    against alternatives) or, with --endpoint, live (the instance count as the deployed policy moves it)."""
    from kokoro_core.capacity_profile import CapacityProfileError, load_profile

    from .report import read_json
    from .traces import trace as load_trace
    from .validate import curve_from_measure

    try:
        document = load_profile(profile)
        results = read_json(measured, "measurement")
        curve = curve_from_measure(results, document.route)
        demand = load_trace(trace, document.peak_sessions, document.growth.sessions_per_minute)
    except (CapacityProfileError, OSError, ValueError) as error:
        raise typer.BadParameter(str(error)) from None
    name = Path(trace).stem if trace not in BUILT_IN else trace
    if endpoint is not None:
        _live(document, demand, name, endpoint, region, variant, seconds_per_step, out)
        return
    _simulated(document, curve, demand, name, trace, out)


def _simulated(document: Any, curve: Any, demand: list[float], name: str, trace: str, out: Path) -> None:
    from .plots import validate_plot, wrote
    from .report import command_line, validate_markdown, write_json, write_text
    from .validate import validate as run_validate

    sessions_per_utterance = document.q_max[document.route] / document.policy.admission_limit
    validation = run_validate(document, curve, demand, sessions_per_utterance)
    plot = validate_plot(validation, out, name)
    for run in validation["results"]:  # the JSON's timeline: every few minutes, rows of numbers
        step = max(1, len(run["timeline"]) // TIMELINE_ROWS)
        rows = run["timeline"][::step]
        run["timeline"] = {
            "columns": list(TIMELINE_COLUMNS),
            "rows": [[row[c] for c in TIMELINE_COLUMNS] for row in rows],
        }
    command = command_line()
    write_json(out, f"validate-{name}.json", {**validation, "trace": trace, "command": command}, indent=None)
    write_text(out, f"validate-{name}.md", validate_markdown(validation, name, command))
    typer.echo(f"wrote {out}/validate-{name}.json and .md; {wrote(plot)}")
    for run in validation["results"]:
        typer.echo(
            f"  {run['policy']}: breach {run['breach_share']:.2%}, refused {run['refused_session_minutes']:g} "
            f"session-min, {run['instance_hours']:g} instance-hours, {run['cost_usd']:g} USD"
        )


def _live(
    document: Any,
    demand: list[float],
    name: str,
    endpoint: str,
    region: str | None,
    variant: str,
    seconds_per_step: float,
    out: Path,
) -> None:
    import asyncio

    import boto3

    from kokoro_stream.cli_options import endpoint_from_options

    from .corpus import AGENT_REPLIES, load_replies
    from .live_validate import follow_trace, instance_count, minute_figures
    from .plots import live_plot, wrote
    from .report import command_line, write_json
    from .sessions import SpeechTarget, new_load
    from .traffic import TrafficModel

    address = endpoint_from_options(endpoint, region, None, None)
    sagemaker = boto3.client("sagemaker", region_name=address.region)
    load = new_load(
        SpeechTarget(address.bidi, address.runtime_client(), address.name), TrafficModel(load_replies(AGENT_REPLIES))
    )
    start = time.time()
    samples = asyncio.run(
        follow_trace(load, demand, seconds_per_step, lambda: instance_count(sagemaker, endpoint, variant))
    )
    document_out = {
        "trace": name,
        "endpoint": endpoint,
        "command": command_line(),
        "instances": samples,
        "minutes": minute_figures(load, start),
        "slo": document.slo.model_dump(),
    }
    path = write_json(out, f"validate-live-{name}.json", document_out)
    plot = live_plot(samples, out, name)
    typer.echo(f"wrote {path}: {len(samples)} instance-count samples, {len(load.turns)} turns; {wrote(plot)}")
