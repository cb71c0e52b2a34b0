"""``kokoro-stream capacity``: measure, duty, scale-out, plan, validate (registered through the
``kokoro_stream.commands`` entry point, as ``bench`` is)."""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from kokoro_stream.cli_options import (
    CaFileOption,
    EndpointUrlOption,
    RegionOption,
    ServerUrlOption,
    endpoint_from_options,
)

from .plan_command import plan
from .report import command_line
from .validate_command import validate

capacity_app = typer.Typer(help="Measure one instance, derive the scaling policy from it, validate the policy.")

EndpointOption = Annotated[str | None, typer.Option(help="A SageMaker endpoint (live, or --endpoint-url's emulator).")]
EmulateOption = Annotated[
    bool, typer.Option(help="Start a server and the SageMaker emulator here, measure through it.")
]
ServerLogOption = Annotated[Path | None, typer.Option(help="With --url: the server's stdout saved to a file.")]
VariantOption = Annotated[str, typer.Option(help="The endpoint's production variant.")]
OutOption = Annotated[Path, typer.Option(help="Folder for the JSON, the Markdown table and the plots.")]


def register(app: typer.Typer) -> None:
    app.add_typer(capacity_app, name="capacity")


def _ints(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"{what}: comma-separated whole numbers, e.g. 1,2,4, not {text!r}") from None


@contextlib.contextmanager
def _opened(
    url: str | None,
    endpoint: str | None,
    region: str | None,
    endpoint_url: str | None,
    ca_file: Path | None,
    emulate: bool,
    server_log: Path | None,
    voice: str,
    variant: str = "AllTraffic",
) -> Iterator[Any]:
    from .local import open_measured

    address = endpoint_from_options(endpoint, region, endpoint_url, ca_file) if endpoint is not None else None
    with contextlib.ExitStack() as stack:
        try:  # what is wrong with the options shows before anything is measured; errors measuring are not these
            opened = stack.enter_context(open_measured(url, address, emulate, server_log, voice, variant))
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None
        yield opened


