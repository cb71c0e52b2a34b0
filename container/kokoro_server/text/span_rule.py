"""The machinery of span rules: a text's tokens as rules read them (``Reading``), what a rule reads
(``Span``), and a rule made of a pattern (``pattern_rule``), taken only where its match ends where a token
ends, so no rule ever reads part of a token."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kokoro_core.segmenter import WIDE_LETTERS

from .forms import Form, Said, Word
from .locales import Locale
from .tokens import Token

GAP = r"[ \t\u00a0\u202f]{1,3}"  # the space between two tokens of a span
# A span ends where its last token's core does: before a space, punctuation, a Chinese or Japanese letter.
_END = rf"(?=[\s)\]}}\"”»,;:!?…'’.–—*_{WIDE_LETTERS}。、]|$)"  # "*": markdown bold after a span


@dataclass(frozen=True)
class Span:
    """Tokens ``first`` to ``last`` read as ``form`` (``None``: as written)."""

    first: int
    last: int
    form: Form | None
    lead: str | None = None  # what is kept before the said form; the first token's lead when None
    trail: bool = True  # whether the last token's trailing punctuation follows the said form
    # Where a final dot the span read ("p.m.", "St.") also ends a sentence: before a capital or at the end
    # of the text ("capital"), only at the end ("end": "Jr. Day" is one sentence), or never ("Dr. Patel").
    dot: str = "capital"
    trail_read: int = 0  # characters of the last token's trailing punctuation the form read ("12\"": the mark)


@dataclass
class Reading:
    """A text's tokens, and where each ends, for rules to match against."""

    text: str
    tokens: list[Token]
    locale: Locale
    _ends: dict[int, tuple[int, bool]] = field(default_factory=dict)
    _open_quotes: list[tuple[int, int]] = field(default_factory=list)  # per token: straight, curly quotations open

    def __post_init__(self) -> None:
        for index, token in enumerate(self.tokens):
            self._ends.setdefault(token.end, (index, False))
            self._ends[token.start + len(token.lead) + len(token.core)] = (index, True)

    def quotation_open(self, index: int, mark: str = '"') -> bool:
        """Whether a quotation of ``mark``'s kind (straight or curly) opened before token ``index``'s core is not
        yet closed: quotes at a token's start less those that close them at a token's end (one after a digit closes
        an open quotation, else it is an inch mark). One pass, once."""
        if not self._open_quotes:
            straight = curly = 0
            for token in self.tokens:
                straight += token.lead.count('"')
                curly += token.lead.count("“")
                self._open_quotes.append((straight, curly))
                straight = max(0, straight - token.trail.count('"'))
                curly = max(0, curly - token.trail.count("”"))
        straight, curly = self._open_quotes[index]
        return (straight if mark == '"' else curly) > 0

    def core(self, index: int) -> str:
        return self.tokens[index].core if 0 <= index < len(self.tokens) else ""

    def at(self, index: int, pattern: re.Pattern[str], opens: str = "") -> tuple[re.Match[str], int, bool, str] | None:
        """``pattern`` matched from token ``index``'s core (from its opening bracket where its lead ends in
        ``opens``), with the index of the token it ends in, whether it ends at that token's core, and what of
        the lead stays before it; ``None`` where it does not match or does not end where a token does."""
        token = self.tokens[index]
        start, lead = token.start + len(token.lead), token.lead
        if opens and lead.endswith(opens):
            start, lead = start - len(opens), lead[: -len(opens)]
        match = pattern.match(self.text, start)
        if match is None or match.end() not in self._ends:
            return None
        last, at_core = self._ends[match.end()]
        return match, last, at_core, lead


Rule = Callable[[Reading, int], Span | None]
Build = Callable[[re.Match[str], Reading, int], Form | None]


def pattern_rule(pattern: str, build: Build, opens: str = "", flags: int = 0) -> Rule:
    """A rule that reads ``pattern`` from a token as ``build`` says; ``opens``: a bracket it may start at."""
    compiled = re.compile(pattern + _END, flags)

    def rule(reading: Reading, index: int) -> Span | None:
        found = reading.at(index, compiled, opens)
        if found is None:
            return None
        match, last, at_core, lead = found
        try:
            form = build(match, reading, index)
        except (ArithmeticError, ValueError, KeyError):
            return None  # a form the rule cannot say ("Henry IIII"): left to the rules after
        return Span(index, last, form, lead=lead, trail=at_core) if form is not None else None

    return rule


@dataclass(frozen=True)
class Grammar:
    """A language family's own rules, beside the shared ones (``tagger``): those tried at a word, at a number
    before the shared ones and after them, at a capitalized word, and what decides a token read alone from its
    neighbours (``alone``: the form it takes, or ``None`` to leave it to the shared rules)."""

    words: dict[str, tuple[Rule, ...]] = field(default_factory=dict)  # by the word, in lower case, that starts them
    numeric: tuple[Rule, ...] = ()
    spans: tuple[Rule, ...] = ()
    capitalized: tuple[Rule, ...] = ()
    alone: Callable[[Reading, int, Form | None], Form | None] = lambda reading, index, form: None


def cue_word(match: re.Match[str], group: str, locale: Locale) -> Word | Said:
    """What was written before ``group``: the cue, as written, but a weekday's short form ("Mon 6/30")."""
    written = " ".join(match.string[match.start() : match.start(group)].split())
    weekday = locale.weekdays.get(written.rstrip(".,"))
    return Said(weekday + ("," if written.endswith(",") else "")) if weekday else Word(written)
