"""The API's six response formats read back as a client would, by decoders that are not its encoders:
the bytes themselves for pcm, the standard library's ``wave`` for the WAV header, libsndfile
(soundfile) for mp3 and Ogg Opus, and FFmpeg's decoders (PyAV) for ADTS AAC and FLAC (libsndfile reads
no ADTS, nor a FLAC stream whose header leaves the length unknown, as a stream's must)."""

from __future__ import annotations

import io
import wave

import av
import numpy as np
import soundfile

RATE = 24000
WAV_HEADER_BYTES = 44


def decoded(response_format: str, data: bytes) -> tuple[np.ndarray, int]:
    """The audio as mono floats in [-1, 1], and its sample rate."""
    if response_format == "pcm":
        return np.frombuffer(data, dtype="<i2") / 32768, RATE
    if response_format == "wav":
        with wave.open(io.BytesIO(data)) as reader:  # a streamed WAV's sizes say "until the end"
            assert (reader.getframerate(), reader.getnchannels(), reader.getsampwidth()) == (RATE, 1, 2)
        return np.frombuffer(data[WAV_HEADER_BYTES:], dtype="<i2") / 32768, RATE
    if response_format in ("mp3", "opus"):
        samples, rate = soundfile.read(io.BytesIO(data), dtype="float32")
        return samples, rate
    return ffmpeg_decoded(data)


def ffmpeg_decoded(data: bytes, *, cut_short: bool = False) -> tuple[np.ndarray, int]:
    """Any compressed format by FFmpeg's decoders; ``cut_short``: the bytes are a stream's beginning,
    which may end inside a frame."""
    to_floats = av.AudioResampler(format="flt", layout="mono")
    parts: list[np.ndarray] = []
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.audio[0]
        try:
            for frame in container.decode(stream):
                parts.extend(converted.to_ndarray().reshape(-1) for converted in to_floats.resample(frame))
        except (av.error.InvalidDataError, EOFError):
            if not cut_short:
                raise
        return (np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)), stream.rate


def seconds_so_far(response_format: str, data: bytes) -> float:
    """How much audio the beginning of a stream already holds."""
    if response_format in ("pcm", "wav"):
        header = WAV_HEADER_BYTES if response_format == "wav" else 0
        return max(len(data) - header, 0) // 2 / RATE
    try:
        samples, rate = ffmpeg_decoded(data, cut_short=True)
    except av.error.FFmpegError:  # not even the header yet
        return 0.0
    return len(samples) / rate


def dominant_hz(samples: np.ndarray, rate: int) -> float:
    """The loudest frequency: the fake engine's tone identifies what was said."""
    spectrum = np.abs(np.fft.rfft(samples))
    return float(np.fft.rfftfreq(len(samples), 1 / rate)[int(np.argmax(spectrum))])


def loudness(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(samples, dtype=np.float64)))) if len(samples) else 0.0
