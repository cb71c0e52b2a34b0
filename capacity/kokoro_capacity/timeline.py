"""What a listener experiences: audio arriving over time, played back in real time.

Every strategy yields a ``Timeline``: audio chunks in play order with the time each arrived,
measured from the agent's first token. Playback starts with the first chunk and runs at real
speed; whenever the next chunk has not arrived when the previous one finishes playing, the
listener hears a stall.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass
class Timeline:
    bytes_per_second: int = 48_000  # 16-bit mono at 24 kHz
    arrivals: list[tuple[float, int]] = field(default_factory=list)  # (seconds since first token, bytes)

    def add(self, at: float, size: int) -> None:
        if size:
            self.arrivals.append((at, size))

    @property
    def first_audio_s(self) -> float:
        return self.arrivals[0][0] if self.arrivals else math.nan

    @property
    def last_audio_s(self) -> float:
        return max(at for at, _ in self.arrivals) if self.arrivals else math.nan

    @property
    def audio_s(self) -> float:
        return sum(size for _, size in self.arrivals) / self.bytes_per_second

    def stalls(self) -> tuple[int, float]:
        """Count and total seconds of silence after playback began."""
        if not self.arrivals:
            return 0, 0.0
        clock, count, total = self.arrivals[0][0], 0, 0.0
        for at, size in self.arrivals:
            if at > clock + 1e-3:  # a millisecond of jitter is not a stall anyone hears
                count, total = count + 1, total + (at - clock)
                clock = at
            clock += size / self.bytes_per_second
        return count, total

    def playback_end_s(self) -> float:
        _, stalled = self.stalls()
        return self.first_audio_s + self.audio_s + stalled

    def summary(self) -> dict[str, float]:
        count, stalled = self.stalls()
        return {
            "ttfa_ms": round(self.first_audio_s * 1000, 1),
            "stalls": count,
            "stall_ms": round(stalled * 1000, 1),
            "last_audio_ms": round(self.last_audio_s * 1000, 1),
            "playback_end_ms": round(self.playback_end_s() * 1000, 1),
            "audio_s": round(self.audio_s, 2),
        }


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]
