"""How fast synthesis runs here, and how long a session's next first chunk may be so playback never waits.

An agent's reply reaches a session sentence by sentence, one utterance each. When a short sentence
("Sure.") is followed by a long one, the long one's first chunk must be synthesized while the short
one is still being heard, or the listener hears a gap. So the first chunk of an utterance is sized
from two measurements: how much audio the listener still has ahead (``Playback``, per session) and
the engine's recent real-time factor (``Pace``, per server). With nothing left to hear, the first
chunk is the usual short one, for an early first audio.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .chunker import MIN_FIRST_CHUNK_CHARS

# Kokoro at speed 1 speaks about 14-16 characters of English a second; the low end errs towards
# shorter chunks, and SAFETY leaves room for the chunk to reach the listener.
CHARS_PER_SECOND = 14.0
SAFETY = 0.7
MIN_SAMPLE_SECONDS = 0.25  # audio shorter than this times mostly fixed costs, not the engine's pace


@dataclass
class Pace:
    """The engine's recent real-time factor: an exponential average over synthesized chunks."""

    rtf: float = 1.0  # until measured, assume real time: the cautious side
    weight: float = 0.2

    def record(self, synth_seconds: float, audio_seconds: float) -> None:
        if audio_seconds >= MIN_SAMPLE_SECONDS:
            self.rtf += self.weight * (synth_seconds / audio_seconds - self.rtf)

    def first_chunk(self, ahead_seconds: float, speed: float, usual: int, longest: int) -> tuple[int, bool]:
        """The first chunk's limit in characters, and whether it must fit it (cut between words if need be)."""
        if ahead_seconds <= 0:
            return usual, False
        fits = int(ahead_seconds / max(self.rtf, 1e-3) * CHARS_PER_SECOND * speed * SAFETY)
        return max(MIN_FIRST_CHUNK_CHARS, min(longest, fits)), True


@dataclass
class Playback:
    """When a session's listener will have heard everything sent so far, if it plays audio as it arrives."""

    heard_at: float = field(default=0.0)  # monotonic seconds

    def sent(self, audio_seconds: float) -> None:
        self.heard_at = max(self.heard_at, time.monotonic()) + audio_seconds

    def ahead(self) -> float:
        """Seconds of audio the listener has still to hear."""
        return max(0.0, self.heard_at - time.monotonic())
