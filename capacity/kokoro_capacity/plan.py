"""From measured figures to a scaling policy: every number derived by a stated formula, each written out
with the figures that went into it (``Derivation.explained``).

- q, sessions one instance carries within the SLO at the traffic's duty: Q_max × d_measured / d_traffic.
- L, the lead time of added capacity: detection (3 datapoints of the metric's period) + scale-out time.
- G, sessions that arrive during L at peak growth: growth × L / 60.
- The fleet must carry G more sessions before the added instance serves, so each instance keeps G / N of
  headroom; min_instances N is the smallest that keeps the target at half of q or more, and the target
  t = q − G / N sessions, on the metric t × ratio.
- Scale-in: one instance off when the metric is under 0.4 × target for 15 minutes, so that of two
  instances the one left carries at most 0.8 × target (no scale-out right after a scale-in).
- Batching: as measured, since Q_max holds for it; not pinned where the measurement does not know it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from kokoro_core.capacity_profile import Batching, CapacityProfile, PolicyMetric

from .prices import PriceTable

PERIOD_SECONDS: dict[str, int] = {"ConcurrentRequestsPerModelHighResolution": 10, "ConcurrentRequestsPerModel": 60}
ALARM_DATAPOINTS = 3  # Application Auto Scaling's target-tracking high alarm: 3 datapoints above target
SCALE_IN_SHARE = 0.4  # of the target: with two instances, the one left carries 0.8 of the target
SCALE_IN_MINUTES = 15  # as target tracking's own scale-in alarm: sessions end slowly, traffic dips briefly
SMALLEST_TARGET_SHARE = 0.5  # the target never drops below half of what an instance carries: add instances


@dataclass(frozen=True)
class Measured:
    q_max: dict[str, int]
    route: str
    metric_ratio: float
    measured_duty: float | None  # the audio duty of the measurement's own traffic (None: not read)
    traffic_duty: float  # the duty the policy is for (from `capacity duty`, or the measurement's)
    scale_out_seconds: float
    chars_per_audio_second: float
    active_utterances_at_q_max: int | None
    batching: Batching | None = None  # how the measured server batched; None: not known


@dataclass
class Derivation:
    values: dict[str, Any] = field(default_factory=dict)
    explained: list[tuple[str, str]] = field(default_factory=list)  # (name, formula with figures = value)

    def put(self, name: str, value: Any, how: str) -> Any:
        self.values[name] = value
        self.explained.append((name, how))
        return value


def derive(
    measured: Measured,
    growth_per_minute: float,
    peak_sessions: int,
    price_per_hour: float,
    metric: PolicyMetric = "ConcurrentRequestsPerModelHighResolution",
) -> Derivation:
    """Every policy number, with how it was reached."""
    out = Derivation()
    q_max = measured.q_max.get(measured.route, 0)
    if q_max < 1:
        raise ValueError(
            f"no level met the SLO on route {measured.route} (q_max {measured.q_max}): nothing to size a policy on; "
            "measure lower levels or a looser SLO"
        )
    d_measured = measured.measured_duty or measured.traffic_duty
    q = out.put(
        "sessions_per_instance",
        q_max * d_measured / measured.traffic_duty,
        f"q = Q_max × d_measured / d_traffic = {q_max} × {d_measured:.3f} / {measured.traffic_duty:.3f} "
        f"= {q_max * d_measured / measured.traffic_duty:.2f} sessions",
    )
    period = PERIOD_SECONDS[metric]
    lead = out.put(
        "lead_seconds",
        ALARM_DATAPOINTS * period + measured.scale_out_seconds,
        f"L = {ALARM_DATAPOINTS} datapoints × {period} s + scale-out {measured.scale_out_seconds:.0f} s "
        f"= {ALARM_DATAPOINTS * period + measured.scale_out_seconds:.0f} s",
    )
    arriving = out.put(
        "sessions_during_lead",
        growth_per_minute * lead / 60,
        f"G = growth × L / 60 = {growth_per_minute:g} × {lead:.0f} / 60 = {growth_per_minute * lead / 60:.2f} sessions",
    )
    minimum = max(1, math.ceil(arriving / (q * (1 - SMALLEST_TARGET_SHARE)) - 1e-9))
    out.put(
        "min_instances",
        minimum,
        f"N_min = max(1, ⌈G / (q × {1 - SMALLEST_TARGET_SHARE:g})⌉) = max(1, ⌈{arriving:.2f} / "
        f"{q * (1 - SMALLEST_TARGET_SHARE):.2f}⌉) = {minimum}",
    )
    sessions = math.floor((q - arriving / minimum) * 10) / 10
    out.put(
        "target_sessions",
        sessions,
        f"t = q − G / N_min = {q:.2f} − {arriving:.2f} / {minimum} = {sessions:.1f} sessions per instance "
        "(rounded down to a tenth)",
    )
    target = math.floor(sessions * measured.metric_ratio * 10) / 10
    out.put(
        "target_value",
        target,
        f"target = t × ratio = {sessions:.1f} × {measured.metric_ratio:.3f} = {target:.1f} on {metric} (Average)",
    )
    threshold = round(SCALE_IN_SHARE * target, 2)
    out.put(
        "scale_in_threshold",
        threshold,
        f"scale-in below {SCALE_IN_SHARE:g} × target = {SCALE_IN_SHARE:g} × {target:.1f} = {threshold:.2f} "
        f"for {SCALE_IN_MINUTES} minutes: of two instances the one left carries 2 × {threshold:.2f} = "
        f"{2 * threshold:.2f} ≤ 0.8 × target",
    )
    out.put("scale_in_evaluation_minutes", SCALE_IN_MINUTES, f"{SCALE_IN_MINUTES} one-minute datapoints")
    cooldown_out = math.ceil(measured.scale_out_seconds)
    out.put(
        "scale_out_cooldown_seconds",
        cooldown_out,
        f"the scale-out time, {cooldown_out} s: the next step is sized with the last one's instance counted",
    )
    out.put(
        "scale_in_cooldown_seconds",
        SCALE_IN_MINUTES * 60,
        f"{SCALE_IN_MINUTES} × 60 = {SCALE_IN_MINUTES * 60} s: each step down waits for a fresh evaluation window",
    )
    maximum = max(minimum, math.ceil(peak_sessions / sessions))
    out.put(
        "max_instances",
        maximum,
        f"N_max = ⌈peak / t⌉ = ⌈{peak_sessions} / {sessions:.1f}⌉ = {maximum}",
    )
    if measured.active_utterances_at_q_max:
        admission = measured.active_utterances_at_q_max
        how = f"the most utterances the server held at once at Q_max ({q_max} sessions) in the measurement: {admission}"
    else:
        admission = max(measured.q_max.values())
        how = f"no server gauge read: the highest Q_max, one utterance a session at most: {admission}"
    out.put("admission_limit", admission, how)
    _batching(out, measured.batching)
    audio_hours = sessions * measured.traffic_duty
    per_audio_hour = price_per_hour / audio_hours
    out.put(
        "usd_per_audio_hour",
        round(per_audio_hour, 4),
        f"price / (t × d_traffic) = {price_per_hour:g} / ({sessions:.1f} × {measured.traffic_duty:.3f}) "
        f"= {per_audio_hour:.4f} USD per audio hour, at target",
    )
    chars_per_hour = audio_hours * 3600 * measured.chars_per_audio_second
    per_million = price_per_hour * 1e6 / chars_per_hour if chars_per_hour else 0.0
    out.put(
        "usd_per_million_chars",
        round(per_million, 3),
        f"price × 10⁶ / (t × d × 3600 × {measured.chars_per_audio_second:.1f} characters per audio second) "
        f"= {per_million:.3f} USD",
    )
    return out


def _batching(out: Derivation, batching: Batching | None) -> None:
    if batching is None:
        out.put(
            "batching",
            "not pinned",
            "the measurement does not know how the server batched (the server batching input says why): the "
            "profile leaves KOKORO_MAX_BATCH and KOKORO_BATCH_WAIT_MS to the container's settings, so deploy the "
            "batching this was measured with",
        )
        return
    chunks = "one chunk" if batching.max_batch == 1 else f"up to {batching.max_batch} chunks"
    out.put(
        "max_batch",
        batching.max_batch,
        f"as measured: the server spoke {chunks} per model call; Q_max holds for this batching, so the endpoint "
        "is deployed with it (KOKORO_MAX_BATCH)",
    )
    out.put(
        "batch_wait_ms",
        batching.batch_wait_ms,
        f"as measured: a batch that was not full waited up to {batching.batch_wait_ms:g} ms for another "
        "session's chunk (KOKORO_BATCH_WAIT_MS)",
    )


def profile_document(
    derivation: Derivation,
    measured: Measured,
    *,
    created: str,
    instance_type: str,
    measured_on: str,
    image: dict[str, str],
    slo: dict[str, Any],
    growth_per_minute: float,
    peak_sessions: int,
    prices: PriceTable,
    metric: PolicyMetric = "ConcurrentRequestsPerModelHighResolution",
) -> CapacityProfile:
    values = derivation.values
    return CapacityProfile.model_validate(
        {
            "schema": 1,
            "created": created,
            "instance_type": instance_type,
            "measured_on": measured_on,
            "image": image,
            "batching": measured.batching.model_dump() if measured.batching is not None else None,
            "slo": slo,
            "q_max": measured.q_max,
            "route": measured.route,
            "metric_ratio": measured.metric_ratio,
            "speech_duty": round(measured.traffic_duty, 4),
            "scale_out_seconds": measured.scale_out_seconds,
            "growth": {"sessions_per_minute": growth_per_minute},
            "peak_sessions": peak_sessions,
            "policy": {
                "metric": metric,
                "statistic": "Average",
                "target_value": values["target_value"],
                "scale_in_threshold": values["scale_in_threshold"],
                "scale_in_evaluation_minutes": values["scale_in_evaluation_minutes"],
                "scale_out_cooldown_seconds": values["scale_out_cooldown_seconds"],
                "scale_in_cooldown_seconds": values["scale_in_cooldown_seconds"],
                "min_instances": values["min_instances"],
                "max_instances": values["max_instances"],
                "admission_limit": values["admission_limit"],
            },
            "cost": {
                "price_table_date": prices.date.isoformat(),
                "usd_per_instance_hour": prices.hourly(instance_type),
                "usd_per_audio_hour": values["usd_per_audio_hour"],
                "usd_per_million_chars": values["usd_per_million_chars"],
            },
        }
    )


def explanation(derivation: Derivation, sources: dict[str, str]) -> str:
    """The Markdown that says how each number was reached."""
    lines = ["# Capacity plan", "", "Inputs:", ""]
    lines += [f"- {name}: {source}" for name, source in sources.items()]
    lines += ["", "| value | how |", "| --- | --- |"]
    for name, how in derivation.explained:
        value = derivation.values[name]
        shown = f"{value:.4g}" if isinstance(value, float) else str(value)
        lines.append(f"| {name} = **{shown}** | {how} |")
    return "\n".join(lines) + "\n"
