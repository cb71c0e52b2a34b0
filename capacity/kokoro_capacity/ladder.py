"""The sustained concurrency ladder: each level held to a steady state and measured over a window at its
end, the whole ladder repeated; Q_max is the highest level that met the SLO in every repeat (and every
level below it did too).

TTFA here is the server's share of a turn: from the moment the reply's first sentence is complete (the
client can send it) to its first audio. The LLM's token rate is the agent's, not the instance's.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from tqdm import tqdm

from .sessions import Load, SpeechTarget, Turn, hold, new_load
from .timeline import percentile
from .traffic import TrafficModel

# The server's view of a window: (wall start, wall end, route) -> {"concurrency": per instance, and
# "active_utterances_max" where the source has it}, or None when it has nothing for the window.
MetricRead = Callable[[float, float, str], dict[str, float] | None]


@dataclass(frozen=True)
class Slo:
    ttfa_p95_ms: float = 800.0  # the stacks' alarm_ttfa_p95_ms
    max_stalls: int = 0


@dataclass(frozen=True)
class LadderPlan:
    levels: tuple[int, ...]
    hold_seconds: float = 120.0  # a voice agent's turn cycle is 5-15 s: several cycles per session slot
    window_seconds: float = 60.0
    repeats: int = 2
    levels_past_failure: int = 1  # a repeat stops this many levels after its first miss

    def __post_init__(self) -> None:
        if not self.levels or any(level < 1 for level in self.levels) or list(self.levels) != sorted(set(self.levels)):
            raise ValueError(f"levels must be increasing whole numbers of 1 or more, got {list(self.levels)}")
        if not 0 < self.window_seconds <= self.hold_seconds:
            raise ValueError(
                f"the window ({self.window_seconds:g} s) must be positive and at most "
                f"the hold ({self.hold_seconds:g} s)"
            )
        if self.repeats < 1:
            raise ValueError(f"repeats must be 1 or more, got {self.repeats}")


def level_figures(load: Load, level: int, start: float, end: float, window: float, slo: Slo) -> dict[str, Any]:
    """One level's figures over the window at the end of its hold."""
    opens = end - window
    turns = [turn for turn in load.turns if opens <= turn.started <= end]
    spoken = [turn for turn in turns if turn.error is None and turn.ttfa_s is not None]
    server_ttfa = [1000 * max(0.0, turn.ttfa_s - turn.sentence_s) for turn in spoken if turn.ttfa_s is not None]
    full_ttfa = [1000 * turn.ttfa_s for turn in spoken if turn.ttfa_s is not None]
    errors = [turn.error for turn in turns if turn.error is not None]
    stalls = sum(turn.stalls for turn in spoken)
    figures: dict[str, Any] = {
        "level": level,
        "hold_start": round(start, 3),
        "window_start": round(opens, 3),
        "window_end": round(end, 3),
        "turns": len(spoken),
        "errors": len(errors),
        "error_examples": sorted(set(errors))[:3],
        "ttfa_p50_ms": round(percentile(server_ttfa, 50), 1) if server_ttfa else None,
        "ttfa_p95_ms": round(percentile(server_ttfa, 95), 1) if server_ttfa else None,
        "ttfa_from_first_token_p95_ms": round(percentile(full_ttfa, 95), 1) if full_ttfa else None,
        "stalls": stalls,
        "stalled_turns": sum(1 for turn in spoken if turn.stalls),
        "stall_ms": round(1000 * sum(turn.stall_s for turn in spoken), 1),
        "audio_s_per_s": round(sum(turn.audio_s for turn in spoken) / window, 3),
        "chars": sum(turn.chars for turn in spoken),
        "audio_s": round(sum(turn.audio_s for turn in spoken), 2),
        "client_in_flight": round(load.in_flight.mean(opens, end), 3),
        "sessions_started": load.sessions_started,
        # each turn in the window: [server TTFA ms, stalls, stall ms]
        "turn_figures": [
            [round(ttfa, 1), turn.stalls, round(1000 * turn.stall_s, 1)]
            for ttfa, turn in zip(server_ttfa, spoken, strict=True)
        ],
    }
    figures["met_slo"] = bool(
        spoken
        and not errors
        and figures["ttfa_p95_ms"] is not None
        and figures["ttfa_p95_ms"] <= slo.ttfa_p95_ms
        and stalls <= slo.max_stalls
    )
    return figures


