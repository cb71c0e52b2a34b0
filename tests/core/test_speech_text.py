"""Text meant for reading, made into sentences meant for hearing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kokoro_core.markdown import spoken_sentence
from kokoro_core.speech_text import MarkupDepth, SpeechText


def spoken(text: str, step: int = 3, early_first_clause: bool = False) -> list[str]:
    speech = SpeechText(early_first_clause=early_first_clause)
    out = []
    for start in range(0, len(text), step):
        out += speech.push(text[start : start + step])
    return out + speech.flush()


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("This is **really** important.", "This is really important."),
        ("An *italic* and __bold__ and _under_ word.", "An italic and bold and under word."),
        ("Run `make test` first.", "Run make test first."),
        ("See [the docs](https://example.com/docs) now.", "See the docs now."),
        ("Go to https://www.example.com/a/b?c=1 today.", "Go to example.com today."),
        ("## Next steps", "Next steps"),
        ("> Quoted advice.", "Quoted advice."),
        ("2 * 3 is 6.", "2 * 3 is 6."),
        ("| Plan | Price |", "Plan, Price"),
    ],
)
def test_markdown_is_read_as_words(written, said):
    assert spoken_sentence(written) == said


def test_bullets_become_sentences_and_code_blocks_are_not_read():
    text = (
        "Here is the fix:\n\n```python\nprint('hello. world')\nx = 1.5\n```\n\n"
        "- Save the file.\n- Restart the app.\n\nThat's it!"
    )
    assert spoken(text) == ["Here is the fix:", "Save the file.", "Restart the app.", "That's it!"]


def test_a_reply_of_only_symbols_says_nothing():
    assert spoken("*** --- ***") == []


def test_the_first_clause_of_a_reply_may_go_out_early():
    text = "Of course, checking the schedule for you now, I found two flights. The first is at noon."
    first = spoken(text, step=2, early_first_clause=True)
    assert first[0] == "Of course, checking the schedule for you now,"
    assert " ".join(first) == text
    assert spoken(text, step=2) == [
        "Of course, checking the schedule for you now, I found two flights.",
        "The first is at noon.",
    ]


def test_the_early_clause_never_cuts_a_number():
    assert spoken("Your balance is $1,284.50 today, as of noon.", step=2, early_first_clause=True)[0] == (
        "Your balance is $1,284.50 today,"
    )


# -- the stream's bookkeeping, and SSML kept whole ---------------------------------------------


SSML_PARTS = st.sampled_from(
    [
        "Hello there. ",
        "It costs $5. ",
        '<break time="200ms"/>',
        '<prosody rate="slow">Slowly. Now. </prosody>',
        '<say-as interpret-as="characters">AB</say-as>. ',
        '<sub alias="World Wide Web">WWW</sub> is big. ',
        "<emphasis>Yes.</emphasis> ",
        'A quote "x > y" inside. ',
    ]
)


def cut_anyhow(text: str, cuts: list[int]) -> list[str]:
    bounds = [0, *sorted({c for c in cuts if 0 < c < len(text)}), len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


@given(parts=st.lists(SSML_PARTS, min_size=1, max_size=12), cuts=st.lists(st.integers(0, 400), max_size=20))
def test_an_ssml_stream_is_released_only_where_no_element_is_open_and_loses_nothing(parts, cuts) -> None:
    text = "".join(parts)
    speech = SpeechText(ssml=True)
    sentences = [s for delta in cut_anyhow(text, cuts) for s in speech.push_sentences(delta)]
    sentences += speech.flush_sentences()
    assert "".join(s.text for s in sentences) == text  # markup kept as written, nothing lost or moved
    for sentence in sentences:
        depth = MarkupDepth()
        depth.feed(sentence.text)
        assert depth.balanced, sentence.text
    assert [s.stream_chars for s in sentences] == sorted(s.stream_chars for s in sentences)
    assert sentences[-1].stream_chars == len(text)


@given(text=st.text(alphabet=st.sampled_from("ab .,!?\n`*#é你。"), max_size=300), cuts=st.lists(st.integers(0, 300)))
def test_stream_chars_say_where_a_stream_resumed_from_a_sentence_goes_on(text, cuts) -> None:
    speech = SpeechText()
    sentences = [s for delta in cut_anyhow(text, cuts) for s in speech.push_sentences(delta)]
    sentences += speech.flush_sentences()
    reached = [s.stream_chars for s in sentences]
    assert reached == sorted(reached) and all(0 < r <= len(text) for r in reached)
