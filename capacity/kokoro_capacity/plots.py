"""The plots: TTFA p95 against concurrency per route (spread over repeats), and validate's timeline.

Plotting is the package's ``plot`` extra: without matplotlib each function draws nothing and returns None,
and the command says so (``wrote``)."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path
from typing import Any

PLOT_EXTRA = "kokoro-stream-capacity[plot]"


def _pyplot() -> Any:
    if find_spec("matplotlib") is None:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def ladder_plot(results: dict[str, Any], out: Path) -> Path | None:
    if (plt := _pyplot()) is None:
        return None
    figure, axis = plt.subplots(figsize=(7, 4))
    for route, measured in results["routes"].items():
        rows = [row for row in measured["summary"]["levels"] if row["ttfa_p95_ms"]]
        levels = [row["level"] for row in rows]
        median = [row["ttfa_p95_ms"]["median"] for row in rows]
        low = [row["ttfa_p95_ms"]["median"] - row["ttfa_p95_ms"]["min"] for row in rows]
        high = [row["ttfa_p95_ms"]["max"] - row["ttfa_p95_ms"]["median"] for row in rows]
        axis.errorbar(levels, median, yerr=[low, high], marker="o", capsize=3, label=f"{route} TTFA p95")
        if measured["summary"]["q_max"]:
            axis.axvline(measured["summary"]["q_max"], linestyle=":", color="gray")
    axis.axhline(results["slo"]["ttfa_p95_ms"], color="tab:red", linestyle="--", label="SLO")
    axis.set_xlabel("concurrent agent sessions on one instance")
    axis.set_ylabel("TTFA p95, ms (spread over repeats)")
    axis.legend()
    return _saved(plt, figure, out / "ladder.png")


def validate_plot(validation: dict[str, Any], out: Path, trace: str) -> Path | None:
    if (plt := _pyplot()) is None:
        return None
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 5), sharex=True)
    first = validation["results"][0]["timeline"]
    top.plot([row["t_s"] / 3600 for row in first], [row["sessions"] for row in first], color="black")
    top.set_ylabel("sessions")
    top.set_title(f"trace {trace}")
    for run in validation["results"]:
        timeline = run["timeline"]
        bottom.step(
            [row["t_s"] / 3600 for row in timeline], [row["in_service"] for row in timeline], label=run["policy"]
        )
    bottom.set_ylabel("instances in service")
    bottom.set_xlabel("hours")
    bottom.legend(fontsize=7)
    return _saved(plt, figure, out / f"validate-{trace}.png")


def live_plot(samples: list[dict[str, Any]], out: Path, trace: str) -> Path | None:
    """The live replay: sessions asked for, and the endpoint's instance count as its policy moved it."""
    if (plt := _pyplot()) is None:
        return None
    figure, axis = plt.subplots(figsize=(9, 4))
    minutes = [sample["t_s"] / 60 for sample in samples]
    axis.step(minutes, [sample["sessions"] for sample in samples], where="post", color="black", label="sessions")
    axis.set_xlabel("minutes")
    axis.set_ylabel("sessions")
    other = axis.twinx()
    other.step(minutes, [sample.get("current") or 0 for sample in samples], where="post", label="instances")
    other.set_ylabel("instances (describe_endpoint)")
    figure.legend(loc="upper left")
    return _saved(plt, figure, out / f"validate-live-{trace}.png")


def _saved(plt: Any, figure: Any, path: Path) -> Path:
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)  # a plot may be the step's first file
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return path


def wrote(plot: Path | None) -> str:
    """What a command says of its plot: the file, or what to install to get one."""
    return f"wrote {plot}" if plot is not None else f"no plot drawn: matplotlib is not installed ({PLOT_EXTRA})"
