"""The compressed response formats, encoded by FFmpeg through PyAV as the audio streams in: each piece of
PCM in returns the bytes the muxer has finished, so a client decodes and plays while the rest is made.

- ``mp3``: LAME (libmp3lame) at 64 kb/s, bare frames: no ID3 tag, no Xing frame (its length is unknown
  while streaming);
- ``opus``: Ogg Opus (libopus) at 32 kb/s, in pages of 0.1 s of audio rather than FFmpeg's 1 s: its
  muxer keeps a whole page back besides the one filling, so 1 s pages would hold back up to 2 s (0.1 s
  pages cost 4% more bytes);
- ``aac``: AAC-LC (FFmpeg's encoder) at 64 kb/s in ADTS frames, each decodable on its own;
- ``flac``: a FLAC stream whose header leaves the length unknown, as a stream's must.

The output is never seekable, so no muxer goes back to patch a header; every packet is flushed at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import av

from kokoro_core.model_cache import SAMPLE_RATE

from .pcm_frames import PcmFrames


@dataclass(frozen=True)
class Codec:
    muxer: str
    encoder: str
    bit_rate: int | None = None  # None: lossless
    muxer_options: dict[str, str] = field(default_factory=dict)


CODECS = {
    "mp3": Codec("mp3", "libmp3lame", 64_000, {"id3v2_version": "0", "write_xing": "0"}),
    "opus": Codec("ogg", "libopus", 32_000, {"page_duration": "100000"}),  # in microseconds
    "aac": Codec("adts", "aac", 64_000),
    "flac": Codec("flac", "flac"),
}


class _Unsent:
    """Where the muxer writes: what it wrote since last taken. It has no ``seek``: a stream on its way
    to the client cannot be rewound, and PyAV tells FFmpeg so."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self._parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data, self._parts = b"".join(self._parts), []
        return data


class CompressedEncoder:
    def __init__(self, response_format: str) -> None:
        codec = CODECS[response_format]
        self._unsent = _Unsent()
        options = {"flush_packets": "1"} | codec.muxer_options
        self._container = av.open(self._unsent, mode="w", format=codec.muxer, container_options=options)
        stream = self._container.add_stream(codec.encoder, rate=SAMPLE_RATE, layout="mono")
        assert isinstance(stream, av.AudioStream)  # an audio encoder's, by its name
        self._stream = stream
        if codec.bit_rate is not None:
            self._stream.bit_rate = codec.bit_rate
        self._frames = PcmFrames()

    def encode(self, pcm: bytes) -> bytes:
        for frame in self._frames.of(pcm):  # PyAV converts each to the encoder's sample format and frame size
            self._container.mux(self._stream.encode(frame))
        return self._unsent.take()

    def finish(self) -> bytes:
        self._container.mux(self._stream.encode(None))  # what the encoder still holds
        self._container.close()  # the muxer's trailer, where it has one
        return self._unsent.take()
