"""The OpenAI speech API's response formats, encoded as the audio streams in (16-bit mono PCM at 24 kHz),
each with OpenAI's content type.

``pcm`` (raw 16-bit little-endian, as OpenAI's) and ``wav`` (a streaming header, then the samples) need
nothing. ``mp3``, ``opus`` (Ogg), ``aac`` (ADTS) and ``flac`` are FFmpeg's, through PyAV
(``compressed``), as is the time-stretch for speeds beyond Kokoro's own (``time_stretch``): both are the
``openai`` extra (``kokoro-server[openai]``), and without it they are refused with that hint.
"""

from __future__ import annotations

from typing import Protocol

from kokoro_core.audio_format import wav_header
from kokoro_core.model_cache import SAMPLE_RATE  # the model's: the API's audio is never resampled
from kokoro_core.protocol import SPEED_RANGE
from kokoro_core.validation import shown

CONTENT_TYPES = {
    "mp3": "audio/mpeg",
    "opus": "audio/opus",
    "aac": "audio/aac",
    "flac": "audio/flac",
    "wav": "audio/wav",
    "pcm": "audio/pcm",
}
RESPONSE_FORMATS = tuple(CONTENT_TYPES)
_EXTRA = "the openai extra (pip install 'kokoro-server[openai]')"


class Unavailable(ValueError):
    """What this server cannot make of a request, with the field it is about, an error code, and what
    is allowed instead."""

    def __init__(self, message: str, param: str, code: str) -> None:
        super().__init__(message)
        self.param, self.code = param, code


class Encoder(Protocol):
    def encode(self, pcm: bytes) -> bytes: ...

    def finish(self) -> bytes: ...


class PcmEncoder:
    def encode(self, pcm: bytes) -> bytes:
        return pcm

    def finish(self) -> bytes:
        return b""


class WavEncoder:
    """A header whose sizes say "until the stream ends" (it is written before the length is known)."""

    def __init__(self) -> None:
        self._header = wav_header(SAMPLE_RATE)

    def encode(self, pcm: bytes) -> bytes:
        header, self._header = self._header, b""
        return header + pcm

    def finish(self) -> bytes:
        return self._header  # an empty answer is still a WAV file


class Stretched:
    """The audio time-stretched, then encoded."""

    def __init__(self, stretch: Encoder, encoder: Encoder) -> None:
        self._stretch, self._encoder = stretch, encoder

    def encode(self, pcm: bytes) -> bytes:
        return self._encoder.encode(self._stretch.encode(pcm))

    def finish(self) -> bytes:
        return self._encoder.encode(self._stretch.finish()) + self._encoder.finish()


def encoder_for(response_format: str, tempo: float = 1.0) -> Encoder:
    """A fresh encoder for one response, time-stretching by ``tempo`` where it is not 1; ``Unavailable``
    says what is allowed instead."""
    encoder = _encoder(response_format)
    if tempo == 1.0:
        return encoder
    try:
        from .time_stretch import TimeStretch
    except ImportError:
        low, high = SPEED_RANGE
        message = f"a speed beyond {low}–{high} is time-stretched, which needs {_EXTRA}"
        raise Unavailable(message, "speed", "invalid_speed") from None
    return Stretched(TimeStretch(tempo), encoder)


def _encoder(response_format: str) -> Encoder:
    if response_format == "pcm":
        return PcmEncoder()
    if response_format == "wav":
        return WavEncoder()
    if response_format not in CONTENT_TYPES:
        allowed = ", ".join(RESPONSE_FORMATS)
        message = f"response_format {shown(response_format)} is not one this server streams; choose one of {allowed}"
        raise Unavailable(message, "response_format", "unsupported_format")
    try:
        from .compressed import CompressedEncoder
    except ImportError:
        message = f"response_format {shown(response_format)} needs {_EXTRA}; pcm and wav need nothing"
        raise Unavailable(message, "response_format", "unsupported_format") from None
    return CompressedEncoder(response_format)
