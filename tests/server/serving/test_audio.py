"""Wire encodings: bit-exact G.711 µ-law, a streaming WAV header, seamless chunked resampling."""

from __future__ import annotations

import io
import wave

import numpy as np
import pytest

from kokoro_core.audio_format import AudioFormat, wav_header
from kokoro_server.serving.audio import StreamEncoder, mulaw_encode


def test_mulaw_matches_the_g711_reference_for_every_16_bit_sample():
    audioop = pytest.importorskip("audioop")
    samples = np.arange(-32768, 32768, dtype="<i2")
    assert mulaw_encode(samples) == audioop.lin2ulaw(samples.tobytes(), 2)


def test_wav_header_opens_as_a_16_bit_mono_stream():
    reader = wave.open(io.BytesIO(wav_header(22050) + b"\0\0" * 100))
    assert (reader.getnchannels(), reader.getsampwidth(), reader.getframerate()) == (1, 2, 22050)
    assert len(reader.readframes(reader.getnframes())) == 200  # reads to the end of what arrived


@pytest.mark.parametrize("rate", [8000, 16000, 22050])
def test_chunked_resampling_equals_resampling_the_whole(rate):
    tone = np.sin(2 * np.pi * 440 * np.arange(24000) / 24000).astype(np.float32) * 0.5
    chunked = StreamEncoder(AudioFormat("pcm16", rate))
    pieces = b"".join(chunked.encode(part) for part in np.array_split(tone, 7)) + chunked.finish()
    whole = StreamEncoder(AudioFormat("pcm16", rate))
    at_once = whole.encode(tone, last=True)
    assert abs(len(pieces) - len(at_once)) <= 4
    assert abs(len(pieces) / 2 - rate) <= 2  # one second in, one second out
    a = np.frombuffer(pieces, dtype="<i2")[: len(at_once) // 2].astype(np.int32)
    b = np.frombuffer(at_once, dtype="<i2")[: len(a)].astype(np.int32)
    assert np.abs(a - b).max() <= 2  # no seams where the chunks met


def test_formats_describe_themselves_for_headers():
    assert AudioFormat("pcm16", 16000).content_type == "audio/L16;rate=16000;channels=1"
    assert AudioFormat("mulaw", 8000).duration_ms(8000) == 1000.0
    assert AudioFormat("wav", 24000).duration_ms(48000) == 1000.0
