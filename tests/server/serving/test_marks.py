"""Word marks on the real model, through the real server: they cut the audio where an offline recognizer
hears each word, and they stay true across chunk joins, speeds and resampling."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import numpy as np
import pytest
import soxr
from pocketsphinx import Decoder

from kokoro_bench.corpus import AGENT_REPLIES
from tests.speech import Event, audio_of, connect, run, until

DIGIT_NAMES = "zero one two three four five six seven eight nine".split()
DIGITS = "Your code is 4 7 1 9 0 2 8 3, and the PIN is 6 5 1 4."
FRAME_MS = 25.0  # one duration frame: 600 samples at 24 kHz
REPLY = (
    "Sure, I can help with that. Your order 58-1193 qualifies for a full refund because it arrived on "
    "March 3rd, more than five days late. I've started the refund now: you should see $42.97 back on "
    "your card within 3 to 5 business days, depending on your bank. Is there anything else I can do for you today?"
)


def speak_with_marks(server, text: str, **options) -> tuple[list[Event], list[dict], float]:
    """The events of one utterance with marks on, its words, and its audio's length in ms."""

    async def scenario() -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "u1", "text": text, "marks": True, **options})
            return await until(ws, "done", "u1")

    events = run(scenario())
    words = [word for event in events if event.type == "marks" for word in event.message["words"]]
    return events, words, events[-1].message["audio_ms"]


def heard_digit(audio: np.ndarray, grammar: Path) -> str:
    """What the recognizer, allowed to hear exactly one digit name, hears in ``audio`` (24 kHz float)."""
    pcm = (np.clip(soxr.resample(audio, 24000, 16000), -1, 1) * 32767).astype(np.int16)
    silence = np.zeros(4800, dtype=np.int16)  # 0.3 s either side, as a clip of a recording would have
    decoder = Decoder(samprate=16000, jsgf=str(grammar), bestpath=False, loglevel="FATAL")
    decoder.start_utt()
    decoder.process_raw(np.concatenate([silence, pcm, silence]).tobytes(), full_utt=True)
    decoder.end_utt()
    hypothesis = decoder.hyp()
    return hypothesis.hypstr if hypothesis is not None else ""


@pytest.mark.parametrize("voice", ["af_heart", "am_michael"])
def test_cutting_the_audio_at_the_marks_gives_each_spoken_digit(server, voice: str, tmp_path: Path) -> None:
    grammar = tmp_path / "digit.gram"
    grammar.write_text(f"#JSGF V1.0;\ngrammar digit;\npublic <digit> = ( {' | '.join(DIGIT_NAMES)} ) ;\n")
    events, words, _ = speak_with_marks(server, DIGITS, voice=voice)
    audio = np.frombuffer(audio_of(events), dtype="<i2").astype(np.float32) / 32768
    numbers = [(word, word["text"].strip(".,")) for word in words]
    digits = [(word, DIGIT_NAMES[int(number)]) for word, number in numbers if number.isdigit()]
    assert len(digits) == 12

    def clip(word: dict) -> np.ndarray:
        return audio[round(word["start_ms"] * 24) : round(word["end_ms"] * 24)]

    heard = [heard_digit(clip(word), grammar) for word, _ in digits]
    right = sum(said == name for said, (_, name) in zip(heard, digits, strict=True))
    assert right >= 0.9 * len(digits), list(zip(heard, [name for _, name in digits], strict=True))
    # The check can fail: each digit's clip taken from the next digit's marks is mostly heard wrong.
    shifted = [heard_digit(clip(next_word), grammar) for (next_word, _) in digits[1:]]
    assert sum(said == name for said, (_, name) in zip(shifted, digits, strict=False)) <= 0.5 * len(digits)


def test_marks_are_ordered_cover_each_chunk_and_map_back_to_the_text(server) -> None:
    events, words, audio_ms = speak_with_marks(server, REPLY)
    assert " ".join(word["text"] for word in words) == REPLY
    assert all(0 <= w["start_ms"] <= w["end_ms"] for w in words)
    assert all(a["end_ms"] <= b["start_ms"] for a, b in zip(words, words[1:], strict=False))
    # Each marks message comes just before its chunk's audio, and its words lie in that audio.
    played, chunks = 0.0, 0
    for before, event in zip(events, events[1:], strict=False):
        if before.type == "marks":
            assert event.type == "audio"
            chunk_ms = len(event.audio) / 48
            chunk_words = before.message["words"]
            assert chunk_words[0]["start_ms"] >= played - FRAME_MS
            assert chunk_words[-1]["end_ms"] <= played + chunk_ms + FRAME_MS
            chunks += 1
        if event.type == "audio":
            played += len(event.audio) / 48
    assert chunks >= 3  # the reply was spoken in several chunks, joined
    assert words[-1]["end_ms"] <= audio_ms + FRAME_MS
    assert words[-1]["end_ms"] >= audio_ms - 300  # only the kept trailing silence after the last word
    # Normalized words span everything said for them: the amount is "forty-two dollars and ninety-seven cents".
    by_text = {word["text"]: word["end_ms"] - word["start_ms"] for word in words}
    assert by_text["$42.97"] > 1500 and by_text["$42.97"] > 4 * by_text["card"]
    assert by_text["58-1193"] > by_text["order"] and by_text["3rd,"] > 200


def test_marks_follow_speed_and_survive_resampling(server) -> None:
    text = json.loads(AGENT_REPLIES.read_text().splitlines()[1])["text"].split("\n\n")[1]  # times, an amount
    _, normal, normal_ms = speak_with_marks(server, text)
    _, resampled, resampled_ms = speak_with_marks(server, text, sample_rate=16000)
    _, faster, faster_ms = speak_with_marks(server, text, speed=1.5)
    assert [w["text"] for w in normal] == [w["text"] for w in resampled] == [w["text"] for w in faster]
    # At 16 kHz the words are heard at the same times, within a frame.
    assert abs(resampled_ms - normal_ms) <= FRAME_MS
    assert all(abs(a["start_ms"] - b["start_ms"]) <= FRAME_MS for a, b in zip(normal, resampled, strict=True))
    # At speed 1.5 everything comes sooner, in proportion.
    assert faster_ms < 0.8 * normal_ms
    assert faster[-1]["end_ms"] == pytest.approx(normal[-1]["end_ms"] / 1.5, rel=0.15)
    assert faster[-1]["end_ms"] <= faster_ms + FRAME_MS
