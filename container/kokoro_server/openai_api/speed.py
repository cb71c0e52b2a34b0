"""OpenAI's ``speed`` (0.25 to 4.0) over Kokoro's natural pace (0.5 to 2.0, ``SPEED_RANGE``).

Inside Kokoro's range the model itself speaks at the speed asked. Beyond it the model speaks at the
nearest end of its range (0.5 or 2.0) and the rest is a time-stretch that keeps the pitch
(``time_stretch``): 0.25 is the model at 0.5 slowed by half again, 4.0 the model at 2.0 twice as fast.
"""

from __future__ import annotations

from kokoro_core.protocol import SPEED_RANGE

OPENAI_SPEED_RANGE = (0.25, 4.0)


def split_speed(speed: float) -> tuple[float, float]:
    """The speed to ask the model for, and the tempo left for the time-stretch (1.0: none)."""
    low, high = SPEED_RANGE
    model_speed = min(max(speed, low), high)
    return model_speed, speed / model_speed
