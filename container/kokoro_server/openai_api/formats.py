"""The OpenAI speech API's response formats, encoded as the audio streams in (16-bit mono PCM at 24 kHz).

``pcm`` (raw 16-bit little-endian, as OpenAI's) and ``wav`` (a streaming header, then the samples) need
nothing. ``mp3`` is encoded by LAME (lameenc) frame by frame; ``opus`` is Ogg Opus from libsndfile
(soundfile), whose pages come out about once a second of audio. Both are the ``openai`` extra
(``kokoro-server[openai]``); without it those two formats are refused with that hint. OpenAI's ``aac``
and ``flac`` are refused: no well-kept encoder here streams them.
"""

from __future__ import annotations

import io
from typing import Protocol

import numpy as np

from kokoro_core.audio_format import wav_header
from kokoro_core.model_cache import SAMPLE_RATE  # the model's: the API's audio is never resampled

CONTENT_TYPES = {"mp3": "audio/mpeg", "opus": "audio/ogg; codecs=opus", "wav": "audio/wav", "pcm": "audio/pcm"}
RESPONSE_FORMATS = tuple(CONTENT_TYPES)
MP3_KBPS = 64


class UnsupportedFormat(ValueError):
    """A response format this server cannot encode, with what it can."""


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


class Mp3Encoder:
    def __init__(self) -> None:
        import lameenc

        self._lame = lameenc.Encoder()
        self._lame.set_bit_rate(MP3_KBPS)
        self._lame.set_in_sample_rate(SAMPLE_RATE)
        self._lame.set_channels(1)
        self._lame.set_quality(2)

    def encode(self, pcm: bytes) -> bytes:
        return bytes(self._lame.encode(pcm))

    def finish(self) -> bytes:
        return bytes(self._lame.flush())


class _Collected(io.RawIOBase):
    """A write-only file that hands over what was written since it was last asked."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._position = 0

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self._parts.append(bytes(data))
        self._position += len(data)
        return len(data)

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Only to where it is already (libsndfile asks the length that way): what went out stays out."""
        target = {io.SEEK_SET: offset, io.SEEK_CUR: self._position + offset, io.SEEK_END: self._position + offset}
        if target[whence] != self._position:
            raise io.UnsupportedOperation("a stream being sent cannot be rewound")
        return self._position

    def take(self) -> bytes:
        data, self._parts = b"".join(self._parts), []
        return data


class OpusEncoder:
    def __init__(self) -> None:
        import soundfile

        self._sink = _Collected()
        self._file = soundfile.SoundFile(
            self._sink, mode="w", samplerate=SAMPLE_RATE, channels=1, format="OGG", subtype="OPUS"
        )

    def encode(self, pcm: bytes) -> bytes:
        self._file.write(np.frombuffer(pcm, dtype="<i2"))
        return self._sink.take()

    def finish(self) -> bytes:
        self._file.close()
        return self._sink.take()


_ENCODERS: dict[str, type[Encoder]] = {"pcm": PcmEncoder, "wav": WavEncoder, "mp3": Mp3Encoder, "opus": OpusEncoder}


def encoder_for(response_format: str) -> Encoder:
    """A fresh encoder for one response; ``UnsupportedFormat`` says what is allowed instead."""
    if response_format not in _ENCODERS:
        raise UnsupportedFormat(
            f"response_format {response_format!r} is not one this server streams; choose one of "
            f"{', '.join(RESPONSE_FORMATS)}"
        )
    try:
        return _ENCODERS[response_format]()
    except ImportError:
        raise UnsupportedFormat(
            f"response_format {response_format!r} needs the openai extra (pip install 'kokoro-server[openai]'); "
            "pcm and wav need nothing"
        ) from None
