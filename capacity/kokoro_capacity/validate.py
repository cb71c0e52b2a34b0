"""``capacity validate`` in simulation: the profile's policy against alternatives on one trace."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from kokoro_core.capacity_profile import CapacityProfile

from .plan import PERIOD_SECONDS
from .simulation import Curve, SimPolicy, World, simulate

SERVER_DEFAULT_ADMISSION = 64  # max_active_utterances when no profile sets it


def curve_from_measure(measured: dict[str, Any], route: str) -> Curve:
    """TTFA p95 (median over repeats) per level, from ``measure``'s summary, made non-decreasing: more
    sessions never make an instance faster, so a lower figure at a higher level is noise."""
    rows = measured["routes"][route]["summary"]["levels"]
    points = [(float(row["level"]), float(row["ttfa_p95_ms"]["median"])) for row in rows if row["ttfa_p95_ms"]]
    if not points:
        raise ValueError(f"the measurement has no TTFA figures on route {route}")
    envelope, highest = [], 0.0
    for level, p95 in points:
        highest = max(highest, p95)
        envelope.append((level, highest))
    return Curve(tuple(envelope))


def profile_policy(profile: CapacityProfile, sessions_per_utterance: float) -> SimPolicy:
    policy = profile.policy
    return SimPolicy(
        name=f"profile (target {policy.target_value:g})",
        target_value=policy.target_value,
        period_seconds=PERIOD_SECONDS[policy.metric],
        statistic=policy.statistic,
        step_scale_in=True,
        scale_in_threshold=policy.scale_in_threshold,
        scale_in_minutes=policy.scale_in_evaluation_minutes,
        scale_in_cooldown_seconds=policy.scale_in_cooldown_seconds,
        min_instances=policy.min_instances,
        max_instances=policy.max_instances,
        sessions_admitted=policy.admission_limit * sessions_per_utterance,
    )


def alternatives(profile: CapacityProfile, sessions_per_utterance: float) -> list[SimPolicy]:
    """The profile, its target halved and one and a half times, and the old hand-set target of 10 (standard
    1-minute metric, target tracking's own scale-in, the server's default admission)."""
    mine = profile_policy(profile, sessions_per_utterance)
    target = profile.policy.target_value
    half = replace(mine, name=f"target × 0.5 ({target * 0.5:g})", target_value=target * 0.5)
    half = replace(half, scale_in_threshold=0.4 * half.target_value)
    more = replace(mine, name=f"target × 1.5 ({target * 1.5:g})", target_value=target * 1.5)
    more = replace(more, scale_in_threshold=0.4 * more.target_value)
    old = SimPolicy(
        name="fixed target 10 (before)",
        target_value=10.0,
        period_seconds=60,
        step_scale_in=False,
        min_instances=profile.policy.min_instances,
        max_instances=max(profile.policy.max_instances, math.ceil(profile.peak_sessions / 10)),
        sessions_admitted=SERVER_DEFAULT_ADMISSION * sessions_per_utterance,
    )
    return [mine, half, more, old]


def validate(
    profile: CapacityProfile, curve: Curve, demand: list[float], sessions_per_utterance: float
) -> dict[str, Any]:
    world = World(
        curve=curve,
        slo_ms=profile.slo.ttfa_p95_ms,
        metric_ratio=profile.metric_ratio,
        scale_out_seconds=profile.scale_out_seconds,
        usd_per_instance_hour=profile.cost.usd_per_instance_hour,
        speech_duty=profile.speech_duty,
    )
    runs = [simulate(demand, policy, world) for policy in alternatives(profile, sessions_per_utterance)]
    return {"world": {**world.__dict__, "curve": list(curve.points)}, "results": runs}
