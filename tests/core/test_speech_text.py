"""Text meant for reading, made into sentences meant for hearing."""

from __future__ import annotations

import pytest

from kokoro_core.markdown import spoken_sentence
from kokoro_core.speech_text import SpeechText


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