def run_ladder(target: SpeechTarget, traffic: TrafficModel, plan: LadderPlan, slo: Slo) -> list[dict[str, Any]]:
    """Every repeat of the ladder, level by level: a list of level figures (with ``repeat``)."""
    runs: list[dict[str, Any]] = []
    sessions_so_far = 0
    progress = tqdm(total=len(plan.levels) * plan.repeats, desc=f"capacity measure ({traffic.route})", unit="level")
    try:
        for repeat in range(plan.repeats):
            misses = 0
            for level in plan.levels:
                progress.set_postfix_str(f"repeat {repeat + 1}, {level} sessions, {plan.hold_seconds:g} s")
                load = new_load(target, traffic, first_session=sessions_so_far)
                start, end = asyncio.run(hold(load, level, plan.hold_seconds))
                sessions_so_far += load.sessions_started
                figures = level_figures(load, level, start, end, plan.window_seconds, slo)
                runs.append({"repeat": repeat + 1, **figures})
                progress.update()
                misses += not figures["met_slo"]
                if misses > plan.levels_past_failure:
                    progress.update(len(plan.levels) - plan.levels.index(level) - 1)
                    break
    finally:
        progress.close()
    return runs


def attach_metric(runs: list[dict[str, Any]], read: MetricRead | None, route: str, source: str) -> None:
    """The server-side concurrency per level and its ratio to the client's in-flight count (1 without a source)."""
    for run in runs:
        seen = read(run["window_start"], run["window_end"], route) if read is not None else None
        value = seen.get("concurrency") if seen else None
        if seen and "active_utterances_max" in seen:
            run["active_utterances_max"] = seen["active_utterances_max"]
        run["metric"] = round(value, 3) if value is not None else None
        run["metric_source"] = source if value is not None else "none (ratio taken as 1)"
        client = run["client_in_flight"]
        run["metric_ratio"] = round(value / client, 3) if value is not None and client > 0 else 1.0


def summarize(runs: list[dict[str, Any]], plan: LadderPlan) -> dict[str, Any]:
    """Per level: the spread over repeats, whether every repeat met the SLO; Q_max and the metric ratio."""
    levels: list[dict[str, Any]] = []
    for level in plan.levels:
        repeats = [run for run in runs if run["level"] == level]
        if not repeats:
            continue
        p95 = [run["ttfa_p95_ms"] for run in repeats if run["ttfa_p95_ms"] is not None]
        levels.append(
            {
                "level": level,
                "repeats": len(repeats),
                "met_every_repeat": len(repeats) == plan.repeats and all(run["met_slo"] for run in repeats),
                "ttfa_p95_ms": _spread(p95),
                "ttfa_p50_ms": _spread([run["ttfa_p50_ms"] for run in repeats if run["ttfa_p50_ms"] is not None]),
                "stalls": [run["stalls"] for run in repeats],
                "errors": [run["errors"] for run in repeats],
                "audio_s_per_s": _spread([run["audio_s_per_s"] for run in repeats]),
                "metric_ratio": _spread([run["metric_ratio"] for run in repeats]),
                "active_utterances_max": max((run.get("active_utterances_max") or 0 for run in repeats), default=0),
            }
        )
    q_max = 0
    for row in levels:
        if not row["met_every_repeat"]:
            break
        q_max = int(row["level"])
    ratios = [run["metric_ratio"] for run in runs if run["level"] <= max(q_max, plan.levels[0])]
    return {"levels": levels, "q_max": q_max, "metric_ratio": round(statistics.median(ratios), 3) if ratios else 1.0}


def _spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"min": min(values), "median": round(statistics.median(values), 1), "max": max(values)}


def plan_dict(plan: LadderPlan, slo: Slo) -> dict[str, Any]:
    return {"ladder": asdict(plan), "slo": asdict(slo)}


__all__ = ["LadderPlan", "Slo", "Turn", "attach_metric", "level_figures", "plan_dict", "run_ladder", "summarize"]
