"""Many sessions at once: throughput, tail latency and fairness as concurrency grows."""

from __future__ import annotations

import asyncio
from typing import Any

from kokoro_capacity.timeline import percentile

from .strategies import Target, timed_session


async def concurrency_level(target: Target, sessions: int, text: str, tokens_per_second: float) -> dict[str, Any]:
    """``sessions`` agents speaking the same reply at the same moment, each on its own session."""
    start = asyncio.Event()
    tasks = [
        asyncio.create_task(timed_session(target, target.transport(), text, tokens_per_second, start, timeout=600))
        for _ in range(sessions)
    ]
    await asyncio.sleep(0.2)  # let every session open first: the test is speech, not connection setup
    start.set()
    timelines = await asyncio.gather(*tasks)
    ttfas = [timeline.first_audio_s for timeline in timelines]
    wall = max(timeline.last_audio_s for timeline in timelines)
    audio = sum(timeline.audio_s for timeline in timelines)
    stalls = [timeline.stalls() for timeline in timelines]
    return {
        "sessions": sessions,
        "wall_s": round(wall, 2),
        "audio_s": round(audio, 2),
        "throughput_audio_s_per_s": round(audio / wall, 3),
        "ttfa_p50_ms": round(percentile(ttfas, 50) * 1000, 1),
        "ttfa_p95_ms": round(percentile(ttfas, 95) * 1000, 1),
        "ttfa_max_ms": round(max(ttfas) * 1000, 1),
        "ttfas_ms": [round(ttfa * 1000, 1) for ttfa in ttfas],
        "fairness_max_over_min_ttfa": round(max(ttfas) / min(ttfas), 2),
        "stalls": sum(count for count, _ in stalls),
        "stall_ms": round(1000 * sum(total for _, total in stalls), 1),
    }
