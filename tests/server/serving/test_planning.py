"""Text planning: linear in the text however it is crafted, reading it about once, canceled with its
utterance, and never on the event loop.

Work is counted in characters read, not timed, so these hold on any machine; the times themselves are
the planning bench's (``kokoro_bench.planning``).
"""

from __future__ import annotations

import random
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
from kokoro_server.text.reading import ENGLISH, SaidPart, VoiceReading
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


TEXT = " ".join(f"On Sat. the order {i} ships to Main St. for $9,730.12, as planned." for i in range(30))


class CountingVoice(VoiceReading):
    """The voice's reading, counting the characters it reads whole (``parts``) and reads again around a cut."""

    read = 0
    around_cuts = 0

    def parts(self, text: str) -> list[SaidPart]:
        CountingVoice.read += len(text)
        return super().parts(text)

    def cuts_cleanly(self, before: str, after: str) -> bool:
        CountingVoice.around_cuts += len(before) + len(after)
        return super().cuts_cleanly(before, after)


def planned(text: str, reading: VoiceReading) -> list[str]:
    plan = ChunkPlan(text, reading, (80, False), 320, Interruption())
    chunks = []
    while (chunk := plan.take()) is not None:
        chunks.append(chunk)
    return chunks


def _short_sentences(size: int) -> str:
    """Distinct sentences of a word or two ("Xyz! 57!"), many to a chunk: a plan packs them, never rereads them."""
    rng = random.Random(7)
    sentences: list[str] = []
    while sum(map(len, sentences)) < size:
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 6))).capitalize()
        sentences.append(rng.choice([f"{word}! ", f"{rng.randint(1, 99)}! ", f"{word} {rng.randint(1, 999)}. "]))
    return "".join(sentences)[:size]


@pytest.mark.parametrize("family", [*FAMILIES, "short_sentences"])
def test_a_plan_reads_its_text_about_once(family: str) -> None:
    """Each sentence is read once: sizes and clean cuts come from those readings, a chunk packed across
    sentences is sized from what it joins, and only the words around a cut next to a span read whole are read
    again."""
    voice, make = FAMILIES.get(family, ("af_heart", _short_sentences))
    text = make(20_000)
    CountingVoice.read = CountingVoice.around_cuts = 0
    chunks = planned(text, CountingVoice(language_of(voice)))
    assert "".join("".join(chunks).split()) == "".join(text.split())  # every character planned, in order
    assert CountingVoice.read <= 4 * len(text), f"{family}: read {CountingVoice.read / len(text):.1f} times"
    # Text where no cut in reach reads cleanly ("on Sat. on Sat. …") reads the most around its cuts: about 6.
    assert CountingVoice.around_cuts <= 8 * len(text), f"{family}: {CountingVoice.around_cuts / len(text):.1f}"


def test_a_plan_fits_its_chunks_to_what_the_voice_says() -> None:
    chunks = planned(TEXT, ENGLISH)
    assert " ".join(chunks).split() == TEXT.split()  # nothing lost
    assert all(ENGLISH.size(chunk) <= 320 for chunk in chunks)  # sized as said, not as written
    assert ENGLISH.size(chunks[0]) <= 100  # the first audio comes from a short chunk
    # no cut changes what is said: each chunk, said alone, says what it says in the text
    assert all(ENGLISH.cuts_cleanly(before, after) for before, after in zip(chunks, chunks[1:], strict=False))


def test_planning_stops_when_its_utterance_is_canceled() -> None:
    interruption = Interruption()
    plan = ChunkPlan(TEXT, ENGLISH, (80, False), 320, interruption)
    assert plan.take()
    interruption.interrupt()
    with pytest.raises(Interrupted):
        plan.take()


def test_text_is_read_on_engine_workers_never_on_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: set[str] = set()
    parts = server_text.VoiceReading.parts

    def recording_parts(self: VoiceReading, text: str) -> list[SaidPart]:
        threads.add(threading.current_thread().name)
        return parts(self, text)

    monkeypatch.setattr(server_text.VoiceReading, "parts", recording_parts)

    async def post(url: str) -> int:
        async with aiohttp.ClientSession() as http, http.post(f"{url}/invocations", json={"text": TEXT}) as response:
            await response.read()
            return response.status

    with fake_server() as (server, _):
        assert run(post(server.url)) == 200
        loop_thread = server._thread.name
    assert threads and loop_thread not in threads, threads
