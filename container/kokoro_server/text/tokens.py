"""A text as the normalizer reads it: tokens, each a run of characters between spaces, with the punctuation
around it set apart ("($12.99/mo)," is "(", "$12.99/mo", "),"); and what in a token is a word.

Chinese and Japanese letters, written without spaces, make tokens of their own ("重さは2.5kgです。" is
"重さは", "2.5kg", "です。"): they are words the normalizer reads around, never a part of a number. A token's
core keeps a final dot that belongs to it (``keeps_dot``: an abbreviation's, "etc.", "p.m.", "St."); any other
final dot is punctuation. Splitting is one regular-expression pass and a bounded look at each token's ends:
linear in the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from kokoro_core.markdown import CLOSING_STAR
from kokoro_core.markdown import KEYPAD as MARKDOWN_KEYPAD
from kokoro_core.segmenter import WIDE_LETTERS

_WIDE_PUNCTUATION = "。、，！？：；「」『』（）【】〔〕〈〉《》・"  # not 〜: a range's dash ("10〜20%")
_TOKEN = re.compile(rf"[{WIDE_LETTERS}{_WIDE_PUNCTUATION}]+|[^\s{WIDE_LETTERS}{_WIDE_PUNCTUATION}]+")
_WIDE = re.compile(rf"[{WIDE_LETTERS}{_WIDE_PUNCTUATION}]")
LEADING = frozenset("([{\"“«¿¡*‘'’—–`")  # a backtick: markdown's code span ("`64`" is the number)
TRAILING = frozenset(")]}\"”»,;:!?…*'’—–.`")
_QUOTES = frozenset("'’‘")
_SHORT_YEAR = re.compile(r"\d\d(?!\d|[.,]\d)")
_ORDINAL_POSSESSIVE = re.compile(r"\d(?:st|nd|rd|th)(?=['’]s$)", re.IGNORECASE)  # "June 8th’s deadline"


def _mark_ranges() -> str:
    """The combining marks (Devanagari's vowel signs, accents written apart) as a character class body: a
    word's letters, though ``\\w`` does not match them."""
    marks = [code for code in range(0x300, 0x10000) if unicodedata.category(chr(code)) in ("Mn", "Mc", "Me")]
    ranges, start = [], marks[0]
    for previous, code in zip(marks, [*marks[1:], None], strict=True):
        if code != previous + 1:
            ranges.append(f"\\u{start:04x}-\\u{previous:04x}" if previous > start else f"\\u{start:04x}")
            start = code if code is not None else start
    return "".join(ranges)


MARKS = _mark_ranges()
_LETTER = rf"(?:[^\W\d_]|[{MARKS}])"
WORD = re.compile(rf"{_LETTER}+(?:['’.\-]{_LETTER}+)*\.?")  # letters, with inner apostrophes, hyphens, dots


DOTTED_INITIALS = re.compile(r"(?:[^\W\d_]\.){2,}")  # "e.g.", "p.m.", "U.S."


@dataclass(frozen=True)
class Token:
    """A run of characters between spaces: ``lead`` + ``core`` + ``trail`` is ``text``."""

    text: str
    start: int  # in the text
    end: int
    lead: str
    core: str
    trail: str

    @property
    def wide(self) -> bool:
        """A run of Chinese or Japanese letters (or their punctuation)."""
        return _WIDE.match(self.text) is not None


def tokenize(text: str, keeps_dot: Callable[[str], bool]) -> list[Token]:
    """``text``'s tokens, in order; ``keeps_dot(word)`` says whether a word ending in a dot ("etc.") is an
    abbreviation, whose dot belongs to its core."""
    tokens = []
    for match in _TOKEN.finditer(text):
        word = match.group()
        if _WIDE.match(word):
            tokens.append(Token(word, match.start(), match.end(), "", word, ""))
            continue
        start = match.start()
        for piece in _CUT.split(word) if "," in word or "." in word or "…" in word else (word,):
            # "*10 items* left": a star that an emphasis closes later on its line is no keypad's
            keypad = "*" not in piece or _CLOSING_STAR.match(text, start + len(piece)) is None
            lead, core, trail = _split(piece, keeps_dot, keypad)
            tokens.append(Token(piece, start, start + len(piece), lead, core, trail))
            start += len(piece)
    return tokens


# A comma that lists rather than groups digits, or an ellipsis, typed without its space ("9:00,10:30",
# "9am,10am", "40.7,-74.0", "5%...then"), or a dash after "a.m.": the token is cut there. Between two
# digits a comma may group thousands or mark a decimal.
_CUT = re.compile(
    r"(?<=,)(?=[^\d\s,])|(?<=[^\d\s,],)(?=\d)|(?<=\d:\d\d,)(?=\d)|(?<=\.\.\.)(?=[^\s.])|(?<=…)(?=[^\s…])"
    r"|(?<=[ap]\.m\.)(?=[-–—]\d)|(?<=[ap]\.m\.[-–—])(?=\d)"  # "9 a.m.–5 p.m.": the dash between two times
)


KEYPAD = re.compile(MARKDOWN_KEYPAD)  # "*67", "*#06#": the star and the hashes are the core's
_CLOSING_STAR = re.compile(CLOSING_STAR)
_AROUND_KEYS = "([{\"“«‘'"
_AFTER_KEYS = ")]}\"”»,;:!?….'’"


def _split(word: str, keeps_dot: Callable[[str], bool], keypad: bool = True) -> tuple[str, str, str]:
    if keypad and ("*" in word or "#" in word):
        first, last = len(word) - len(word.lstrip(_AROUND_KEYS)), len(word.rstrip(_AFTER_KEYS))
        if KEYPAD.fullmatch(word, first, last):
            return word[:first], word[first:last], word[last:]
    start = 0
    # A leading quote before two digits is part of the core: "'80s", "'69"; not the quote of "'1900s'".
    quoted = word.rstrip(".,;:!?)]}")[-1:] in _QUOTES  # "'23'": a number in quotes, not the year '23
    while (
        start < len(word)
        and word[start] in LEADING
        and not (word[start] in _QUOTES and _SHORT_YEAR.match(word, start + 1) and not quoted)
    ):
        start += 1
    end = len(word)
    while end > start and word[end - 1] in TRAILING:
        end -= 1
    while word[end : end + 1] == ")" and word.count("(", start, end) > word.count(")", start, end):
        end += 1  # "401(k)", "501(c)(3)": the bracket closes one the core opened
    if (possessive := _ORDINAL_POSSESSIVE.search(word, start, end)) is not None:
        end = possessive.end()  # the "’s" is said after the ordinal, as written
    if end > start and word[end : end + 1] == "." and (keeps_dot(word[start : end + 1]) or _initials(word, start, end)):
        end += 1  # the dot ends an abbreviation
    if word[start:end] != "−" and all(c in "-−" for c in word[start:end]):
        return word, "", ""  # a dash between words: punctuation; "−" alone is the minus sign ("x² − 5x")
    return word[:start], word[start:end], word[end:]


def _initials(word: str, start: int, end: int) -> bool:
    """Whether the token ends in letters each followed by a dot ("e.g.", "a.m."): its last dot is its own."""
    return DOTTED_INITIALS.fullmatch(word, start, end + 1) is not None


def is_word(text: str) -> bool:
    """Letters, with inner apostrophes, hyphens or dots ("well-known", "e.g."); not "½" or "²", which the
    pattern's letter class lets through."""
    return WORD.fullmatch(text) is not None and not any(char.isnumeric() for char in text)


def sayable(letters: str) -> bool:
    """Whether a run of letters is said as a word ("COVID", "Save", "day") rather than letter by letter
    ("TKT", "SKU", "W"): written in lower or mixed case, or in capitals long enough to be a word, with a vowel
    and no four consonants in a row."""
    if not letters.isupper():
        return True
    if len(letters) < 4:
        return False
    lower = letters.lower()
    return any(vowel in lower for vowel in "aeiouy") and re.search(r"[^aeiouy]{4}", lower) is None
