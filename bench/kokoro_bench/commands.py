"""``kokoro-stream bench``, registered through the ``kokoro_stream.commands`` entry point when the
benchmarks are installed (``uv sync`` in this repository; they ship in no wheel a user installs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kokoro_stream.cli_options import CaFileOption, EndpointUrlOption, RegionOption, endpoint_from_options
from kokoro_tools.commands import ServerUrlOption


def register(app: typer.Typer) -> None:
    app.command("bench")(bench)
    app.command("bench-normalize-kinds")(bench_normalize_kinds)


def bench_normalize_kinds(
    label: Annotated[str, typer.Option(help="Name of the normalizer measured: before or after.")] = "after",
    out: Annotated[Path, typer.Option(help="Folder of normalize_kinds.json and normalization.md.")] = Path(
        "docs/bench"
    ),
) -> None:
    """The normalizer's pass rate by kind and language (the study kokoro_bench.normalize_kinds)."""
    from .normalize_kinds import run

    if not (out / "normalization.md").exists():
        raise typer.BadParameter(f"{out} has no normalization.md to write the table into; pass --out docs/bench")
    result = run(label, out)
    typer.echo(
        f"{label}: {result['passed']}/{result['cases']} ({result['rate']:.1%}); wrote {out / 'normalize_kinds.json'}"
    )


def bench(
    url: ServerUrlOption = None,
    endpoint: Annotated[str | None, typer.Option(help="Benchmark a SageMaker endpoint instead.")] = None,
    region: RegionOption = None,
    endpoint_url: EndpointUrlOption = None,
    ca_file: CaFileOption = None,
    quick: Annotated[bool, typer.Option(help="One short reply, 1 and 2 sessions: a smoke run.")] = False,
    out: Annotated[Path, typer.Option(help="Folder for bench.json, bench.md and the plots.")] = Path("bench-results"),
    corpus: Annotated[Path | None, typer.Option(help="JSONL of {id, text}; default: the project's replies.")] = None,
    replies: Annotated[str | None, typer.Option(help="Comma-separated reply ids to run (default: all).")] = None,
    tokens_per_second: Annotated[str, typer.Option(help="Token rate, or a comma-separated sweep.")] = "30",
    levels: Annotated[str | None, typer.Option(help="Concurrent sessions to sweep, e.g. 1,2,4,8,16.")] = None,
    voice: Annotated[str, typer.Option(help="Voice for every strategy.")] = "af_heart",
) -> None:
    """Time to first audio, stalls, throughput and fairness: bidi vs. POST strategies vs. the bare engine."""
    import shlex
    import sys

    from .corpus import AGENT_REPLIES, load_replies
    from .report import write_report
    from .run import LEVELS, QUICK_LEVELS, QUICK_REPLIES, SWEEP_REPLY, BenchPlan, run_bench
    from .target import open_target

    try:
        texts = load_replies(corpus or AGENT_REPLIES)
        rates = tuple(float(rate) for rate in tokens_per_second.split(","))
        sweep = tuple(int(level) for level in levels.split(",")) if levels else (QUICK_LEVELS if quick else LEVELS)
    except (OSError, ValueError) as error:
        raise typer.BadParameter(str(error)) from None
    chosen = replies.split(",") if replies else (list(QUICK_REPLIES) if quick and not corpus else list(texts))
    unknown = [reply for reply in chosen if reply not in texts]
    if unknown:
        raise typer.BadParameter(f"unknown reply id(s) {unknown}; the corpus has: {', '.join(texts)}")
    sweep_text = texts.get(SWEEP_REPLY) or min(texts.values(), key=len)
    plan = BenchPlan({reply: texts[reply] for reply in chosen}, rates, sweep, sweep_text)
    address = endpoint_from_options(endpoint, region, endpoint_url, ca_file) if endpoint is not None else None
    with open_target(url, address, voice) as (target, description):
        results = run_bench(target, plan, description)
    command = "kokoro-stream " + shlex.join(sys.argv[1:])
    for path in write_report(results, out, command):
        typer.echo(f"wrote {path}")
    summary = results["summary"]
    typer.echo(
        f"bidi TTFA p50 {summary['ttfa_ms']['bidi']['p50']:.0f} ms: {summary['bidi_vs_wait_full']}x lower than "
        f"waiting for the full text, {summary['bidi_vs_physical_limit']}x the physical limit; "
        f"server overhead {summary['server_overhead_ratio']}x"
    )
