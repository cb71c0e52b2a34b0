"""Audio formats on the wire: encodings, sample rates, and the streaming WAV header.

Shared by the server, which encodes, and the clients, which decode and time what they receive.
"""

from __future__ import annotations

import io
import wave
from dataclasses import dataclass

FORMATS = ("pcm16", "wav", "mulaw")
SAMPLE_RATES = (8000, 16000, 22050, 24000)
DEFAULT_RATES = {"pcm16": 24000, "wav": 24000, "mulaw": 8000}
CONTENT_TYPES = {"pcm16": "audio/L16", "wav": "audio/wav", "mulaw": "audio/PCMU"}
# A WAV header for a stream of unknown length claims the largest size the format allows;
# players read to the end of the stream.
_STREAMING_WAV_FRAMES = (0xFFFFFFFF - 36) // 2


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


def wav_header(sample_rate: int) -> bytes:
    buffer = io.BytesIO()
    writer = wave.open(buffer, "wb")
    writer.setnchannels(1)
    writer.setsampwidth(2)
    writer.setframerate(sample_rate)
    writer.setnframes(_STREAMING_WAV_FRAMES)
    writer.writeframesraw(b"")  # writes the header, sized for the nominal frame count
    return buffer.getvalue()
