"""Making speech louder or softer (SSML ``<prosody volume>``) without clipping.

A gain in dB scales the audio; where that would push a peak past the ceiling, a look-ahead peak
limiter turns the gain down smoothly around it, starting a few milliseconds before the peak, so
no sample exceeds the ceiling and nothing clicks. Speech whose peaks stay under the ceiling after
the gain is only scaled.

The limiter keeps no state from one call to the next: each chunk of a stream is processed alone.
That is fine because its reach is a few milliseconds (``LOOKAHEAD_SECONDS`` either side of a
sample) and a chunk's edges are silence faded in and out, so no peak near an edge needs a gain
reduction from a neighbouring chunk; at the edges the limiter simply sees nothing to limit.
"""

from __future__ import annotations

import math

import numpy as np

from kokoro_core.model_cache import SAMPLE_RATE

DEFAULT_CEILING = 0.95  # a little headroom under full scale, for resampling and encoders' overshoot
# How far ahead (and behind) the limiter looks: long enough that the gain changes slowly against a
# voice's pitch period (no audible distortion), short enough to hear no pumping around a peak.
LOOKAHEAD_SECONDS = 0.005


def gain_factor(db: float) -> float:
    """The amplitude factor for a gain in dB: 10 ** (db / 20); minus infinity (silent) is 0."""
    if db == -math.inf:
        return 0.0
    return float(10.0 ** (db / 20.0))


def louder(
    audio: np.ndarray, gain_db: float, ceiling: float = DEFAULT_CEILING, sample_rate: int = SAMPLE_RATE
) -> np.ndarray:
    """``audio`` (float32 mono, full scale 1.0) with ``gain_db`` applied and its peaks limited to ``ceiling``.

    Returns a new float32 array; ``audio`` is not changed. Where ``gain × audio`` stays within the
    ceiling, the result is exactly that.
    """
    if not 0.0 < ceiling <= 1.0:
        raise ValueError(f"the ceiling must be in (0, 1], not {ceiling}")
    samples = np.asarray(audio, dtype=np.float64).reshape(-1)
    scaled = samples * gain_factor(gain_db)
    magnitude = np.abs(scaled)
    if not magnitude.size or magnitude.max() <= ceiling:
        return scaled.astype(np.float32)

    # The gain each sample needs on its own to stay within the ceiling.
    required = np.ones_like(magnitude)
    over = magnitude > ceiling
    required[over] = ceiling / magnitude[over]

    # Smoothed gain: the minimum of `required` over a window of 2W+1 samples around each sample, then
    # the moving average of those minima over 2W+1. It never exceeds the required gain: for sample k,
    # each minimum averaged is at some j with |j - k| <= W, whose window [j - W, j + W] holds k, so
    # that minimum is <= required[k]; an average of values <= required[k] is <= required[k].
    # The average also bounds the gain's change to 1/(2W+1) a sample: no step, an attack over 2W+1.
    # `required` is padded with 2W ones (no limiting needed outside the chunk) so that the minima
    # exist for j in [-W, n + W), every j the average at an in-chunk sample reaches.
    reach = max(1, round(LOOKAHEAD_SECONDS * sample_rate))
    window = 2 * reach + 1
    padded = np.pad(required, 2 * reach, constant_values=1.0)
    minima = _sliding_minimum(padded, window)
    gain = 1.0 - _moving_average(1.0 - minima, window)  # averaging the reduction keeps the unlimited parts exact

    # Guard the last ulp: rounding (and float32's nearest value to the ceiling) may not exceed it.
    bound = np.float32(ceiling)
    if bound > ceiling:
        bound = np.nextafter(bound, np.float32(0.0))
    limited = (scaled * np.clip(gain, 0.0, 1.0)).astype(np.float32)
    return np.clip(limited, -bound, bound)


def _sliding_minimum(values: np.ndarray, window: int) -> np.ndarray:
    """The minimum of every run of ``window`` consecutive values (van Herk / Gil-Werman), in linear time.

    Each run spans at most two blocks of ``window`` values: its minimum is the smaller of the
    minimum from its start to the end of its first block and that from the start of its last block to its end.
    """
    count = values.size
    flat = np.full(-(-count // window) * window, np.inf)  # padded with +inf, which no minimum picks
    flat[:count] = values
    blocks = flat.reshape(-1, window)
    from_block_start = np.minimum.accumulate(blocks, axis=1).reshape(-1)
    to_block_end = np.minimum.accumulate(blocks[:, ::-1], axis=1)[:, ::-1].reshape(-1)
    minima: np.ndarray = np.minimum(to_block_end[: count - window + 1], from_block_start[window - 1 : count])
    return minima


def _moving_average(values: np.ndarray, window: int) -> np.ndarray:
    """The mean of every run of ``window`` consecutive values, from running sums (linear time)."""
    sums = np.concatenate(([0.0], np.cumsum(values)))
    means: np.ndarray = (sums[window:] - sums[:-window]) / window
    return means
