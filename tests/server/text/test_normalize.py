"""What the server says for amounts, dates, times, phone numbers, codes, units and abbreviations.

The table (normalize_cases.tsv) holds each written form with its accepted spoken form; the property
tests check what must hold for any text: no crash, nothing written in plain words is dropped, and
normalizing twice changes nothing.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kokoro_server.text.normalize import normalize
from kokoro_server.text.words_english import ABBREVIATIONS, BARE_TITLES

CASES_FILE = Path(__file__).with_name("normalize_cases.tsv")
CLI = str(Path(sys.executable).with_name("kokoro-stream"))  # the command a user runs
LANGUAGES = {"a": "en-us", "b": "en-gb"}


def _cases() -> list[tuple[str, str, str, str]]:
    rows = []
    for line in CASES_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            category, voice, written, spoken = line.split("\t")
            rows.append((category, voice, written, spoken))
    return rows


CASES = _cases()


def test_the_table_covers_every_category_with_enough_cases() -> None:
    categories = Counter(category for category, *_ in CASES)
    assert len(CASES) >= 150
    assert set(categories) >= {
        "money",
        "date",
        "time",
        "phone",
        "code",
        "percent",
        "number",
        "range",
        "unit",
        "abbr",
        "web",
    }
    assert min(categories[c] for c in ("money", "date", "time", "phone", "code", "unit")) >= 10


@pytest.mark.parametrize(("category", "voice", "written", "spoken"), CASES, ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_written_forms_are_said_as_people_say_them(category: str, voice: str, written: str, spoken: str) -> None:
    assert normalize(written, LANGUAGES[voice]) == spoken


def test_the_cli_prints_one_line_per_input_line_exactly_as_the_server_says_it() -> None:
    american = [(written, spoken) for _, voice, written, spoken in CASES if voice == "a"]
    lines = [written for written, _ in american] + ["", "plain words stay"]
    result = subprocess.run(
        [CLI, "normalize", "-"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines() == [spoken for _, spoken in american] + ["", "plain words stay"]


def test_the_cli_prints_the_phonemes_the_voice_will_say() -> None:
    result = subprocess.run(
        [CLI, "normalize", "It's $5.", "--phonemes"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "dˈɑːlɚz" in result.stdout  # "dollars", not "dollar five"
    assert not re.search(r"\d", result.stdout)


def test_british_voices_say_dates_day_first_and_hundreds_with_and() -> None:
    assert normalize("On 03/04/2026 we paid £105.", "en-gb") == (
        "On the third of April, twenty twenty-six we paid one hundred and five pounds."
    )
    assert normalize("On 03/04/2026 we paid $105.", "en-us") == (
        "On March fourth, twenty twenty-six we paid one hundred five dollars."
    )


def test_other_languages_have_their_own_rules_or_pass_through() -> None:
    # Spanish, French, Italian and Portuguese numbers: test_normalize_romance.py; the rest pass through.
    assert normalize("Son las 3:30, cuesta 5 €.", "es") == "Son las tres y treinta, cuesta cinco euros."
    assert normalize("मेरा नंबर 42 है।", "hi") == "मेरा नंबर 42 है।"
    assert normalize("価格は3万円です。", "ja") == "価格は3万円です。"  # its reader says its numbers
    assert normalize("割引は50%です。", "ja") == "割引は50パーセントです。"  # but not "%": normalize_signs


_PLAIN_WORDS = st.lists(
    st.sampled_from("the order ships today and your call is at noon please wait".split()), max_size=8
)
_PIECES = st.one_of(
    st.from_regex(r"\$[0-9]{1,7}(\.[0-9]{2})?", fullmatch=True),
    st.from_regex(r"[0-9]{1,2}:[0-5][0-9] ?(am|pm|a\.m\.|p\.m\.)?", fullmatch=True),
    st.from_regex(r"(1[0-2]|[1-9])/([12][0-9]|[1-9])/20[0-9]{2}", fullmatch=True),
    st.from_regex(r"\(?[2-9][0-9]{2}\)? ?[0-9]{3}-[0-9]{4}", fullmatch=True),
    st.from_regex(r"[0-9]{1,3}(,[0-9]{3})*(\.[0-9]{1,3})?%?", fullmatch=True),
    st.from_regex(r"order [0-9]{2}-[0-9]{4}", fullmatch=True),
    st.sampled_from(["Dr.", "St.", "etc.", "e.g.", "&", "support@example.com", "example.com/help", "21st", "10 mg"]),
    st.sampled_from(
        "2x|10k|3.5M users|$2.5B|~$30|≈|<5|65-70°F|9am-5pm|10–20%|C++|R&D|AT&T|@handle|#general|5+|+5%|Q3 2025|FY2026"
        "|in H1|Henry VIII|World War II|Chapter IV|Rocky III|123 Main St.|450 N. State St.|Apt 4B|Suite 200|IL 62704"
        "|ext. 204|at x204|PIN 0420|code 583 201|room 1204|gate B12|1920x1080|3.2 GHz|100 MB/s|25 m".split("|")
    ),
    st.text(max_size=12),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PIECES, _PLAIN_WORDS.map(" ".join)), max_size=8).map(" ".join))
def test_any_text_normalizes_without_error_and_twice_is_the_same_as_once(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@settings(max_examples=200, deadline=None)
@given(_PLAIN_WORDS.map(" ".join), _PIECES, _PLAIN_WORDS.map(" ".join))
def test_plain_words_around_a_rewritten_piece_are_never_dropped(before: str, piece: str, after: str) -> None:
    said = normalize(f"{before} {piece} {after}")
    assert said.startswith(before) and said.endswith(after)


_DOTLESS_ABBREVIATIONS = frozenset(key for key in ABBREVIATIONS if "." not in key) | frozenset(BARE_TITLES)


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.characters(
            exclude_categories=("Nd", "No", "Nl"), exclude_characters="$€£¥₩§%&#@°/.:+~≈<>≤≥±=×÷‰©→_"
        ),
        max_size=80,
    ).filter(
        # the abbreviations written without a dot ("vs", "qty", "int'l", "π") are read wherever they stand
        lambda text: not any(word in _DOTLESS_ABBREVIATIONS for word in re.findall(r"[\w'’]+", text))
    )  # "_" too: "max_retries" is said with its underscore, as a name from code is typed
)
def test_text_without_digits_or_symbols_is_untouched(text: str) -> None:
    assert normalize(text) == text


def test_hostile_texts_pass_through_or_are_read_digit_by_digit_without_error() -> None:
    assert normalize("a" * 20_000) == "a" * 20_000  # one long word: every rule starts only where a word starts
    assert normalize("9" * 5_000) == " ".join(["nine"] * 5_000)  # past num2words' range: digit by digit
    assert normalize("1" * 16) == " ".join(["one"] * 16)
    assert normalize("1" * 15).startswith("one hundred eleven trillion")
    assert normalize("a." * 5_000) == "a." * 5_000
