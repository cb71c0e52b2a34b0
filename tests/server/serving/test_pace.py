"""Sizing an utterance's first chunk from the audio the listener has still to hear, so playback has no gap."""

from __future__ import annotations

from kokoro_core.chunker import MIN_FIRST_CHUNK_CHARS
from kokoro_server.serving.pace import CHARS_PER_SECOND, PLANNED_RTF, SAFETY, first_chunk


def test_with_nothing_left_to_hear_the_first_chunk_is_the_usual_short_one() -> None:
    assert first_chunk(None, 1.0, "cpu", usual=80, longest=320) == (80, False)
    assert first_chunk(-0.5, 1.0, "cpu", usual=80, longest=320) == (80, False)  # the listener is waiting already


def test_the_first_chunk_holds_what_the_engine_synthesizes_while_the_rest_plays() -> None:
    limit, must_fit = first_chunk(1.0, 1.0, "cpu", usual=80, longest=320)
    assert must_fit and limit == int(1.0 / PLANNED_RTF["cpu"] * CHARS_PER_SECOND * SAFETY)
    faster = first_chunk(1.0, 2.0, "cpu", usual=80, longest=320)[0]
    assert faster == int(2.0 / PLANNED_RTF["cpu"] * CHARS_PER_SECOND * SAFETY)  # faster speech says more a second
    assert first_chunk(0.1, 1.0, "cpu", usual=80, longest=320) == (MIN_FIRST_CHUNK_CHARS, True)
    assert first_chunk(60.0, 1.0, "cpu", usual=80, longest=320) == (320, True)


def test_a_gpu_plans_for_a_far_faster_engine() -> None:
    assert first_chunk(1.0, 1.0, "cuda", usual=80, longest=320)[0] > 4 * first_chunk(1.0, 1.0, "cpu", 80, 320)[0]