@capacity_app.command()
def measure(
    url: ServerUrlOption = None,
    endpoint: EndpointOption = None,
    region: RegionOption = None,
    endpoint_url: EndpointUrlOption = None,
    ca_file: CaFileOption = None,
    emulate: EmulateOption = False,
    server_log: ServerLogOption = None,
    variant: VariantOption = "AllTraffic",
    levels: Annotated[str, typer.Option(help="Concurrent sessions per level, increasing.")] = "1,2,4,8,12,16",
    hold: Annotated[float, typer.Option(help="Seconds each level is held.")] = 120.0,
    window: Annotated[float, typer.Option(help="Seconds at the end of each hold that are measured.")] = 60.0,
    repeats: Annotated[int, typer.Option(help="Times the whole ladder runs.")] = 2,
    routes: Annotated[str, typer.Option(help="bidi, post, or bidi,post.")] = "bidi",
    ttfa_p95_ms: Annotated[float, typer.Option(help="SLO: TTFA p95 after the first sentence, ms.")] = 800.0,
    max_stalls: Annotated[int, typer.Option(help="SLO: playback stalls allowed per level.")] = 0,
    listen: Annotated[str, typer.Option(help="The user's turn before each reply (distribution).")] = "uniform:2,6",
    think: Annotated[str, typer.Option(help="The LLM's time to first token (distribution).")] = "uniform:0.3,1.2",
    turns: Annotated[str, typer.Option(help="Turns per session (distribution).")] = "uniform:3,8",
    gaps_trace: Annotated[Path | None, typer.Option(help="JSONL of recorded {listen_s, think_s} per turn.")] = None,
    tokens_per_second: Annotated[float, typer.Option(help="The LLM's token rate.")] = 30.0,
    corpus: Annotated[Path | None, typer.Option(help="JSONL of {id, text}; default: the project's replies.")] = None,
    replies: Annotated[str | None, typer.Option(help="Comma-separated reply ids to draw from (default: all).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of every session's draws.")] = 1,
    voice: Annotated[str, typer.Option(help="Voice of every session.")] = "af_heart",
    out: OutOption = Path("capacity-results"),
) -> None:
    """A sustained concurrency ladder of agent sessions on one instance: Q_max per route."""
    from .corpus import AGENT_REPLIES, load_replies
    from .ladder import LadderPlan, Slo
    from .measure import measure as run_measure
    from .plots import ladder_plot, wrote
    from .report import measure_markdown, write_json, write_text
    from .traffic import Gap, RecordedGaps, Route, TrafficModel

    try:
        named = tuple(route.strip() for route in routes.split(","))
        known: dict[str, Route] = {"bidi": "bidi", "post": "post"}
        chosen = tuple(known[route] for route in named if route in known)
        if not chosen or len(chosen) != len(named):
            raise ValueError(f"routes: bidi, post or bidi,post, not {routes!r}")
        texts = load_replies(corpus or AGENT_REPLIES)
        if replies:
            unknown = sorted(set(replies.split(",")) - set(texts))
            if unknown:
                raise ValueError(f"unknown reply id(s) {unknown}; the corpus has: {', '.join(texts)}")
            texts = {reply: texts[reply] for reply in replies.split(",")}
        traffic = TrafficModel(
            texts,
            chosen[0],
            tokens_per_second,
            Gap.parse(listen),
            Gap.parse(think),
            Gap.parse(turns),
            RecordedGaps.load(gaps_trace) if gaps_trace else None,
            seed,
        )
        plan = LadderPlan(_ints(levels, "--levels"), hold, window, repeats)
    except (OSError, ValueError) as error:
        raise typer.BadParameter(str(error)) from None
    slo = Slo(ttfa_p95_ms, max_stalls)
    with _opened(url, endpoint, region, endpoint_url, ca_file, emulate, server_log, voice, variant) as opened:
        pin, settle = None, None
        if opened.kind == "endpoint" and endpoint is not None:
            pin, settle = _live_pin(opened, endpoint, region, variant)
        results = run_measure(opened, traffic, chosen, plan, slo, pin, settle)
    results["command"] = command_line()
    results["created"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    written = [write_json(out, "measure.json", results), write_text(out, "measure.md", measure_markdown(results))]
    for path in written:
        typer.echo(f"wrote {path}")
    typer.echo(wrote(ladder_plot(results, out)))
    typer.echo(f"Q_max: {results['q_max']}")


def _live_pin(opened: Any, endpoint: str, region: str | None, variant: str) -> tuple[Any, Any]:
    import boto3

    from .pinning import PinnedToOneInstance

    region = opened.target.runtime.meta.region_name

    def pin() -> PinnedToOneInstance:
        return PinnedToOneInstance(
            endpoint,
            variant,
            boto3.client("application-autoscaling", region_name=region),
            boto3.client("sagemaker", region_name=region),
        )

    return pin, lambda: time.sleep(120)  # CloudWatch publishes the 10 s metric a minute or two late


@capacity_app.command()
def duty(
    url: ServerUrlOption = None,
    endpoint: EndpointOption = None,
    region: RegionOption = None,
    endpoint_url: EndpointUrlOption = None,
    ca_file: CaFileOption = None,
    emulate: EmulateOption = False,
    server_log: ServerLogOption = None,
    minutes: Annotated[float, typer.Option(help="Live: the last this many minutes of the endpoint's logs.")] = 60.0,
    sessions: Annotated[int, typer.Option(help="Locally: agent sessions to run while reading the server.")] = 2,
    seconds: Annotated[float, typer.Option(help="Locally: how long to run them.")] = 60.0,
    sample_seconds: Annotated[
        float, typer.Option(help="The server's load gauge period (KOKORO_LOAD_SAMPLE_SECONDS).")
    ] = 10.0,
    out: OutOption = Path("capacity-results"),
) -> None:
    """Speech duty from the server's own telemetry: audio seconds per session-second (and engine seconds)."""
    from .duty import endpoint_duty, local_duty, log_file_duty
    from .report import write_json, write_text

    try:  # what the telemetry cannot give (no file, no samples, no speech) is said, not raised
        if endpoint is not None and endpoint_url is None:
            address = endpoint_from_options(endpoint, region, None, None)
            result = endpoint_duty(address.name, address.region, minutes, sample_seconds)
        elif server_log is not None and url is None:
            result = log_file_duty(server_log, sample_seconds)
        else:
            with _opened(url, endpoint, region, endpoint_url, ca_file, emulate, server_log, "af_heart") as opened:
                if opened.telemetry is None:
                    raise typer.BadParameter(
                        "this target has no telemetry to read: with --url, give --server-log (the server's stdout "
                        "saved to a file); or use --emulate, or no target option, to start a server here"
                    )
                result = local_duty(opened, sessions, seconds)
    except (OSError, ValueError) as error:
        raise typer.BadParameter(str(error)) from None
    result["command"] = command_line()
    write_json(out, "duty.json", result)
    from .duty import duty_markdown

    write_text(out, "duty.md", duty_markdown(result))
    typer.echo(f"speech duty {result['speech_duty']} ({result['source']}); wrote {out / 'duty.json'}")


@capacity_app.command("scale-out")
def scale_out(
    endpoint: EndpointOption = None,
    region: RegionOption = None,
    variant: VariantOption = "AllTraffic",
    times: Annotated[int, typer.Option(help="Live: the last N scale-outs; locally: N server starts.")] = 1,
    out: OutOption = Path("capacity-results"),
) -> None:
    """The time to add one instance, stage by stage (live: from the endpoint's records; locally: the emulator)."""
    from .report import stages_markdown, write_json, write_text

    if times < 1:
        raise typer.BadParameter("--times must be 1 or more")
    if endpoint is not None:
        import boto3

        from .aws import scale_out_activities, time_scale_out

        address = endpoint_from_options(endpoint, region, None, None)
        clients = {name: boto3.client(name, region_name=address.region) for name in ("cloudwatch", "logs", "sagemaker")}
        activities = scale_out_activities(
            boto3.client("application-autoscaling", region_name=address.region), endpoint, variant
        )
        if not activities:
            raise typer.BadParameter(f"endpoint {endpoint} has no successful scale-out on record yet")
        runs = [
            time_scale_out(a, endpoint, clients["cloudwatch"], clients["logs"], clients["sagemaker"])
            for a in activities[-times:]
        ]
        report: dict[str, Any] = {"kind": "endpoint", "runs": runs}
    else:
        from tqdm import tqdm

        from .local import NeedsLocalServer, require_local
        from .scale_out import CANNOT_SHOW, local_scale_out

        try:
            require_local("capacity scale-out without --endpoint", emulator=True, instead="--endpoint")
        except NeedsLocalServer as error:
            raise typer.BadParameter(str(error)) from None
        runs = [local_scale_out() for _ in tqdm(range(times), desc="capacity scale-out (server starts)")]
        report = {"kind": "local", "runs": runs, "not_shown": CANNOT_SHOW}
    report["stages"] = list(runs[0]["stages_s"])
    totals = [run["total_s"] for run in runs if run["total_s"] is not None]
    report["scale_out_seconds"] = round(statistics.median(totals), 1) if totals else None
    report["scale_out_basis"] = "median total over the runs" + (
        "; local: the stages a local machine cannot show are missing from it" if endpoint is None else ""
    )
    report["command"] = command_line()
    write_json(out, "scale-out.json", report)
    write_text(out, "scale-out.md", stages_markdown(report, report["command"]))
    typer.echo(f"scale-out {report['scale_out_seconds']} s; wrote {out / 'scale-out.json'}")


capacity_app.command()(plan)
capacity_app.command()(validate)
