"""The API's audio (16-bit mono PCM at the model's rate) as PyAV frames and back, for the time-stretch
and the compressed formats, which both run on FFmpeg through PyAV (the ``openai`` extra)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import av
import numpy as np

from kokoro_core.model_cache import SAMPLE_RATE

# Small frames: FFmpeg's atempo hands on its output a frame at a time, so a frame's worth of audio
# (1024 samples, about 43 ms) is the most it holds back until the next piece arrives.
FRAME_SAMPLES = 1024
TIME_BASE = Fraction(1, SAMPLE_RATE)


class PcmFrames:
    """Consecutive pieces of PCM as frames timed one after another (muxers and filters need the times)."""

    def __init__(self) -> None:
        self._next_pts = 0

    def of(self, pcm: bytes) -> Iterator[av.AudioFrame]:
        samples = np.frombuffer(pcm, dtype="<i2")
        for start in range(0, samples.size, FRAME_SAMPLES):
            piece = samples[start : start + FRAME_SAMPLES]
            frame = av.AudioFrame.from_ndarray(piece.reshape(1, -1), format="s16", layout="mono")
            frame.sample_rate, frame.time_base, frame.pts = SAMPLE_RATE, TIME_BASE, self._next_pts
            self._next_pts += piece.size
            yield frame


def pcm_of(frame: av.AudioFrame) -> bytes:
    """A frame in the API's own format (packed 16-bit mono) as PCM bytes."""
    return frame.to_ndarray().astype("<i2", copy=False).tobytes()
