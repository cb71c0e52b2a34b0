"""Traffic traces for ``validate``: concurrent agent sessions, second by second.

Built in: ``steady`` (two hours at 60 % of the peak), ``diurnal`` (a day from a night trough at 10 % to
the peak mid-afternoon), ``surge`` (30 minutes at 20 %, growth at the planned sessions per minute up to
the peak, an hour there, then back). A recorded trace is JSON lines of ``{"t_s": seconds, "sessions": n}``,
held until the next row.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

BUILT_IN = ("steady", "diurnal", "surge")


def built_in(name: str, peak_sessions: int, growth_per_minute: float) -> list[float]:
    if name == "steady":
        return [0.6 * peak_sessions] * 7200
    if name == "diurnal":
        day = 86_400
        return [peak_sessions * (0.55 - 0.45 * math.cos(2 * math.pi * (t - 3 * 3600) / day)) for t in range(day)]
    if name == "surge":
        base = 0.2 * peak_sessions
        rise = math.ceil((peak_sessions - base) / max(growth_per_minute, 1e-9) * 60)
        up = [min(peak_sessions, base + growth_per_minute * t / 60) for t in range(rise)]
        return [base] * 1800 + up + [float(peak_sessions)] * 3600 + [base] * 3600
    raise ValueError(f"unknown trace {name!r}; built in: {', '.join(BUILT_IN)}, or a JSONL file path")


def recorded(path: Path) -> list[float]:
    rows: list[tuple[float, float]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            rows.append((float(row["t_s"]), float(row["sessions"])))
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}:{number}: expected {{'t_s': seconds, 'sessions': n}} ({error})") from None
    if not rows or any(b[0] <= a[0] for a, b in zip(rows, rows[1:], strict=False)) or rows[0][0] < 0:
        raise ValueError(f"{path}: rows must start at t_s >= 0 and increase in t_s")
    demand: list[float] = []
    for (start, sessions), (end, _) in zip(rows, [*rows[1:], (rows[-1][0] + 60, 0.0)], strict=True):
        demand += [sessions] * (math.ceil(end) - math.ceil(start))
    return [rows[0][1]] * math.ceil(rows[0][0]) + demand


def trace(spec: str, peak_sessions: int, growth_per_minute: float) -> list[float]:
    if spec in BUILT_IN:
        return built_in(spec, peak_sessions, growth_per_minute)
    if not Path(spec).is_file():
        raise ValueError(f"unknown trace {spec!r}: neither built in ({', '.join(BUILT_IN)}) nor a JSONL file")
    return recorded(Path(spec))
