"""How long an utterance's first chunk may be, so that it follows the audio before it without a gap.

An agent's reply reaches a session sentence by sentence, one utterance each. When an utterance
starts while the listener is still hearing earlier audio, its first chunk must be synthesized
before that runs out, or the listener hears a gap. The session keeps track of when the listener
will have heard everything sent (audio plays as it arrives, after what came before); with ``t``
seconds still to hear, the first chunk holds at most what the engine synthesizes in ``t`` at the
pace planned for its device, cut between words if no clause boundary is in reach. Early in a reply
``t`` is short and so is the chunk; once audio is well ahead, whole sentences fit. When the listener
has heard everything, the first chunk is the usual short one, for an early first audio.

The limit chosen is sent in ``start`` (``first_chunk_chars``), so an utterance resumed after a
reconnect is laid out exactly as before.
"""

from __future__ import annotations

from kokoro_core.chunker import GROWTH, MIN_FIRST_CHUNK_CHARS

# The real-time factor planned for: on CPU the one chunks grow by (chunker.GROWTH), which leaves room
# over the 0.35-0.45 measured (docs/bench/bench.md) for a busy machine; GPUs run Kokoro far faster.
PLANNED_RTF = {"cpu": 1 / GROWTH, "cuda": 0.05}
# Kokoro at speed 1 says about 14-17 characters of normalized English a second (chunks are counted in
# said characters, chunker.Reading); the low end errs towards shorter chunks, and SAFETY leaves room
# for the chunk to travel to the listener.
CHARS_PER_SECOND = 14.0
SAFETY = 0.7


def first_chunk(to_hear_seconds: float | None, speed: float, device: str, usual: int, longest: int) -> tuple[int, bool]:
    """The first chunk's limit in said characters, and whether it must fit it (cut between words if need be).

    ``to_hear_seconds``: how much audio the listener has still to hear, or None (or 0) if nothing.
    """
    if not to_hear_seconds or to_hear_seconds <= 0:
        return usual, False
    fits = to_hear_seconds / PLANNED_RTF.get(device, PLANNED_RTF["cpu"]) * CHARS_PER_SECOND * speed * SAFETY
    return max(MIN_FIRST_CHUNK_CHARS, min(longest, int(fits))), True
