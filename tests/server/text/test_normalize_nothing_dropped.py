"""Nothing written is silently dropped: every digit, letter and sign of a text is said, kept as written, or
dropped by a named rule (punctuation, which is a pause; markup and emoji, which say nothing). Checked on
generated texts in every spelled language (hypothesis), by what is said, not how:

- a digit changed to another digit of its kind ("3" to "7", "⁸" to "⁵") changes the words said;
- a letter changed to another letter changes the words said;
- a sign taken away ("*", "#", "×", "^", "%", "°", "~"…) changes the words said.

Words are compared without punctuation or case: a sign that only moves a pause, or is left as a glyph that no
reader says ("*sixty-seven"), counts as dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kokoro_server.text.reading import said_text

from .test_normalize_invariants import SPELLED

# Signs that mean something where they are written. Punctuation (.,;:!?'"()[]-–—…/\) is a pause and is left
# out by name, as are markup and emoji, which say nothing.
SIGNS = "$€£¥₹¢%‰#*+=×÷±°^@&~≈≤≥<>√§"
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_WORD = re.compile(r"[^\W\d_]+|\d+")

# Forms agents write, and parts to mix them from: amounts, units, exponents, service codes, hashtags, laps.
_FORMS = [
    "3 × 10⁸ m/s", "6.02 × 10^23", "10⁻³", "x²", "5 m²", "2 km³", "*67", "*#06#", "#31#", "#Launch2026",
    "@acme_support2", "a 2.0L engine", "1:29.708", "03.04.2026", "Min. order", "$12.99/mo", "4.5%", "~$30", "≥ 18",
    "±2°C", "72°F", "R&D", "C++", "5+ years", "#1", "No. 7", "1,234.56", "1.234,56", "€42,97", "¥1,200", "75¢",
    "3–5", "9am-5pm", "v2.4.1", "192.168.0.1", "1-800-555-0199", "TKT-48213", "H2O", "Q3", "1st", "½", "2^10",
    "√49", "§ 12", "x86", "4K", "24/7", "50/50", "10:15:30", "14:30", "2024-03-07", "Form 1099-NEC", "‰",
]  # fmt: skip
_TOKENS = st.one_of(
    st.sampled_from(_FORMS),
    st.from_regex(r"[0-9]{1,6}", fullmatch=True),
    st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,3})?(kg|mg|ml|km|GB|L|%|°C|°F|/yr|k|M)", fullmatch=True),
    st.from_regex(r"[A-Z]{1,3}[0-9]{1,4}", fullmatch=True),
    st.from_regex(r"[*#][0-9]{2,4}#?", fullmatch=True),
    st.from_regex(r"[0-9]{1,2}(\.[0-9])? ?× ?10[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2}", fullmatch=True),
    st.sampled_from("the order ships today and your code is please call at noon".split()),
)
_TEXTS = st.lists(_TOKENS, min_size=1, max_size=5).map(" ".join)
_SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def words_said(text: str, language: str) -> list[str]:
    """The words a voice of ``language`` says for ``text``, in lower case, without punctuation."""
    return [word.lower() for word in _WORD.findall(said_text(text, language))]


def _changed(text: str, index: int, replacement: str) -> str:
    return text[:index] + replacement + text[index + 1 :]


def _other(char: str, kind: str) -> str:
    """Another character of ``char``'s kind, picked by its own code so that a run is reproducible."""
    return kind[(kind.index(char) + 3) % len(kind)]


def dropped(text: str, say: Callable[[str], list[str]]) -> list[str]:
    """The characters of ``text`` that no word ``say`` says depends on: each is changed (a digit or a letter)
    or taken away (a sign), and the words said compared."""
    said = say(text)
    unsaid = []
    for index, char in enumerate(text):
        if char.isascii() and char.isdigit():
            altered = _changed(text, index, _other(char, "0123456789"))
        elif char in SUPERSCRIPTS:
            altered = _changed(text, index, _other(char, SUPERSCRIPTS))
        elif char.isascii() and char.isalpha():
            kind = "abcdefghijklmnopqrstuvwxyz" if char.islower() else "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
            altered = _changed(text, index, _other(char, kind))
        elif char in SIGNS:
            altered = _changed(text, index, "")
        else:
            continue
        if say(altered) == said:
            unsaid.append(f"{char!r} at {index}")
    return unsaid


@_SETTINGS
@given(_TEXTS, st.sampled_from(SPELLED))
def test_every_digit_letter_and_sign_is_said(text: str, language: str) -> None:
    assert not dropped(text, partial(words_said, language=language)), (text, language, said_text(text, language))


def test_the_check_finds_a_sign_or_a_digit_that_a_reader_drops() -> None:
    def without_stars_and_exponents(text: str) -> list[str]:
        return words_said(re.sub(r"[*⁰¹²³⁴⁵⁶⁷⁸⁹]", "", text), "en-us")

    assert dropped("Dial *67 or 10⁸.", without_stars_and_exponents) == ["'*' at 5", "'⁸' at 14"]
    assert dropped("Dial *67 or 10⁸.", partial(words_said, language="en-us")) == []
