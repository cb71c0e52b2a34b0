"""How long an utterance's first chunk may be, so that it follows the audio before it without a gap.

An agent's reply reaches a session sentence by sentence, one utterance each. When a short sentence
("Sure.") is followed by a long one, the long one's first chunk is synthesized while the short one
is being heard; if it takes longer than that, the listener hears a gap. So after a chunk of ``t``
seconds of audio, the next utterance's first chunk holds at most what the engine synthesizes in
``t`` at the pace planned for its device, cut between words if no clause boundary is in reach.
With nothing before it in the session, the first chunk is the usual short one, for an early first
audio.

The plan depends only on the session's texts, never on timing, so the same sentences give the same
audio on any machine, and an utterance resumed after a reconnect can be laid out exactly as before.
"""

from __future__ import annotations

from .chunker import MIN_FIRST_CHUNK_CHARS

# The real-time factor planned for: CPU engines run at 0.3-0.5 (docs/bench/bench.md), and chunks
# after the first grow at most twofold on the same assumption; GPUs run Kokoro far faster.
PLANNED_RTF = {"cpu": 0.5, "cuda": 0.05}
# Kokoro at speed 1 speaks about 14-16 characters of English a second; the low end errs towards
# shorter chunks, and SAFETY leaves room for the chunk to travel to the listener.
CHARS_PER_SECOND = 14.0
SAFETY = 0.7


def first_chunk(
    audio_before_seconds: float | None, speed: float, device: str, usual: int, longest: int
) -> tuple[int, bool]:
    """The first chunk's limit in characters, and whether it must fit it (cut between words if need be).

    ``audio_before_seconds``: the length of the session's chunk before this utterance, or None if none.
    """
    if not audio_before_seconds:
        return usual, False
    fits = audio_before_seconds / PLANNED_RTF.get(device, PLANNED_RTF["cpu"]) * CHARS_PER_SECOND * speed * SAFETY
    return max(MIN_FIRST_CHUNK_CHARS, min(longest, int(fits))), True
