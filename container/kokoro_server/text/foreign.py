"""Spans of a text read by another language's reader than the voice's: marked by SSML (``<lang xml:lang>``,
``xml:lang``), or, in plain text, found by their script: Chinese characters (Japanese where kana are among them)
and Devanagari in a voice of a Latin-script language are read by the Chinese, Japanese and Hindi readers. The
voice stays the voice: every Kokoro voice reads the same phoneme set, so an English voice says a French span
in French phonemes, with its own accent.

A marked span stands between two characters of a private use plane (``marked``) that name its language: one
opens it, one closes it, so a piece of a text cut anywhere still knows the language of each of its parts
(``segments``). The marks are never said and never shown: ``unmarked`` removes them from what is written
(word marks, captions) and ``said_text`` from what is shown. Finding spans is one pass of one pattern over the
text: linear.
"""

from __future__ import annotations

import re
from typing import Literal

from kokoro_core.speakable import DEVANAGARI, HAN_KANA

from .g2p import CHINESE, JAPANESE, installed

ForeignScript = Literal["read", "skip"]  # a span in another script: read by its reader, or left unsaid
READ: ForeignScript = "read"
LANGUAGES = ("en-us", "en-gb", "es", "fr-fr", "it", "pt-br", "hi", "ja", "cmn")  # the readers, by index
_BASE = 0x10_0000  # plane 16, private use: the anchors of ``text.script`` use plane 15
_MARK = re.compile("[\U00100000-\U0010001f]")
LATIN_VOICES = frozenset({"en-us", "en-gb", "es", "fr-fr", "it", "pt-br"})
_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
# A run of another script, with the spaces and punctuation inside it ("王小明", "東京タワー", "नमस्ते दोस्त").
_FOREIGN_RUN = re.compile(  # not Hangul, Arabic, Hebrew or Thai: no reader here reads them
    rf"[{HAN_KANA}](?:[{HAN_KANA}\u3000-\u303f\uff01-\uff65 ·・]*[{HAN_KANA}])?"
    rf"|[{DEVANAGARI}](?:[{DEVANAGARI} ]*[{DEVANAGARI}])?"
)
_IS_DEVANAGARI = re.compile(f"[{DEVANAGARI}]")


def opening(language: str) -> str:
    return chr(_BASE + 2 * LANGUAGES.index(language))


def closing(language: str) -> str:
    return chr(_BASE + 2 * LANGUAGES.index(language) + 1)


def marked(text: str, language: str) -> str:
    """``text`` as a span read in ``language``."""
    return f"{opening(language)}{text}{closing(language)}"


def unmarked(text: str) -> str:
    """``text`` without its language marks."""
    return _MARK.sub("", text) if _MARK.search(text) else text


def labeled(text: str) -> str:
    """``text`` with each marked span shown for people to read: ``[cmn: 王小明]``."""
    return "".join(piece if language is None else f"[{language}: {piece}]" for piece, language in _spans(text))


def _spans(text: str) -> list[tuple[str, str | None]]:
    """``text`` cut at its marks: (piece, the language of its span, or ``None`` outside any). A piece of a span
    cut off from its opening or closing mark is still in the span's language."""
    parts: list[tuple[str, str | None]] = []
    current, position = None, 0
    for mark in _MARK.finditer(text):
        code = ord(mark.group()) - _BASE
        parts.append((text[position : mark.start()], current if code % 2 == 0 else LANGUAGES[code // 2]))
        current = LANGUAGES[code // 2] if code % 2 == 0 else None
        position = mark.end()
    parts.append((text[position:], current))
    return [(piece, language) for piece, language in parts if piece]


def segments(text: str, language: str, foreign: ForeignScript = READ) -> list[tuple[str, str]]:
    """``text`` as (piece, language it is read in), in order, the marks removed: marked spans in their language
    (a piece of a span cut off from its opening or closing mark still in its own); the rest in ``language``,
    where with ``foreign="read"`` a run of another script is read by that script's reader when this
    installation has it."""
    parts: list[tuple[str, str]] = []
    for piece, span_language in _spans(text):
        parts.extend(_plain(piece, language, foreign) if span_language is None else [(piece, span_language)])
    return [(piece, piece_language) for piece, piece_language in parts if piece]


def _plain(text: str, language: str, foreign: ForeignScript) -> list[tuple[str, str]]:
    """``text`` in ``language``, with the runs of another script found in it read by their readers."""
    if foreign != READ or language not in LATIN_VOICES or not _FOREIGN_RUN.search(text):
        return [(text, language)]
    parts, position = [], 0
    for run in _FOREIGN_RUN.finditer(text):
        reader = script_language(run.group())
        if reader is None:
            continue
        parts.append((text[position : run.start()], language))
        parts.append((run.group(), reader))
        position = run.end()
    parts.append((text[position:], language))
    return parts


def script_language(run: str) -> str | None:
    """The reader of a run of another script: Japanese where it holds kana, Chinese for Chinese characters
    alone, Hindi for Devanagari; ``None`` where this installation has no reader for it."""
    if _IS_DEVANAGARI.match(run):
        return "hi"
    reader = JAPANESE if _KANA.search(run) else CHINESE
    return reader if installed(reader) else None
