"""Audio encodings for the wire: raw 16-bit PCM, streaming WAV and 8-bit G.711 µ-law.

Each utterance gets one ``StreamEncoder``: it resamples from the model's 24 kHz with a
streaming soxr resampler (state carries across chunks, so joins stay seamless) and encodes.
"""

from __future__ import annotations

import numpy as np
import soxr

from kokoro_core.audio_format import AudioFormat
from kokoro_core.model_cache import SAMPLE_RATE as MODEL_RATE
from kokoro_server.engine.speech_engine import SILENCE_LEVEL

_MULAW_BIAS = 0x21
_MULAW_CLIP = 8159


def to_pcm16(audio: np.ndarray) -> np.ndarray:
    pcm: np.ndarray = (np.clip(audio, -1.0, 1.0) * 32767.0).round().astype("<i2")
    return pcm


def mulaw_encode(pcm: np.ndarray) -> bytes:
    """G.711 µ-law, bit-exact with the ITU-T reference (and Python's former audioop.lin2ulaw)."""
    samples = pcm.astype(np.int32) >> 2  # the reference works on 14-bit samples
    negative = samples < 0
    magnitude = np.minimum(np.where(negative, -samples, samples), _MULAW_CLIP) + _MULAW_BIAS
    magnitude = np.minimum(magnitude, 0x1FFF)
    segment = np.floor(np.log2(magnitude)).astype(np.int32) - 5
    code = (segment << 4) | ((magnitude >> (segment + 1)) & 0x0F)
    encoded: bytes = (code ^ np.where(negative, 0x7F, 0xFF)).astype(np.uint8).tobytes()
    return encoded


def quiet_edges(audio: np.ndarray) -> tuple[int, int]:
    """How many samples at the start and at the end of ``audio`` are silence (all of it, both, if it is all quiet)."""
    loud = np.flatnonzero(np.abs(audio) > SILENCE_LEVEL)
    if not loud.size:
        return len(audio), len(audio)
    return int(loud[0]), len(audio) - 1 - int(loud[-1])


class StreamEncoder:
    """Float32 24 kHz chunks in, wire bytes out, for one utterance."""

    def __init__(self, audio_format: AudioFormat) -> None:
        self.format = audio_format
        self._resampler = (
            None
            if audio_format.sample_rate == MODEL_RATE
            else soxr.ResampleStream(MODEL_RATE, audio_format.sample_rate, 1, dtype="float32", quality="HQ")
        )

    def encode(self, audio: np.ndarray, last: bool = False) -> bytes:
        if self._resampler is not None:
            audio = self._resampler.resample_chunk(np.ascontiguousarray(audio, dtype=np.float32), last=last)
        pcm = to_pcm16(audio)
        return mulaw_encode(pcm) if self.format.encoding == "mulaw" else pcm.tobytes()

    def finish(self) -> bytes:
        """The resampler's last samples; nothing for 24 kHz."""
        return self.encode(np.zeros(0, dtype=np.float32), last=True) if self._resampler else b""
