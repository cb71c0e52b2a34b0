"""Sizing a session's next first chunk from the listener's audio ahead and the engine's pace."""

from __future__ import annotations

import pytest

from kokoro_server.chunker import MIN_FIRST_CHUNK_CHARS
from kokoro_server.pace import CHARS_PER_SECOND, SAFETY, Pace, Playback


def test_the_pace_follows_the_measured_real_time_factor() -> None:
    pace = Pace()
    assert pace.rtf == 1.0  # until measured: real time
    for _ in range(40):
        pace.record(synth_seconds=0.6, audio_seconds=2.0)
    assert pace.rtf == pytest.approx(0.3, abs=1e-3)
    pace.record(synth_seconds=5.0, audio_seconds=0.1)  # too short to say anything about the pace
    assert pace.rtf == pytest.approx(0.3, abs=1e-3)


def test_with_nothing_ahead_the_first_chunk_is_the_usual_short_one() -> None:
    assert Pace(rtf=0.3).first_chunk(0.0, 1.0, usual=80, longest=320) == (80, False)


def test_with_audio_ahead_the_first_chunk_holds_what_the_engine_can_finish_in_that_time() -> None:
    pace = Pace(rtf=0.5)
    limit, must_fit = pace.first_chunk(1.0, 1.0, usual=80, longest=320)
    assert must_fit and limit == int(1.0 / 0.5 * CHARS_PER_SECOND * SAFETY)
    assert pace.first_chunk(1.0, 2.0, usual=80, longest=320)[0] == int(
        2 * CHARS_PER_SECOND * SAFETY * 2
    )  # faster speech
    assert pace.first_chunk(60.0, 1.0, usual=80, longest=320) == (320, True)
    assert pace.first_chunk(0.01, 1.0, usual=80, longest=320) == (MIN_FIRST_CHUNK_CHARS, True)


def test_playback_counts_the_audio_the_listener_has_still_to_hear() -> None:
    playback = Playback()
    assert playback.ahead() == 0.0
    playback.sent(10.0)
    playback.sent(5.0)
    assert 14.0 < playback.ahead() <= 15.0
