"""The rules the client and the server share: what of markdown is said (``kokoro_core.markdown``) and
whether a text has anything to say (``kokoro_core.speakable``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kokoro_core.markdown import spoken_from_markdown, spoken_sentence
from kokoro_core.segmenter import join_words
from kokoro_core.speakable import has_speech, language_of
from kokoro_core.speech_text import SpeechText


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("**Bold** and *italic* and __strong__ and _em_.", "Bold and italic and strong and em."),
        ("***Both*** and **bold _and_ italic**.", "Both and bold and italic."),
        ("Call `snake_case_name` or my_var_2 now.", "Call snake_case_name or my_var_2 now."),
        ("2*3*4 is 24 and 5 * 3 is 15.", "2*3*4 is 24 and 5 * 3 is 15."),
        ("See [the docs](https://example.com/a_b) or https://www.example.com/x?y=1.", "See the docs or example.com."),
        ('(*aside*) and "*quoted*".', '(aside) and "quoted".'),
        (
            "Only *3 days* left, *10 items* in stock, *2023 was great*.",
            "Only 3 days left, 10 items in stock, 2023 was great.",
        ),
        ("Dial *67 first, or *#06# and *then* go.", "Dial *67 first, or *#06# and then go."),  # a keypad's star stays
    ],
)
def test_emphasis_marks_are_dropped_and_other_stars_and_underscores_stay(written: str, said: str) -> None:
    assert spoken_sentence(written) == said


def test_a_whole_text_keeps_its_lines_and_drops_its_code_blocks_closed_or_not() -> None:
    text = (
        "# Steps\n\n1. Save **the file**.\n- Restart.\n> Tip: *wait*.\n\n```bash\nrm -rf /\n```\nDone.\n~~~\nleft open"
    )
    assert spoken_from_markdown(text) == "Steps\n\n1. Save the file.\nRestart.\nTip: wait.\n\n\nDone."


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("**>99%** of calls pass.", ">99% of calls pass."),
        (">50 ms is too slow.", ">50 ms is too slow."),
        (">=3 seats left.", ">=3 seats left."),
        ("> Tip: *wait*.", "Tip: wait."),
        (">Tip: wait.", "Tip: wait."),
        ("- > 50 ms latency", "> 50 ms latency"),
        ("- + 5 points", "+ 5 points"),
        ("| > 200 ms | slow |", "> 200 ms, slow"),
        ("- | a | b |", "a, b"),
        ("Run `pip\ninstall` now.", "Run pip install now."),  # inline code wraps as its sentence does
    ],
)
def test_a_mark_before_a_number_stays_and_a_reading_reads_the_same_again(written: str, said: str) -> None:
    """The client reads a sentence's markdown and the server reads what it sends again: a comparison that emphasis
    wrapped must not become a quote's mark the second time."""
    assert spoken_sentence(written) == said
    assert spoken_from_markdown(said) == said


# Pieces of what an agent writes: words, amounts, comparisons, codes, links and URLs, each maybe emphasized,
# on lines that may open with a bullet, a number, a heading or a quote.
_PIECES = ["refund", "the", "order", "42", "$42.97", ">99%", "<5 ms", "#1", "3-5", "snake_case", "2*3", "*67",
           "`pip install x`", "[the docs](https://example.com/a)", "https://example.com/x", "e.g.", "v2.4", "|", "->",
           "=>", "<3", "#launch", "@support", "C#", "x^2", "5 * 3", "www.example.com", ">", "#", "-"]  # fmt: skip
_PIECE = st.sampled_from(_PIECES)
_EMPHASIZED = st.tuples(st.sampled_from(["*", "**", "_", "__", "***"]), st.lists(_PIECE, min_size=1, max_size=3)).map(
    lambda marked: marked[0] + " ".join(marked[1]) + marked[0]
)
_LINE = st.tuples(
    st.sampled_from(["", "- ", "* ", "1. ", "## ", "> ", "| "]),
    st.lists(st.one_of(_PIECE, _EMPHASIZED), min_size=1, max_size=8).map(" ".join),
    st.sampled_from([".", "!", "?", ":", ""]),
).map("".join)


@given(st.lists(_LINE, min_size=1, max_size=5).map("\n".join))
def test_a_sentence_read_once_reads_the_same_again(reply: str) -> None:
    """The client reads each sentence's markdown and the server reads what it is sent: the second reading of what
    an agent writes changes nothing, so both routes say the same."""
    cutter = SpeechText(language="en-us")
    for sentence in cutter.push(reply) + cutter.flush():
        assert spoken_from_markdown(sentence) == sentence


def test_a_table_reads_as_its_cells() -> None:
    assert spoken_from_markdown("| Plan | Price |\n| :--- | ---: |\n| Basic | $10 |") == "Plan, Price\n\nBasic, $10"


@pytest.mark.parametrize(
    ("hostile", "said"),
    [
        ("x *y " * 4000, ("x y " * 4000).strip()),  # openers that never close
        ("[" * 20_000 + "]", "[" * 20_000 + "]"),  # a link that never ends
        ("`" * 20_001, ""),  # a line of backticks opens a code block
        ("x `y" * 5_000, "x y" * 5_000),  # inline code, over and over
        ("```\n" + "a\n" * 10_000, ""),  # a code block that never closes
        ("_a" * 10_000, "a" + "_a" * 9_999),  # underscores inside words
        (" " * 19_999 + "x", "x"),  # a run of spaces that no pipe or rule ends
        ("a" + " " * 19_998 + "b", "a b"),
        (" " * 9_999 + "|" + " " * 9_999 + "x", "x"),  # a pipe amid spaces
        ("- > " * 5_000, ""),  # nested line marks
    ],
)
def test_hostile_markdown_is_read_in_one_pass(hostile: str, said: str) -> None:
    assert spoken_from_markdown(hostile) == said


@given(st.text(alphabet=st.sampled_from("ab *_|>#-\n1.:"), max_size=80))
def test_reading_markdown_drops_marks_never_words(text: str) -> None:
    """Without code, links or URLs, the letters and digits said are exactly those written."""
    said = spoken_from_markdown(text)
    assert [c for c in said if c.isalnum()] == [c for c in text if c.isalnum()]
    assert has_speech(said) == has_speech(text)


@pytest.mark.parametrize(
    ("text", "voice", "has"),
    [
        ("Hello", "af_heart", True),
        ("🎉 *** --- ***", "af_heart", False),
        ("你好", "af_heart", True),  # an English voice has the Chinese reader read a Chinese name
        ("안녕", "af_heart", False),  # but skips a script no reader here reads
        ("你好", "zf_xiaobei", True),
        ("第3", "af_heart", True),  # but says their digits
        ("", "af_heart", False),
        ("snake_case", "af_heart", True),
    ],
)
def test_has_speech_is_the_voices_rule(text: str, voice: str, has: bool) -> None:
    assert has_speech(text, language_of(voice)) is has


def test_with_no_voice_known_any_letter_counts() -> None:
    assert has_speech("你好") and not has_speech("🎉 --- !")
    assert language_of("zf_xiaobei") == "cmn" and language_of("unknown") == "en-us"


@pytest.mark.parametrize(
    ("words", "text"),
    [
        (["Your", "refund", "is", "here."], "Your refund is here."),
        (["您好，", "感谢您", "联系", "我们。"], "您好，感谢您联系我们。"),
        (["我用", "iPhone", "打电话，"], "我用iPhone打电话，"),
        (["ご", "注文", "の", "品物"], "ご注文の品物"),
    ],
)
def test_heard_words_join_as_their_script_writes_them(words: list[str], text: str) -> None:
    assert join_words(words) == text
