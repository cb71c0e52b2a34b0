"""The harder kinds, heard: the real model says a sentence of each kind, and an offline recognizer, offered
the reading a listener expects and the readings a voice without the normalizer would give, hears the
expected one. The check can fail: the same sentences synthesized without normalization are mostly heard
otherwise."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kokoro_server.text.reading import VoiceReading
from tests.server.serving.test_marks import heard_digit as heard  # the recognizer on one grammar, any words

# written, what a listener expects to hear, what else the recognizer may choose
SENTENCES = [
    ("It's 2x faster.", "it's two times faster", ["it's two faster", "it's twenty faster", "it's two x faster"]),
    ("It costs ~$30.", "it costs about thirty dollars", ["it costs thirty dollars", "it costs a thirty dollars"]),
    ("Call ext. 204.", "call extension two zero four", ["call two hundred four", "call extension two hundred four"]),
    ("Henry VIII was king.", "henry the eighth was king", ["henry v i i i was king", "henry eight was king"]),
    ("Boarding at gate B12.", "boarding at gate b twelve", ["boarding at gate b one two", "boarding at gate twelve"]),
    ("Use 5 kWh a day.", "use five kilowatt hours a day", ["use five k w h a day", "use five a day"]),
    ("He works in R&D.", "he works in r and d", ["he works in r d", "he works in red"]),
    ("We have 10k users.", "we have ten thousand users", ["we have ten k users", "we have ten users"]),
    ("Take it 3x a day.", "take it three times a day", ["take it three a day", "take it three x a day"]),
    ("Go to Suite 200.", "go to suite two hundred", ["go to suite two zero zero", "go to suite"]),
]


def _grammar(path: Path, expected: str, others: list[str]) -> Path:
    path.write_text(f"#JSGF V1.0;\ngrammar said;\npublic <said> = ( {' | '.join([expected, *others])} ) ;\n")
    return path


def _heard(engine, text: str, grammar: Path, normalized: bool) -> str:
    audio = engine.synthesize(text, "af_heart", reading=VoiceReading.of("af_heart", normalized)).audio
    return heard(np.asarray(audio, dtype=np.float32), grammar)


def test_the_recognizer_hears_each_kind_as_a_listener_expects(engine, tmp_path: Path) -> None:
    normalized, raw = [], []
    for index, (text, expected, others) in enumerate(SENTENCES):
        grammar = _grammar(tmp_path / f"said{index}.gram", expected, others)
        normalized.append((text, _heard(engine, text, grammar, True), expected))
        raw.append((text, _heard(engine, text, grammar, False), expected))
    right = [said == expected for _, said, expected in normalized]
    assert sum(right) >= 0.8 * len(SENTENCES), normalized
    # Without the normalizer the same audio is mostly heard otherwise: the grammar does not decide alone.
    assert sum(said == expected for _, said, expected in raw) <= 0.5 * len(SENTENCES), raw
