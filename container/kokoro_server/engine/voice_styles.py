"""A voice's style vectors, and a blend's mixed from its voices' once (``kokoro_core.voices``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping

import numpy as np

from kokoro_core.voices import parse_voice

STYLE_DIM = 256
# Blends mixed and kept (each 510 × 256 float32, about 0.5 MB): a session's blend is mixed once, not per chunk.
BLEND_CACHE_SIZE = 32


class VoiceStyles:
    """Each voice's style vectors (one 256-vector per input length), a blend's mixed from its voices'
    (the weighted sum, ``kokoro_core.voices``) on first use and kept, the least recently used dropped
    past ``capacity``. Thread-safe: every engine worker asks for them."""

    def __init__(self, voices: Mapping[str, np.ndarray], capacity: int = BLEND_CACHE_SIZE) -> None:
        self._voices = dict(voices)
        self._blends: OrderedDict[str, np.ndarray] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()
        self.blends_mixed = 0  # blends mixed since start (a cached one is not mixed again)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._voices)

    def __getitem__(self, voice: str) -> np.ndarray:
        """The style vectors of a voice or a blend; raises ``kokoro_core.voices.VoiceError`` for neither."""
        if (style := self._voices.get(voice)) is not None:
            return style
        with self._lock:
            if (style := self._blends.get(voice)) is not None:
                self._blends.move_to_end(voice)
                return style
        blend = parse_voice(voice, self._voices)  # a canonical form (what the server passes) is found above
        if not blend.is_blend:
            return self._voices[blend.canonical]
        with self._lock:
            if (style := self._blends.get(blend.canonical)) is None:
                mixed = np.zeros(self._voices[blend.names[0]].shape, dtype=np.float64)
                for name, weight in zip(blend.names, blend.weights, strict=True):
                    mixed += weight * self._voices[name]
                style = mixed.astype(np.float32)
                style.flags.writeable = False  # shared by every call that uses the blend
                self._blends[blend.canonical] = style
                self.blends_mixed += 1
                while len(self._blends) > self._capacity:
                    self._blends.popitem(last=False)
            self._blends.move_to_end(blend.canonical)
            return style
