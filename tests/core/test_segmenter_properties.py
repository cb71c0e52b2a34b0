"""Property tests of the one segmenter, as the client uses it on token streams."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kokoro_core.segmenter import sentences_from_stream, split_sentences

WORDS = st.sampled_from(
    [
        "Dr.",
        "Mr.",
        "e.g.",
        "a.m.",
        "p.m.",
        "3.14",
        "$1,284.50",
        "192.168.1.1",
        "example.com/a.b",
        "v1.2.3",
        "the",
        "Paris",
        "it",
        "works",
        "well",
        "OK",
        '"Stop."',
        "wait...",
        "Yes!",
        "Why?",
        "done.",
        "Then",
        "1.",
        "-",
    ]
)
SEPARATORS = st.sampled_from([" ", " ", " ", "\n", "\n\n", "  "])
TEXTS = st.lists(st.tuples(WORDS, SEPARATORS), max_size=40).map(lambda pairs: "".join(w + s for w, s in pairs))
UNBREAKABLE = ["3.14", "$1,284.50", "192.168.1.1", "example.com/a.b", "v1.2.3"]
TITLE = re.compile(r"(?:Dr|Mr|e\.g)\.[ ]+(?=\S)")  # a title then spaces: the next word belongs to it


def cut(text: str, points: list[int]) -> list[str]:
    points = sorted({p % (len(text) + 1) for p in points})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_segments_concatenate_to_the_input(text):
    assert "".join(split_sentences(text)) == text


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.lists(st.integers(min_value=0, max_value=10_000), max_size=30))
def test_a_stream_gives_the_whole_text_result_whatever_the_token_boundaries(text, points):
    assert list(sentences_from_stream(cut(text, points))) == split_sentences(text)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_no_split_inside_a_number_address_url_or_title(text):
    boundaries, position = set(), 0
    for sentence in split_sentences(text)[:-1]:
        position += len(sentence)
        boundaries.add(position)
    for token in UNBREAKABLE:
        for match in re.finditer(re.escape(token), text):
            inside = set(range(match.start() + 1, match.end()))
            assert not inside & boundaries, (token, text)
    for match in TITLE.finditer(text):
        assert not set(range(match.start() + 1, match.end() + 1)) & boundaries, (match.group(), text)


@given(st.text(max_size=200), st.lists(st.integers(min_value=0, max_value=400), max_size=20))
@settings(max_examples=300, deadline=None)
def test_any_unicode_text_survives_streaming_unchanged(text, points):
    assert "".join(sentences_from_stream(cut(text, points))) == text
