"""The suite's one way to claim that work grows in proportion to its input: a ratio measured side by side.

A linear rule takes about ``factor`` times as long on an input ``factor`` times as large; a quadratic one
takes ``factor`` squared. The claim is the ratio, never a duration, so a machine of any speed passes it.
What a loaded CI runner adds is noise, and noise is what this measure is built against: the collector
is paused, each timing runs the work often enough to last tens of milliseconds, the small and the large
input alternate so that a busy spell slows both, the best of several rounds is kept, and a ratio past the
bound is measured again before it fails (a quadratic rule is past it every time).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

SHORTEST_TIMING_SECONDS = 0.02  # each timing runs the work this long at least: far above the clock's noise
ROUNDS = 3
ATTEMPTS = 3


def _seconds_per_run[T](work: Callable[[T], object], given: T, runs: int) -> float:
    started = time.perf_counter()
    for _ in range(runs):
        work(given)
    return (time.perf_counter() - started) / runs


def _growth_once[T](work: Callable[[T], object], small: T, large: T, factor: int) -> float:
    work(small)  # warm: caches, compiled patterns, lazy imports (the best of the rounds leaves out the large's first)
    runs = 1
    while _seconds_per_run(work, small, runs) * runs < SHORTEST_TIMING_SECONDS:
        runs *= 2
    large_runs = max(1, runs // factor)
    small_best = large_best = float("inf")
    for _ in range(ROUNDS):
        small_best = min(small_best, _seconds_per_run(work, small, runs))
        large_best = min(large_best, _seconds_per_run(work, large, large_runs))
    return large_best / small_best


def assert_linear[T](work: Callable[[T], object], small: T, large: T, factor: int, what: str = "") -> None:
    """``work(large)`` must take under four times what linear work would, ``large`` being ``factor`` times
    ``small`` (at a factor of 8, half what quadratic work would). A measure within the bound ends the attempts."""
    assert factor >= 8, "a smaller factor cannot tell linear from quadratic through a busy machine's noise"
    bound = factor * 4
    ratios = []
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(ATTEMPTS):
            ratios.append(_growth_once(work, small, large, factor))
            if ratios[-1] < bound:
                return
    finally:
        if collecting:
            gc.enable()
    raise AssertionError(
        f"{what or 'the work'}: {factor}x the input took {min(ratios):.0f}x the time at best "
        f"(linear is {factor}x, quadratic {factor * factor}x; the bound is {bound}x); measured {ratios}"
    )
