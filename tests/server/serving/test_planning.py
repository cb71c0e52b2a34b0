"""Text planning: linear in the text however it is crafted, within a time budget, canceled with its
utterance, and never on the event loop.

Work is counted in characters read, not timed, so these hold on any machine; the times themselves are
the planning bench's (``kokoro_bench.planning``).
"""

from __future__ import annotations

import threading

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kokoro_bench.planning import FAMILIES, PIECES
from kokoro_core.chunker import chunk_text, iter_chunks
from kokoro_core.speakable import language_of
from kokoro_server.engine.speech_engine import Interrupted, Interruption
from kokoro_server.serving.planning import ChunkPlan
from kokoro_server.text import reading as server_text
from kokoro_server.text.reading import ENGLISH, VoiceReading
from tests.fake_server import fake_server
from tests.speech import run

# Characters a plan may read per character of its text: each is read by a few sizes and clean-cut checks
# (text where no cut reads cleanly, "on Sat. on Sat. …", reads the most: about 50).
MOST_READ_PER_CHAR = 64


class CountingReading:
    """A reading that counts the characters it is asked to read."""

    def __init__(self, reading: VoiceReading) -> None:
        self.reading, self.chars = reading, 0

    def size(self, text: str) -> int:
        self.chars += len(text)
        return self.reading.size(text)

    def cuts_cleanly(self, before: str, after: str) -> bool:
        self.chars += len(before) + len(after)
        return self.reading.cuts_cleanly(before, after)


def read_per_char(text: str, voice: str) -> float:
    counting = CountingReading(VoiceReading(language_of(voice)))
    chunks = list(iter_chunks(text, reading=counting))
    assert "".join("".join(chunks).split()) == "".join(text.split())  # every character planned, in order
    return counting.chars / len(text)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_planning_reads_each_character_a_bounded_number_of_times_at_any_length(family: str) -> None:
    voice, make = FAMILIES[family]
    short, long = read_per_char(make(2_000), voice), read_per_char(make(20_000), voice)
    assert long <= MOST_READ_PER_CHAR, f"{family}: {long:.1f} characters read per character"
    assert long <= 1.25 * short + 1, f"{family}: {short:.1f} per character at 2k, {long:.1f} at 20k"


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_family_is_cut_into_chunks_that_fit_and_never_inside_a_word(family: str) -> None:
    voice, make = FAMILIES[family]
    reading, text = VoiceReading(language_of(voice)), make(5_000)
    chunks = chunk_text(text, 80, 320, False, reading)
    assert len(chunks) >= 5 and all(reading.size(chunk) <= 320 for chunk in chunks), family
    assert reading.size(chunks[0]) <= 100  # the first audio comes from a short chunk
    if " " in text and family != "hypothesis":  # text with spaces (and no Chinese) is cut between words
        assert {word for chunk in chunks for word in chunk.split()} <= set(text.split()), family


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=600))
def test_any_text_of_crafted_pieces_is_planned_in_linear_work(pieces: list[str]) -> None:
    text = "".join(pieces)
    if text.strip():
        assert read_per_char(text, "af_heart") <= MOST_READ_PER_CHAR


class StepClock:
    """A clock that advances one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


TEXT = " ".join(f"On Sat. the order {i} ships to Main St. for $9,730.12, as planned." for i in range(30))


def test_once_its_budget_is_spent_the_rest_is_planned_as_written() -> None:
    plan = ChunkPlan(TEXT, ENGLISH, (80, False), 320, 2.5, Interruption(), clock=StepClock())
    chunks = []
    while (chunk := plan.take()) is not None:
        chunks.append(chunk)
    assert plan.as_written and plan.planning_seconds > 2.5
    assert " ".join(chunks).split() == TEXT.split()  # nothing lost: only where it is cut changed
    # Sized as written, a chunk of amounts says more than a chunk may: the voice's plan never does that.
    assert all(len(chunk) <= 320 for chunk in chunks)
    assert any(ENGLISH.size(chunk) > 320 for chunk in chunks)


def test_a_plan_with_time_left_reads_as_the_voice_does() -> None:
    plan = ChunkPlan(TEXT, ENGLISH, (80, False), 320, 60.0, Interruption())
    chunks = []
    while (chunk := plan.take()) is not None:
        chunks.append(chunk)
    assert not plan.as_written and chunks == chunk_text(TEXT, 80, 320, False, ENGLISH)
    assert all(ENGLISH.size(chunk) <= 320 for chunk in chunks)


def test_planning_stops_when_its_utterance_is_canceled() -> None:
    interruption = Interruption()
    plan = ChunkPlan(TEXT, ENGLISH, (80, False), 320, 60.0, interruption)
    assert plan.take()
    interruption.interrupt()
    with pytest.raises(Interrupted):
        plan.take()


def test_text_is_read_on_engine_workers_never_on_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: set[str] = set()
    size = server_text.VoiceReading.size

    def recording_size(self: VoiceReading, text: str) -> int:
        threads.add(threading.current_thread().name)
        return size(self, text)

    monkeypatch.setattr(server_text.VoiceReading, "size", recording_size)

    async def post(url: str) -> int:
        async with aiohttp.ClientSession() as http, http.post(f"{url}/invocations", json={"text": TEXT}) as response:
            await response.read()
            return response.status

    with fake_server() as (server, _):
        assert run(post(server.url)) == 200
        loop_thread = server._thread.name
    assert threads and loop_thread not in threads, threads
