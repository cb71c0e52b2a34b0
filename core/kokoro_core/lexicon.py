"""Pronunciations users set for names and brands that G2P gets wrong.

An entry maps a word (or a phrase) to how to say it: a respelling in plain words
(``"SageMaker": "sage maker"``), or phonemes between slashes in the model's phoneme set
(``"Nguyen": "/wˈɪn/"``). Entries match whole words, as written (case matters: add another entry
for another spelling). A server-wide lexicon comes from a file; a session adds its own entries on
top (``configure``), and its entries win.

Respellings are text: the normalizer and G2P read them like any other. Phonemes skip both and go to
the model as written, so they are checked against the model's phoneme symbols first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .edited import NO_EDITS, Edits, substituted
from .validation import shown

MAX_ENTRIES = 1000
MAX_WORD_CHARS = 64
MAX_SAY_CHARS = 200
FILE_NAME = "lexicon.json"  # a server-wide lexicon in the model directory (the model cache)


class LexiconError(ValueError):
    """A lexicon is invalid; the message names the entry, what is wrong with it and what is allowed."""


@dataclass(frozen=True)
class Lexicon:
    """Entries as (word, say) pairs; ``say`` is a respelling, or phonemes between slashes."""

    entries: tuple[tuple[str, str], ...] = ()
    # Derived once from the entries: a lexicon is applied to every chunk of every utterance, and is part
    # of the key of every cached reading.
    _pattern: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _say: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(self.entries))
        if self.entries:
            object.__setattr__(self, "_pattern", _pattern(tuple(sorted(word for word, _ in self.entries))))
            object.__setattr__(self, "_say", dict(self.entries))

    def __hash__(self) -> int:
        return self._hash

    def __len__(self) -> int:
        return len(self.entries)

    def with_entries(self, more: Lexicon) -> Lexicon:
        """This lexicon with ``more``'s entries added; where both have a word, ``more``'s wins."""
        merged = dict(self.entries) | dict(more.entries)
        return Lexicon(tuple(merged.items()))

    def masked_edits(self, text: str) -> tuple[str, list[str], Edits]:
        """``text`` with respellings in place, and each phoneme entry replaced by a placeholder word.

        The placeholders are plain letters, which the normalizer leaves alone and reads in context
        as the word they replace (capitalized or not), so "Mr. Nguyen" stays a title before a name.
        Returns the text, the phonemes in the order of their placeholders (``unmasked_spans``), and where
        each part of the masked text was written (``kokoro_core.edited``).
        """
        if self._pattern is None:
            return text, [], NO_EDITS
        say = self._say
        phonemes: list[str] = []

        def replace(match: re.Match[str]) -> str:
            said = say[match.group()]
            if not said.startswith("/"):
                return said
            phonemes.append(said.strip("/"))
            index = in_letters(len(phonemes) - 1)
            return f"{'Q' if match.group()[0].isupper() else 'q'}zxlexicon{index}zq"

        masked, edits = substituted(self._pattern, text, replace)
        return masked, phonemes, edits


def in_letters(number: int) -> str:
    """A placeholder's number in the letters a-j (1204 -> "bcae"): plain letters, which the normalizer and
    G2P leave as they are."""
    return "".join(chr(ord("a") + int(digit)) for digit in str(number))


@lru_cache(maxsize=64)
def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """The pattern that finds ``words``, compiled once however many sessions and messages give them."""
    alternatives = sorted((re.escape(word) for word in words), key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(alternatives)})(?!\w)")


NO_LEXICON = Lexicon()


def unmasked_spans(said: str, phonemes: list[str]) -> Iterator[tuple[str, bool, int, int]]:
    """``said`` (a ``Lexicon.masked_edits`` text, normalized) as (piece, is_phonemes, start, end), placeholders
    back to phonemes, each piece with the (start, end) of ``said`` it comes from."""
    written = 0
    for match in _PLACEHOLDER.finditer(said):
        yield said[written : match.start()], False, written, match.start()
        yield phonemes[int("".join(str(ord(letter) - ord("a")) for letter in match.group(1)))], True, *match.span()
        written = match.end()
    yield said[written:], False, written, len(said)


_PLACEHOLDER = re.compile(r"[Qq]zxlexicon([a-j]+)zq")


def parse_lexicon(value: Any, symbols: Collection[str]) -> Lexicon:
    """A lexicon from a JSON object of ``word: say``; ``symbols`` are the phonemes the model knows."""
    if not isinstance(value, dict):
        raise LexiconError(f'lexicon must be an object of "word": "how to say it", not {type(value).__name__}')
    if len(value) > MAX_ENTRIES:
        raise LexiconError(f"lexicon has {len(value)} entries; at most {MAX_ENTRIES} are allowed")
    return Lexicon(tuple((word, _checked(word, say, symbols)) for word, say in value.items()))


def _checked(word: str, say: Any, symbols: Collection[str]) -> str:
    if not word.strip() or word != word.strip() or len(word) > MAX_WORD_CHARS:
        raise LexiconError(
            f"lexicon word {shown(word)} is invalid; give 1 to {MAX_WORD_CHARS} characters without surrounding spaces"
        )
    if not isinstance(say, str) or not say.strip(" /") or len(say) > MAX_SAY_CHARS:
        raise LexiconError(
            f"lexicon entry {shown(word)}: {shown(say)} is invalid; give a respelling or /phonemes/ of 1 to "
            f"{MAX_SAY_CHARS} characters"
        )
    if say.startswith("/") != say.endswith("/") or (say.startswith("/") and len(say) < 3):
        raise LexiconError(
            f"lexicon entry {shown(word)}: phonemes go between two slashes, as in /wˈɪn/; got {shown(say)}"
        )
    if say.startswith("/"):
        unknown = sorted({symbol for symbol in say[1:-1] if symbol not in symbols})
        if unknown:
            raise LexiconError(
                f"lexicon entry {shown(word)}: phoneme symbols {' '.join(unknown)!r} are not in the model's set; see "
                "`kokoro-stream normalize --phonemes` for the phonemes of similar words"
            )
    return say


def load_lexicon(path: Path, symbols: Collection[str]) -> Lexicon:
    """A server-wide lexicon from a JSON file; raises ``LexiconError`` naming the file."""
    try:
        return parse_lexicon(json.loads(path.read_text(encoding="utf-8")), symbols)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, LexiconError) as error:
        raise LexiconError(f"lexicon file {path}: {error}") from error
