"""``capacity validate --endpoint``: a trace replayed as real agent sessions against the deployed policy,
with the endpoint's instance count read every ``poll_seconds`` (``describe_endpoint``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from .sessions import Load, agent_session, ticking
from .timeline import percentile


def instance_count(sagemaker: Any, endpoint: str, variant: str) -> dict[str, Any]:
    described = sagemaker.describe_endpoint(EndpointName=endpoint)
    for entry in described.get("ProductionVariants", []):
        if entry["VariantName"] == variant:
            return {
                "status": described["EndpointStatus"],
                "current": entry.get("CurrentInstanceCount"),
                "desired": entry.get("DesiredInstanceCount"),
            }
    raise ValueError(f"endpoint {endpoint} has no variant {variant!r}")


async def follow_trace(
    load: Load,
    demand: list[float],
    seconds_per_step: float,
    poll: Callable[[], dict[str, Any]],
    poll_seconds: float = 30.0,
) -> list[dict[str, Any]]:
    """Hold round(demand[i]) sessions during step i; a session asked to stop ends after its own turns, as
    callers hang up. Returns the instance-count samples, each with the sessions asked for then."""
    start = time.time()
    end = start + len(demand) * seconds_per_step
    stops: list[asyncio.Event] = []
    tasks: list[asyncio.Task[None]] = []
    samples: list[dict[str, Any]] = []

    async def slot(stop: asyncio.Event) -> None:
        while not stop.is_set() and time.time() < end:
            await agent_session(load, end)

    next_poll = start
    async with ticking(len(demand) * seconds_per_step, "capacity validate (live)"):
        for step, sessions in enumerate(demand):
            wanted = round(sessions)
            while len(stops) < wanted:
                stops.append(asyncio.Event())
                tasks.append(asyncio.create_task(slot(stops[-1])))
            while len(stops) > wanted:
                stops.pop().set()
            if time.time() >= next_poll:
                sample = await asyncio.to_thread(poll)
                samples.append({"t_s": round(time.time() - start, 1), "sessions": wanted, **sample})
                next_poll += poll_seconds
            await asyncio.sleep(max(0.0, start + (step + 1) * seconds_per_step - time.time()))
    for stop in stops:
        stop.set()
    await asyncio.gather(*tasks)
    return samples


def minute_figures(load: Load, start: float) -> list[dict[str, Any]]:
    """TTFA p95 (the instance's share), stalls and errors of the turns begun in each minute."""
    minutes: dict[int, list[Any]] = {}
    for turn in load.turns:
        minutes.setdefault(int((turn.started - start) // 60), []).append(turn)
    rows = []
    for minute, turns in sorted(minutes.items()):
        ttfa = [1000 * max(0.0, t.ttfa_s - t.sentence_s) for t in turns if t.error is None and t.ttfa_s is not None]
        rows.append(
            {
                "minute": minute,
                "turns": len(turns),
                "ttfa_p95_ms": round(percentile(ttfa, 95), 1) if ttfa else None,
                "stalls": sum(t.stalls for t in turns),
                "errors": sum(1 for t in turns if t.error is not None),
            }
        )
    return rows
