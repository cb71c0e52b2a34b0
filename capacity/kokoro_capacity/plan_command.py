"""``capacity plan``: the measurement's files in, the capacity profile and its explanation out."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from kokoro_core.capacity_profile import created_now, flavor_requirements, requirements_sha256

GPU_FAMILIES = "gp"  # an instance family starting with g or p has a GPU: the image's gpu flavor


def plan(
    measured: Annotated[Path, typer.Option("--measure", help="measure.json from capacity measure.")],
    growth: Annotated[float, typer.Option(help="Sessions added per minute at peak (an assumption: say yours).")],
    peak_sessions: Annotated[int, typer.Option(help="Concurrent sessions at peak.")],
    duty: Annotated[
        Path | None, typer.Option(help="duty.json from capacity duty (default: the measurement's).")
    ] = None,
    scale_out: Annotated[Path | None, typer.Option(help="scale-out.json from capacity scale-out.")] = None,
    scale_out_seconds: Annotated[
        float | None, typer.Option(help="The scale-out time, if not from --scale-out (or added to a local one).")
    ] = None,
    instance_type: Annotated[
        str | None,
        typer.Option(help="The instance type measured; required for a local rehearsal (what it stands for)."),
    ] = None,
    route: Annotated[str, typer.Option(help="The route the policy is sized for: bidi or post.")] = "bidi",
    metric: Annotated[
        str, typer.Option(help="ConcurrentRequestsPerModelHighResolution or ConcurrentRequestsPerModel.")
    ] = "ConcurrentRequestsPerModelHighResolution",
    price_table: Annotated[Path | None, typer.Option(help="JSON price table (default: the package's, dated).")] = None,
    profile: Annotated[Path, typer.Option(help="Where to write the capacity profile.")] = Path("capacity-profile.json"),
    out: Annotated[Path, typer.Option(help="Folder for plan.md.")] = Path("capacity-results"),
    repository: Annotated[
        Path,
        typer.Option(help="The project's checkout that builds the image (its container/requirements-*.txt)."),
    ] = Path("."),
) -> None:
    """Derive the scaling policy from the measured figures; write the capacity profile and plan.md."""
    from .plan import derive, explanation, profile_document
    from .prices import PACKAGED, load_prices
    from .report import command_line, read_json, write_text

    try:
        results = read_json(measured, "measurement")
        prices = load_prices(price_table or PACKAGED)
        facts, sources, local = _measured(results, route, duty, scale_out, scale_out_seconds)
        if local and instance_type is None:
            raise ValueError(
                "this measurement ran on a local machine: say which instance type it stands for with --instance-type"
            )
        if instance_type is None:
            instance_type = str(results["instance_type"])
        if metric not in ("ConcurrentRequestsPerModelHighResolution", "ConcurrentRequestsPerModel"):
            raise ValueError(
                f"--metric {metric!r}: use ConcurrentRequestsPerModelHighResolution or ConcurrentRequestsPerModel"
            )
        chosen: Literal["ConcurrentRequestsPerModelHighResolution", "ConcurrentRequestsPerModel"] = metric  # type: ignore[assignment]
        derivation = derive(facts, growth, peak_sessions, prices.hourly(instance_type), chosen)
        flavor: Literal["cpu", "gpu"] = "gpu" if instance_type.split(".")[1][0] in GPU_FAMILIES else "cpu"
        requirements = flavor_requirements(repository, flavor)
        if not requirements.is_file():
            # The deployment refuses a profile measured with another image: the profile names the image by this hash.
            raise ValueError(
                f"{requirements} not found: the profile records the sha256 of the image's requirements; run capacity "
                "plan in the project's checkout (the one that deploys the image) or give --repository"
            )
        where = results["machine"]["target"]
        cpus = results["machine"].get("cpus")
        measured_on = f"local rehearsal for {instance_type}: {where}, {cpus} CPUs" if local else where
        document = profile_document(
            derivation,
            facts,
            created=created_now().isoformat().replace("+00:00", "Z"),
            instance_type=instance_type,
            measured_on=measured_on,
            image={
                "flavor": flavor,
                "requirements_sha256": requirements_sha256(requirements),
            },
            slo=results["slo"],
            growth_per_minute=growth,
            peak_sessions=peak_sessions,
            prices=prices,
            metric=chosen,
        )
    except (OSError, ValueError, KeyError) as error:
        raise typer.BadParameter(str(error)) from None
    profile.parent.mkdir(parents=True, exist_ok=True)
    profile.write_text(document.to_json(), encoding="utf-8")
    sources["growth"] = f"{growth:g} sessions per minute at peak (stated)"
    sources["peak sessions"] = f"{peak_sessions} (stated)"
    sources["price"] = f"{prices.hourly(instance_type):g} USD per hour for {instance_type}, table of {prices.date}"
    text = explanation(derivation, sources) + f"\nCommand: `{command_line()}`\n"
    write_text(out, "plan.md", text)
    batching = document.batching
    pins = (
        f"batching {batching.max_batch} per call with a {batching.batch_wait_ms:g} ms wait, as measured"
        if batching is not None
        else "batching not pinned (the measurement does not know it)"
    )
    typer.echo(
        f"wrote {profile} and {out / 'plan.md'}: target {document.policy.target_value:g}, "
        f"instances {document.policy.min_instances}-{document.policy.max_instances}, {pins}"
    )


def _measured(
    results: dict[str, Any], route: str, duty: Path | None, scale_out: Path | None, scale_out_seconds: float | None
) -> tuple[Any, dict[str, str], bool]:
    from .batching import described, pinned
    from .plan import Measured
    from .report import read_json

    if route not in results["routes"]:
        raise ValueError(f"route {route!r} was not measured; the measurement has {', '.join(results['routes'])}")
    summary = results["routes"][route]["summary"]
    bidi_duty = results["routes"].get("bidi", {}).get("summary", {}).get("speech_duty")
    sources = {"measurement": f"{results.get('command', '?')} ({results['machine']['target']})"}
    sources["server batching"] = described(results.get("server"))
    traffic_duty = bidi_duty
    if duty is not None:
        traffic_duty = float(read_json(duty, "duty")["speech_duty"])
        sources["duty"] = str(duty)
    if not traffic_duty:
        raise ValueError("no speech duty: give --duty (capacity duty), or measure the bidi route")
    seconds = 0.0
    if scale_out is not None:
        report = read_json(scale_out, "scale-out")
        seconds = float(report["scale_out_seconds"] or 0)
        sources["scale-out"] = f"{scale_out} ({report['scale_out_basis']})"
    if scale_out_seconds is not None:
        seconds += scale_out_seconds
        sources["scale-out (stated)"] = f"{scale_out_seconds:g} s added for what the scale-out report could not show"
    if seconds <= 0:
        raise ValueError("no scale-out time: give --scale-out (capacity scale-out) and/or --scale-out-seconds")
    levels = {row["level"]: row for row in summary["levels"]}
    at_q_max = levels.get(summary["q_max"], {}).get("active_utterances_max") or None
    if levels and summary["q_max"] >= max(levels):
        # The ladder's top met the SLO: Q_max is a floor, and latency past it is extrapolated, not measured.
        sources["Q_max"] = (
            f"at least {summary['q_max']}: no level of the ladder broke the SLO, so this plan is conservative and "
            "the simulation past that level extrapolates; measure higher levels for the real figure"
        )
        typer.echo(f"warning: {sources['Q_max']}", err=True)
    facts = Measured(
        q_max={name: measured["summary"]["q_max"] for name, measured in results["routes"].items()},
        route=route,
        metric_ratio=float(summary["metric_ratio"]),
        measured_duty=bidi_duty,
        traffic_duty=traffic_duty,
        scale_out_seconds=seconds,
        chars_per_audio_second=float(results["chars_per_audio_second"]),
        active_utterances_at_q_max=int(at_q_max) if at_q_max else None,
        batching=pinned(results.get("server")),
    )
    return facts, sources, results.get("kind") != "endpoint"
