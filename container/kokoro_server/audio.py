"""Audio encodings for the wire: raw 16-bit PCM, streaming WAV and 8-bit G.711 µ-law.

Each utterance gets one ``StreamEncoder``: it resamples from the model's 24 kHz with a
streaming soxr resampler (state carries across chunks, so joins stay seamless) and encodes.
"""

from __future__ import annotations

import io
import wave
from dataclasses import dataclass

import numpy as np
import soxr

from .model_cache import SAMPLE_RATE as MODEL_RATE

FORMATS = ("pcm16", "wav", "mulaw")
SAMPLE_RATES = (8000, 16000, 22050, 24000)
DEFAULT_RATES = {"pcm16": 24000, "wav": 24000, "mulaw": 8000}
CONTENT_TYPES = {"pcm16": "audio/L16", "wav": "audio/wav", "mulaw": "audio/PCMU"}
# A WAV header for a stream of unknown length claims the largest size the format allows;
# players read to the end of the stream.
_STREAMING_WAV_FRAMES = (0xFFFFFFFF - 36) // 2
_MULAW_BIAS = 0x21
_MULAW_CLIP = 8159


@dataclass(frozen=True)
class AudioFormat:
    encoding: str
    sample_rate: int

    @property
    def sample_bytes(self) -> int:
        return 1 if self.encoding == "mulaw" else 2

    @property
    def bytes_per_second(self) -> int:
        return self.sample_rate * self.sample_bytes

    @property
    def content_type(self) -> str:
        base = CONTENT_TYPES[self.encoding]
        return base if self.encoding == "wav" else f"{base};rate={self.sample_rate};channels=1"

    def duration_ms(self, audio_bytes: int) -> float:
        return 1000.0 * audio_bytes / self.bytes_per_second


def to_pcm16(audio: np.ndarray) -> np.ndarray:
    return (np.clip(audio, -1.0, 1.0) * 32767.0).round().astype("<i2")


def mulaw_encode(pcm: np.ndarray) -> bytes:
    """G.711 µ-law, bit-exact with the ITU-T reference (and Python's former audioop.lin2ulaw)."""
    samples = pcm.astype(np.int32) >> 2  # the reference works on 14-bit samples
    negative = samples < 0
    magnitude = np.minimum(np.where(negative, -samples, samples), _MULAW_CLIP) + _MULAW_BIAS
    magnitude = np.minimum(magnitude, 0x1FFF)
    segment = np.floor(np.log2(magnitude)).astype(np.int32) - 5
    code = (segment << 4) | ((magnitude >> (segment + 1)) & 0x0F)
    return (code ^ np.where(negative, 0x7F, 0xFF)).astype(np.uint8).tobytes()


def wav_header(sample_rate: int) -> bytes:
    buffer = io.BytesIO()
    writer = wave.open(buffer, "wb")
    writer.setnchannels(1)
    writer.setsampwidth(2)
    writer.setframerate(sample_rate)
    writer.setnframes(_STREAMING_WAV_FRAMES)
    writer.writeframesraw(b"")  # writes the header, sized for the nominal frame count
    return buffer.getvalue()


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
