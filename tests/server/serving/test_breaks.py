"""Pauses and marks inside a sentence: placed at their word boundaries in audio spoken in one call, as
pure functions on made audio, and through the real server on the fake engine."""

from __future__ import annotations

import aiohttp
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kokoro_core.model_cache import SAMPLE_RATE
from kokoro_core.ssml import Mark, Pause
from kokoro_server.engine.speech_engine import SILENCE_LEVEL
from kokoro_server.serving.breaks import Inner, by_word, place
from kokoro_server.text.word_sources import WrittenWord
from kokoro_server.text.word_timing import TimedPhoneme, TimedWord
from tests.fake_server import fake_server
from tests.speech import audio_of, connect, run, until

MS = SAMPLE_RATE // 1000


def spoken(word_ms: list[int], gaps_ms: list[int]) -> tuple[np.ndarray, list[TimedWord]]:
    """A tone for each word, the given quiet between them, and the words' times."""
    pieces, words, at = [], [], 0
    for index, length in enumerate(word_ms):
        tone = 0.3 * np.sin(2 * np.pi * 220 * np.arange(length * MS) / SAMPLE_RATE) + 0.05
        pieces.append(tone.astype(np.float32))
        words.append(TimedWord(f"w{index}", at, at + length * MS))
        at += length * MS
        if index < len(gaps_ms):
            pieces.append(np.zeros(gaps_ms[index] * MS, dtype=np.float32))
            at += gaps_ms[index] * MS
    return np.concatenate(pieces), words


def quiet_between(audio: np.ndarray, first: TimedWord, second: TimedWord) -> float:
    """Milliseconds of quiet from the end of ``first``'s sound to the start of ``second``'s."""
    loud = np.flatnonzero(np.abs(audio[first.start : second.end]) > SILENCE_LEVEL) + first.start
    gaps = np.diff(loud)
    return float(gaps.max() - 1) / MS if gaps.size else 0.0


@settings(max_examples=60, deadline=None)
@given(gap_ms=st.integers(0, 400), pause_ms=st.integers(1, 2000))
def test_the_quiet_at_a_break_is_its_length_or_the_voices_own_pause_if_longer(gap_ms: int, pause_ms: int) -> None:
    audio, words = spoken([300, 250, 200], [gap_ms, 120])
    placed = place(audio, words, [Inner(0, (Pause(pause_ms),))], SAMPLE_RATE)
    quiet = quiet_between(placed.audio, placed.words[0], placed.words[1])
    assert abs(quiet - max(pause_ms, gap_ms)) <= 25  # one frame
    change = len(placed.audio) - len(audio)
    assert placed.words[0] == words[0]
    assert [word.start - change for word in placed.words[1:]] == [word.start for word in words[1:]]
    assert abs(quiet_between(placed.audio, placed.words[1], placed.words[2]) - 120) <= 1  # the other is untouched


def test_marks_are_where_the_sound_stops_before_a_break_and_where_it_resumes_after() -> None:
    audio, words = spoken([300, 250, 200], [0, 80])
    inner = [
        Inner(0, (Mark("before"), Pause(300), Mark("between"), Pause(200), Mark("after"))),
        Inner(1, (Mark("plain"),)),
    ]
    placed = place(audio, words, inner, SAMPLE_RATE)
    at = dict((name, sample) for sample, name in placed.marks)
    assert [name for _, name in placed.marks] == ["before", "between", "after", "plain"]
    assert at["before"] == words[0].end
    assert at["between"] == words[0].end + 300 * MS  # where the first break ends
    assert at["after"] == placed.words[1].start == words[0].end + 500 * MS  # where the sound resumes
    assert placed.words[1].end <= at["plain"] <= placed.words[2].start


