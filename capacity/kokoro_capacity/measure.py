"""``capacity measure`` as a function: the ladder on every route asked for, on a pinned instance when the
target is a live endpoint, with the server's view of each window, the traffic's speech duty, and how the
server shares its model between sessions (its batching, which Q_max holds for)."""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any

from .batching import read_server
from .ladder import LadderPlan, Slo, attach_metric, plan_dict, run_ladder, summarize
from .local import Opened
from .traffic import Route, TrafficModel

Pin = Callable[[], AbstractContextManager[object]]


def measure(
    opened: Opened,
    traffic: TrafficModel,
    routes: tuple[Route, ...],
    plan: LadderPlan,
    slo: Slo,
    pin: Pin | None = None,
    before_metric_read: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Everything ``measure`` writes, for every route; ``pin`` holds a live endpoint at one instance."""
    results: dict[str, Any] = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), **opened.description},
        "kind": opened.kind,
        "traffic": traffic.described(),
        **plan_dict(plan, slo),
        "routes": {},
    }
    with pin() if pin is not None else nullcontext():
        results["server"] = read_server(opened.target)  # the instance measured, once pinned
        for route in routes:
            routed = replace(traffic, route=route)
            runs = run_ladder(opened.target, routed, plan, slo)
            results["routes"][route] = {"runs": runs}
    if before_metric_read is not None:
        before_metric_read()  # a live endpoint's metric arrives a minute or two after its datapoints
    for route, measured in results["routes"].items():
        runs = measured["runs"]
        attach_metric(runs, opened.metric, route, opened.metric_source)
        for run in runs:
            run["duty"] = _duty(opened, run)
        measured["summary"] = summarize(runs, plan)
        measured["summary"]["speech_duty"] = _mean_duty(runs)
    results["q_max"] = {route: measured["summary"]["q_max"] for route, measured in results["routes"].items()}
    results["metric_source"] = opened.metric_source
    results["chars_per_audio_second"] = _chars_per_audio_second(results)
    return results


def _duty(opened: Opened, run: dict[str, Any]) -> dict[str, Any]:
    """The window's speech duty from the server's telemetry, else from the client's own turns."""
    if opened.telemetry is not None:
        # the whole hold: a window shorter than a turn cuts utterances off at its ends
        duty = opened.telemetry.duty(run["hold_start"], run["window_end"])
        if duty is not None:
            return {**{key: round(value, 4) for key, value in duty.items()}, "source": "server telemetry"}
    session_s = run["client_in_flight"] * (run["window_end"] - run["window_start"])
    audio = run["audio_s"]
    return {"speech_duty": round(audio / session_s, 4) if session_s else None, "source": "client turns"}


def _mean_duty(runs: list[dict[str, Any]]) -> float | None:
    """All the levels' audio over all their session-seconds (server telemetry), else the mean of the levels'."""
    told = [run["duty"] for run in runs if run["duty"].get("source") == "server telemetry"]
    session_s = float(sum(duty["session_s"] for duty in told))
    if session_s:
        return round(float(sum(duty["audio_s"] for duty in told)) / session_s, 4)
    duties = [run["duty"]["speech_duty"] for run in runs if run["duty"].get("speech_duty")]
    return round(sum(duties) / len(duties), 4) if duties else None


def _chars_per_audio_second(results: dict[str, Any]) -> float:
    chars = audio = 0.0
    for measured in results["routes"].values():
        for run in measured["runs"]:
            chars += run["chars"]
            audio += run["audio_s"]
    return round(chars / audio, 2) if audio else 0.0
