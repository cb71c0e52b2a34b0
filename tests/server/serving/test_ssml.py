"""SSML on the real model, through the real server: pauses are exact silence, marks come at their audio
offsets, and say-as and sub are heard as asked by an offline recognizer."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import numpy as np
import pytest

from kokoro_server.engine.speech_engine import SILENCE_LEVEL
from tests.server.serving.test_marks import FRAME_MS, heard_digit
from tests.speech import Event, audio_of, connect, run, until

MS_PER_SAMPLE = 1000 / 24000


def speak(server, text: str, **options) -> list[Event]:
    async def scenario() -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "u1", "text": text, **options})
            return await until(ws, "done", "u1")

    return run(scenario())


def samples(events: list[Event]) -> np.ndarray:
    return np.frombuffer(audio_of(events), dtype="<i2").astype(np.float32) / 32768


def quiet_runs_ms(audio: np.ndarray, longer_than_ms: float) -> list[float]:
    """The silences between sounds (not before the first nor after the last) longer than ``longer_than_ms``."""
    loud = np.flatnonzero(np.abs(audio) > SILENCE_LEVEL)
    gaps = np.diff(loud) - 1
    return [round(gap * MS_PER_SAMPLE, 1) for gap in gaps if gap * MS_PER_SAMPLE > longer_than_ms]


@pytest.mark.parametrize("pause_ms", [700, 1500])
def test_a_break_is_that_much_silence_within_one_frame(server, pause_ms: int) -> None:
    plain = "Please hold while I check. Your confirmation code is ready."
    document = (
        f'<speak>Please hold while I check. <break time="{pause_ms}ms"/> Your confirmation code is ready.</speak>'
    )
    without = quiet_runs_ms(samples(speak(server, plain)), 300)
    assert without == [], f"the text alone already has long silences: {without}"
    gaps = quiet_runs_ms(samples(speak(server, document)), 300)
    assert len(gaps) == 1 and abs(gaps[0] - pause_ms) <= FRAME_MS, gaps


def test_marks_arrive_at_their_audio_offsets_in_order_with_the_word_marks(server) -> None:
    document = (
        '<speak><mark name="greeting"/>Hello there. <mark name="code"/>Your code is 4 7 1.'
        '<break time="500ms"/><mark name="after-pause"/>Goodbye.<mark name="end"/></speak>'
    )
    events = speak(server, document, marks=True)
    received_ms, reached, words = 0.0, [], []
    for event in events:
        if event.audio is not None:
            received_ms += len(event.audio) / 2 * MS_PER_SAMPLE
        elif event.type == "bookmark":
            reached.append((event.message["name"], event.message["at_ms"], received_ms))
        elif event.type == "marks":
            words.extend(event.message["words"])
    assert [name for name, _, _ in reached] == ["greeting", "code", "after-pause", "end"]
    for name, at_ms, audio_before_ms in reached:
        assert abs(at_ms - audio_before_ms) <= FRAME_MS, (name, at_ms, audio_before_ms)
    start_of = {word["text"].strip(".,"): word["start_ms"] for word in words}
    end_of = {word["text"].strip(".,"): word["end_ms"] for word in words}
    at = {name: at_ms for name, at_ms, _ in reached}
    assert at["greeting"] == 0.0 and at["greeting"] <= start_of["Hello"]
    assert end_of["there"] <= at["code"] <= start_of["Your"]
    assert abs(at["after-pause"] - (end_of["1"] + 500)) <= FRAME_MS  # where the sound resumes
    assert at["after-pause"] <= start_of["Goodbye"] + FRAME_MS
    assert at["end"] >= end_of["Goodbye"]
    assert events[-1].message["audio_ms"] >= at["end"] - FRAME_MS


def recognizer_grammar(tmp_path: Path, name: str, alternatives: list[str]) -> Path:
    grammar = tmp_path / f"{name}.gram"
    grammar.write_text(f"#JSGF V1.0;\ngrammar {name};\npublic <{name}> = ( {' | '.join(alternatives)} ) ;\n")
    return grammar


def test_say_as_characters_is_heard_letter_by_letter_and_sub_as_its_alias(server, tmp_path: Path) -> None:
    spelled = samples(speak(server, '<speak><say-as interpret-as="characters">CAB</say-as></speak>'))
    word = samples(speak(server, "<speak>CAB</speak>"))
    grammar = recognizer_grammar(tmp_path, "cab", ["c a b", "cab"])
    assert heard_digit(spelled, grammar) == "c a b"
    assert heard_digit(word, grammar) == "cab"  # the check can fail: the word alone is heard as a word

    events = speak(server, '<speak><sub alias="World Wide Web Consortium">W3C</sub></speak>', marks=True)
    grammar = recognizer_grammar(tmp_path, "w3c", ["world wide web consortium", "w three c", "double you three c"])
    assert heard_digit(samples(events), grammar) == "world wide web consortium"
    words = [word["text"] for event in events if event.type == "marks" for word in event.message["words"]]
    assert words == ["W3C"]  # a word mark names what was written


def test_say_as_digits_and_telephone_are_heard_digit_by_digit(server, tmp_path: Path) -> None:
    grammar = recognizer_grammar(tmp_path, "number", ["four two", "forty two"])
    as_digits = samples(speak(server, '<speak><say-as interpret-as="digits">42</say-as></speak>'))
    as_number = samples(speak(server, '<speak><say-as interpret-as="cardinal">42</say-as></speak>'))
    assert heard_digit(as_digits, grammar) == "four two"
    assert heard_digit(as_number, grammar) == "forty two"


def test_prosody_rate_slows_the_speech_and_phoneme_is_said_as_written(server) -> None:
    text = "Thank you for calling, your request has been received."
    normal = len(samples(speak(server, f"<speak>{text}</speak>")))
    slow = len(samples(speak(server, f'<speak><prosody rate="x-slow">{text}</prosody></speak>')))
    assert slow > 1.3 * normal, (slow, normal)
    events = speak(server, '<speak>I say <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme>.</speak>', marks=True)
    words = [word["text"] for event in events if event.type == "marks" for word in event.message["words"]]
    assert words == ["I", "say", "tomato."]
    assert len(samples(events)) > 0.5 * 24000


def test_an_ssml_utterance_can_be_canceled_and_its_sent_text_is_as_written(server) -> None:
    document = (
        '<speak>Our partner <sub alias="World Wide Web Consortium">W3C</sub> publishes the standard. '
        + "It has many sections, and each of them is long enough to take a while to say. " * 6
        + "</speak>"
    )

    async def scenario() -> dict:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "u1", "text": document, "marks": True})
            await until(ws, "audio")
            await until(ws, "audio")
            await ws.send_json({"type": "cancel", "id": "u1"})
            events = await until(ws, "canceled", "u1")
            return events[-1].message

    canceled = run(scenario())
    assert canceled["sent_text"].startswith("Our partner W3C publishes the standard.")


@pytest.mark.parametrize(
    ("voice", "document", "written"),
    [
        (
            "ef_dora",
            '<speak>Su cita es el <say-as interpret-as="date" format="dmy">5/12/2026</say-as>.'
            '<break time="600ms"/>Gracias.</speak>',
            ["Su", "cita", "es", "el", "5/12/2026.", "Gracias."],
        ),
        (
            "jf_alpha",
            '<speak>番号は<say-as interpret-as="digits">42</say-as>です。<break time="600ms"/>ありがとう。</speak>',
            None,
        ),
    ],
)
def test_ssml_reads_in_other_languages_with_exact_breaks_and_written_words(server, voice, document, written) -> None:
    events = speak(server, document, voice=voice, marks=True)
    gaps = quiet_runs_ms(samples(events), 450)
    assert len(gaps) == 1 and abs(gaps[0] - 600) <= FRAME_MS, gaps
    words = [word["text"] for event in events if event.type == "marks" for word in event.message["words"]]
    if written is not None:
        assert words == written
    else:
        assert "42" in "".join(words) and "Ssml" not in "".join(words)


def test_a_break_inside_a_sentence_is_one_model_call_with_its_silence_and_marks_in_place(server) -> None:
    document = '<speak>Your code is <break time="300ms"/><mark name="digits"/> four, seven, two.</speak>'
    model = server.server.runtime.engine._model
    calls: list[int] = []
    run = model.run

    def counted(inputs, call):
        calls.extend(len(item.tokens) for item in inputs)
        return run(inputs, call)

    model.run = counted
    try:
        events = speak(server, document, marks=True)
    finally:
        del model.run
    assert len(calls) == 1, calls
    marks = [word for event in events if event.type == "marks" for word in event.message["words"]]
    words = {word["text"].strip(".,"): word for word in marks}
    audio = samples(events)
    # The silence at the break: the quiet from the end of "is" to where "four" sounds.
    start, end = round(words["is"]["start_ms"] / MS_PER_SAMPLE), round(words["four"]["end_ms"] / MS_PER_SAMPLE)
    loud = np.flatnonzero(np.abs(audio[start:end]) > SILENCE_LEVEL)
    silence_ms = (np.diff(loud).max() - 1) * MS_PER_SAMPLE
    assert abs(silence_ms - 300) <= FRAME_MS, silence_ms
    (mark,) = [event.message for event in events if event.type == "bookmark"]
    assert mark["name"] == "digits" and abs(mark["at_ms"] - words["four"]["start_ms"]) <= FRAME_MS, (mark, words)


def test_prosody_volume_is_gain_in_db_monotonic_across_named_levels_and_never_clips(server) -> None:
    sentence = "Thanks for calling, your order ships today."

    def rms(volume: str | None) -> tuple[float, float]:
        text = sentence if volume is None else f'<speak><prosody volume="{volume}">{sentence}</prosody></speak>'
        audio = samples(speak(server, text))
        return float(np.sqrt(np.mean(audio**2))), float(np.abs(audio).max())

    plain, _ = rms(None)
    louder, _ = rms("+6dB")
    assert abs(louder / plain - 2.0) <= 0.2, louder / plain
    levels = [rms(name) for name in ("x-soft", "soft", "medium", "loud", "x-loud")]
    assert all(b[0] > a[0] for a, b in zip(levels, levels[1:], strict=False)), levels
    assert max(peak for _, peak in [*levels, rms("+20dB")]) < 0.96  # the limiter's ceiling, under full scale
