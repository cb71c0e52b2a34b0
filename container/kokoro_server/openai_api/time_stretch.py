"""A time-stretch that keeps the pitch, for speeds beyond what Kokoro says naturally (``speed``): FFmpeg's
``atempo`` filter through a PyAV filter graph, fed as the audio streams in and handing on what it has
stretched so far (it holds back at most a frame, about 43 ms)."""

from __future__ import annotations

import av
import av.filter

from kokoro_core.model_cache import SAMPLE_RATE

from .pcm_frames import TIME_BASE, PcmFrames, pcm_of


class TimeStretch:
    """16-bit mono PCM in, the same ``tempo`` times faster out (0.5: twice as long), at the same pitch."""

    def __init__(self, tempo: float) -> None:
        self._graph = av.filter.Graph()
        source = self._graph.add_abuffer(format="s16", sample_rate=SAMPLE_RATE, layout="mono", time_base=TIME_BASE)
        stretch = self._graph.add("atempo", tempo=repr(tempo))
        # The API's own format out: atempo would otherwise be free to hand on another sample format.
        packed = self._graph.add("aformat", sample_fmts="s16", channel_layouts="mono")
        self._graph.link_nodes(source, stretch, packed, self._graph.add("abuffersink")).configure()
        self._frames = PcmFrames()

    def encode(self, pcm: bytes) -> bytes:
        for frame in self._frames.of(pcm):
            self._graph.push(frame)
        return self._stretched()

    def finish(self) -> bytes:
        self._graph.push(None)
        return self._stretched()

    def _stretched(self) -> bytes:
        parts: list[bytes] = []
        while True:
            try:
                frame = self._graph.pull()
            except (BlockingIOError, EOFError):  # wants more input, or has handed on everything
                return b"".join(parts)
            assert isinstance(frame, av.AudioFrame)
            parts.append(pcm_of(frame))
