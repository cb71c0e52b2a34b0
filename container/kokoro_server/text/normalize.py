"""Text as a person would say it: amounts, dates, times, phone numbers, codes, units and abbreviations
rewritten in words before G2P, which reads them wrongly ("$1,284.50" as "dollar one thousand two hundred
eighty four. fifty").

The text is split into tokens (``tokens``), each run of tokens that forms one thing is classified
(``tagger``: a rate of money per month, a date, an e-mail address, a code...) and each class is said by the
voice's language (``say_english``; ``say_romance`` for Spanish, French, Italian and Portuguese; ``say_signs``
for Hindi and Japanese, whose readers say digits). A span is always read whole: what no class reads is a
code, said as what it is (letters by name, numbers, signs by name), so nothing is left half rewritten and
no digit or sign reaches G2P. Only digits and signs become words, so normalizing twice changes nothing;
plain words pass through as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from kokoro_core.edited import NO_EDITS, Edits, substituted

from . import say_english, say_romance, say_signs
from .forms import Form
from .locales import locale_of
from .span_rule import Span
from .tagger import tag
from .tokens import Token

# Each family's verbalizer (``Locale.family``), given the voice's language.
VERBALIZERS: dict[str, Callable[[str], Callable[[Form], str]]] = {
    "english": say_english.verbalizer,
    "romance": say_romance.verbalizer,
    "signs": say_signs.verbalizer,
}

# A markup tag in plain text ("<b>", "</i>", "<br/>", "<break time="1s"/>", "<rate=+.4>"): an element of HTML or
# SSML that an agent's text holds by mistake, silent. Its name is in lower case ("List<String>" is a type) and
# each of its attributes has a value, so "a <b and c> d" is not one, nor "x < 5" (a name follows the bracket).
# A markdown autolink ("<https://acme.com>", "<help@acme.com>") is the address without its brackets.
_ATTRIBUTE = r"""\s+[\w:.-]{1,40}\s*=\s*(?:"[^"<>]{0,200}"|'[^'<>]{0,200}'|[^\s"'<>=]{1,100})"""
_MARKUP = re.compile(
    rf"</?[a-z][\w:.-]{{0,40}}(?:=[^\s<>]{{1,40}})?(?:{_ATTRIBUTE}){{0,10}}\s*/?>"
    r"|<(?P<link>[a-z][a-z+.-]{1,20}://[^\s<>]{1,2000}|[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8})>"
)


def _without_markup(text: str) -> tuple[str, Edits]:
    def replacement(match: re.Match[str]) -> str:
        if match["link"]:
            return match["link"]
        before, after = text[match.start() - 1 : match.start()], text[match.end() : match.end() + 1]
        return " " if before and after and not before.isspace() and (after.isalnum() or after in "<([\"“'‘") else ""

    return substituted(_MARKUP, text, replacement)


class Piece(NamedTuple):
    """A part of a text and what is said for it: a span the tagger read as a whole (``whole``), or text said as
    written, character by character. ``start`` and ``end`` are offsets in the text without its markup."""

    start: int
    end: int
    said: str
    whole: bool


def normalize(text: str, language: str = "en-us") -> str:
    """``text`` as it will be said by a voice of ``language``; Chinese passes through (its reader says
    numbers and signs). A markup tag says nothing."""
    return "".join(piece.said for piece in normalized_pieces(text, language)[0])


def normalized_pieces(text: str, language: str = "en-us") -> tuple[list[Piece], Edits]:
    """What is said for each part of ``text`` (``normalize``), in order, and where the text without its markup,
    which the pieces' offsets refer to, lies in ``text``."""
    edits = NO_EDITS
    if "<" in text:
        text, edits = _without_markup(text)
    locale = locale_of(language)
    if locale is None:
        return [Piece(0, len(text), text, whole=False)], edits
    say = VERBALIZERS[locale.family](locale.language)
    tokens, spans = tag(text, locale)
    pieces: list[Piece] = []
    position, read_before = 0, False
    for span in spans:
        first, last = tokens[span.first], tokens[span.last]
        if first.start > position:
            pieces.append(Piece(position, first.start, text[position : first.start], whole=False))
        # "9:00,10:30", "5%...then", "9 a.m.–5": cut where typed without a space, said with its pause
        typed_together = position and first.start == position and text[position - 1] in ",.…–—"
        if typed_together and (read_before or span.form is not None):
            pieces.append(Piece(first.start, first.start, " ", whole=True))
        position, read_before = last.end, span.form is not None
        if span.form is None:
            pieces.append(Piece(first.start, last.end, text[first.start : last.end], whole=False))
            continue
        lead = first.lead if span.lead is None else span.lead
        words = say(span.form)
        end = _sentence_end(text, tokens, span)
        said = f"{lead}{words}{end}{last.trail[span.trail_read :] if span.trail else ''}"
        pieces.append(Piece(first.start, last.end, said, whole=True))
    if position < len(text):
        pieces.append(Piece(position, len(text), text[position:], whole=False))
    return pieces, edits


def _sentence_end(text: str, tokens: list[Token], span: Span) -> str:
    """A full stop where the span's own final dot ("etc.", "p.m.", "St.") also ends the sentence: at the end
    of the text, or before a capital or a quote; never after a title ("Dr. Patel")."""
    first, last = tokens[span.first], tokens[span.last]
    read = text[
        first.start + len(first.lead) : last.end if not span.trail else last.start + len(last.lead) + len(last.core)
    ]
    if not read.endswith(".") or span.dot == "never" or (span.trail and last.trail[:1] in (",", ";", ":")):
        return ""  # "Maple Ave., Springfield": the comma says the sentence goes on
    following = tokens[span.last + 1].text if span.last + 1 < len(tokens) else ""
    if not following:
        return "."
    return "." if span.dot == "capital" and (following[0].isupper() or following[0] in '"“') else ""
