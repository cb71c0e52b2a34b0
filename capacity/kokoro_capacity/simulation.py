"""Application Auto Scaling, simulated second by second on the measured latency-vs-concurrency curve.

What it reproduces: the metric's period (10 s high-resolution, 60 s standard) and statistic over the
instances in service; target tracking's high alarm (3 datapoints above the target) and its proportional
step, ⌈in service × metric / target⌉, counting capacity already on its way (so its cooldown cannot
double a step); a step scale-in policy (−1 below its threshold for its minutes of 1-minute datapoints,
then its cooldown), or target tracking's own scale-in (15 datapoints under 90 % of the target); added
instances serving after the measured scale-out time and billed from the moment they are asked for.
The fleet starts at the size the policy settles at for the trace's first second. Sessions spread evenly
over the instances in service; an instance admits the sessions its admission limit
lets in and refuses the rest; a second in which the TTFA p95 the curve gives for the per-instance load is
over the SLO is a breach for every session in it.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SimPolicy:
    name: str
    target_value: float
    period_seconds: int = 10
    statistic: str = "Average"
    step_scale_in: bool = True  # False: target tracking scales in itself
    scale_in_threshold: float = 0.0
    scale_in_minutes: int = 15
    scale_in_cooldown_seconds: int = 900
    min_instances: int = 1
    max_instances: int = 10
    sessions_admitted: float = math.inf  # per instance, from the admission limit


@dataclass(frozen=True)
class Curve:
    """TTFA p95 (ms) at measured concurrency levels (sessions per instance), linear between them."""

    points: tuple[tuple[float, float], ...]

    def p95(self, sessions: float) -> float:
        points = self.points
        if sessions <= points[0][0]:
            return points[0][1]
        if len(points) == 1:
            return math.inf  # past the only level measured: unknown, so never within the SLO
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            if sessions <= x1:
                return y0 + (y1 - y0) * (sessions - x0) / (x1 - x0)
        # past the last level: at least the curve's mean slope (a flat last step is noise, not relief)
        (x0, y0), (x1, y1) = points[-2], points[-1]
        slope = max((y1 - y0) / (x1 - x0), (y1 - points[0][1]) / (x1 - points[0][0]))
        return y1 + slope * (sessions - x1)


@dataclass(frozen=True)
class World:
    curve: Curve
    slo_ms: float
    metric_ratio: float
    scale_out_seconds: float
    usd_per_instance_hour: float
    speech_duty: float


def simulate(demand: list[float], policy: SimPolicy, world: World) -> dict[str, Any]:
    """Run the trace; totals and a per-minute timeline."""
    # the fleet starts where the policy settles for the trace's first load, not at its minimum
    first = demand[0] * world.metric_ratio / policy.target_value if demand else 0.0
    in_service = min(policy.max_instances, max(policy.min_instances, math.ceil(first - 1e-9)))
    arriving: deque[float] = deque()  # when each instance on its way serves
    desired = in_service
    period_sum = period_max = 0.0
    period_points: deque[float] = deque(maxlen=3)
    minute_sum = 0.0
    minute_points: deque[float] = deque(maxlen=max(policy.scale_in_minutes, 15))
    scale_in_quiet_until = 0.0
    breach = refused = served = billed = 0.0
    timeline: list[dict[str, float]] = []
    events: list[dict[str, Any]] = []
    for second, sessions in enumerate(demand):
        while arriving and arriving[0] <= second:
            arriving.popleft()
            in_service += 1
        admitted = min(sessions, in_service * policy.sessions_admitted)
        per_instance = admitted / in_service
        refused += sessions - admitted
        served += admitted
        if world.curve.p95(per_instance) > world.slo_ms:
            breach += admitted
        billed += in_service + len(arriving)
        metric = per_instance * world.metric_ratio
        value = metric * in_service if policy.statistic == "Sum" else metric
        period_sum += value
        period_max = max(period_max, value)
        minute_sum += value
        if (second + 1) % policy.period_seconds == 0:
            point = period_max if policy.statistic == "Maximum" else period_sum / policy.period_seconds
            period_points.append(point)
            period_sum = period_max = 0.0
            if len(period_points) == 3 and min(period_points) > policy.target_value:
                wanted = min(policy.max_instances, math.ceil(in_service * point / policy.target_value))
                if wanted > desired:
                    for _ in range(wanted - desired):
                        arriving.append(second + 1 + world.scale_out_seconds)
                    events.append({"t_s": second + 1, "action": "scale-out", "desired": wanted})
                    desired = wanted
        if (second + 1) % 60 == 0:
            minute_points.append(minute_sum / 60)
            minute_sum = 0.0
            if not arriving and second + 1 >= scale_in_quiet_until and desired > policy.min_instances:
                wanted = _scale_in(policy, list(minute_points), in_service)
                if wanted < desired:
                    in_service -= desired - wanted
                    desired = wanted
                    scale_in_quiet_until = second + 1 + policy.scale_in_cooldown_seconds
                    minute_points.clear()
                    events.append({"t_s": second + 1, "action": "scale-in", "desired": wanted})
            timeline.append(
                {"t_s": second + 1, "sessions": round(sessions, 2), "in_service": in_service, "desired": desired}
            )
    hours = billed / 3600
    audio_hours = served / 3600 * world.speech_duty
    return {
        "policy": policy.name,
        "target_value": policy.target_value,
        "breach_session_minutes": round(breach / 60, 1),
        "breach_share": round(breach / served, 4) if served else 0.0,
        "refused_session_minutes": round(refused / 60, 1),
        "instance_hours": round(hours, 2),
        "cost_usd": round(hours * world.usd_per_instance_hour, 2),
        "usd_per_audio_hour": round(hours * world.usd_per_instance_hour / audio_hours, 4) if audio_hours else None,
        "peak_instances": max((row["desired"] for row in timeline), default=in_service),
        "events": events,
        "timeline": timeline,
    }


def _scale_in(policy: SimPolicy, minutes: list[float], in_service: int) -> int:
    if policy.step_scale_in:
        window = minutes[-policy.scale_in_minutes :]
        if len(window) == policy.scale_in_minutes and max(window) < policy.scale_in_threshold:
            return max(policy.min_instances, in_service - 1)
        return in_service
    window = minutes[-15:]
    if len(window) == 15 and max(window) < 0.9 * policy.target_value:
        return max(policy.min_instances, math.ceil(in_service * window[-1] / policy.target_value))
    return in_service