@settings(max_examples=40, deadline=None)
@given(gaps_ms=st.lists(st.integers(0, 200), min_size=1, max_size=12), pause_ms=st.integers(1, 500))
def test_every_boundary_gets_its_pause_and_words_and_phonemes_keep_their_order(gaps_ms, pause_ms) -> None:
    audio, words = spoken([120] * (len(gaps_ms) + 1), gaps_ms)
    phonemes = [TimedPhoneme("a", word.start, word.end) for word in words]
    inner = [Inner(index, (Pause(pause_ms), Mark(f"m{index}"))) for index in range(len(gaps_ms))]
    placed = place(audio, words, inner, SAMPLE_RATE, phonemes)
    for index, gap in enumerate(gaps_ms):
        quiet = quiet_between(placed.audio, placed.words[index], placed.words[index + 1])
        assert abs(quiet - max(pause_ms, gap)) <= 25
    assert [(sound.start, sound.end) for sound in placed.phonemes] == [(w.start, w.end) for w in placed.words]
    assert all(a.end <= b.start for a, b in zip(placed.words, placed.words[1:], strict=False))
    assert [sample for sample, _ in placed.marks] == [word.start for word in placed.words[1:]]
    assert len(placed.audio) == len(audio) + sum(max(0, pause_ms - gap) * MS for gap in gaps_ms)


def test_each_anchor_follows_the_written_word_before_it() -> None:
    words = [WrittenWord(text, (text,)) for text in ("Your", "code", "is", "four,", "seven.")]
    text = "Your code is four, seven."
    placed = [(0, Mark("first")), (13, Pause(300)), (13, Mark("m")), (19, Pause(100)), (25, Mark("last"))]
    anchors = by_word(placed, text, words)
    assert anchors.leading == (Mark("first"),)
    assert anchors.inner == (Inner(2, (Pause(300), Mark("m"))), Inner(3, (Pause(100),)))
    assert anchors.trailing == (Mark("last"),)
    # Inside a word ("four<break/>," is the word "four,"): after that word.
    assert by_word([(17, Pause(50))], text, words).inner == (Inner(3, (Pause(50),)),)
    # Words written without spaces (as Chinese is cut into words): found by where each starts.
    chinese = [WrittenWord(text, (text,)) for text in ("你好，", "世界。")]
    assert by_word([(2, Mark("m"))], "你好，世界。", chinese).inner == (Inner(0, (Mark("m"),)),)
    assert by_word([(3, Mark("m"))], "你好，世界。", chinese).inner == (Inner(0, (Mark("m"),)),)


def test_a_sentence_with_breaks_and_marks_is_one_model_call_with_its_pauses_and_marks_in_place() -> None:
    document = '<speak>Your code is <break time="300ms"/> four, <mark name="m"/>seven, two.</speak>'

    async def scenario(url: str) -> list:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "u1", "text": document, "marks": True})
            return await until(ws, "done", "u1")

    with fake_server() as (server, engine):
        events = run(scenario(server.ws_url))
        assert engine.calls == ["Your code is four, seven, two."]
    received_ms, reached, words = 0.0, {}, {}
    for event in events:
        if event.audio is not None:
            received_ms += len(event.audio) / 2 / MS
        elif event.type == "bookmark":
            reached[event.message["name"]] = (event.message["at_ms"], received_ms)
        elif event.type == "marks":
            words.update({word["text"].strip(","): word for word in event.message["words"]})
    at_ms, audio_before_ms = reached["m"]
    assert abs(at_ms - audio_before_ms) <= 0.1
    assert words["four"]["end_ms"] <= at_ms <= words["seven"]["start_ms"]
    samples = np.frombuffer(audio_of(events), dtype="<i2").astype(np.float32) / 32768
    quiet = np.flatnonzero(np.abs(samples) > SILENCE_LEVEL)
    longest_ms = (np.diff(quiet).max() - 1) / MS  # the fake tone never falls quiet on its own
    assert abs(longest_ms - 300) <= 25
    assert words["four"]["start_ms"] - words["is"]["end_ms"] >= 300 - 25


def test_after_a_break_a_word_and_its_first_phoneme_start_where_its_sound_resumes() -> None:
    audio, words = spoken([300, 250, 200], [100, 80])
    early = 30 * MS  # the durations put the second word's start in the quiet before its sound
    words[1] = TimedWord(words[1].text, words[1].start - early, words[1].end)
    phonemes = [TimedPhoneme("a", word.start, word.end) for word in words]
    placed = place(audio, words, [Inner(0, (Pause(400),))], SAMPLE_RATE, phonemes)
    resumed = words[1].start + early + 300 * MS  # its sound, after the 300 ms of silence added
    assert placed.words[1].start == placed.phonemes[1].start == resumed
    assert placed.phonemes[0] == phonemes[0] and placed.phonemes[2].start == placed.words[2].start
