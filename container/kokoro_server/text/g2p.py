"""Phonemes per language, as Kokoro v1.0 was trained on them (its G2P library, misaki).

- English: espeak-ng through kokoro-onnx's tokenizer, as before.
- Spanish, French, Italian, Brazilian Portuguese, Hindi: espeak-ng with misaki's settings: language-switch
  flags removed (a French sentence's English word is not marked ``(en)…(fr)``), ties joined and mapped onto
  the symbols the model learned (``t͡ʃ`` → ``ʧ``, ``eɪ`` → ``A``…).
- Chinese: misaki's Mandarin reader (jieba words, pypinyin syllables with tone contours, numbers in words).
- Japanese: misaki's cutlet reader (fugashi on unidic-lite, numbers in kana), not pyopenjtalk.

In Chinese and Japanese text, a run of Latin letters (a product name, an English word) is read by the
English G2P: neither reader says Latin letters. In the espeak-ng languages, a brand written in camel case
(iPhone, YouTube) is read in English too; other English words are left to espeak-ng, which says the ones
its dictionaries know as English ("weekend") in English. Each reader is created on first use, so a server that
speaks only English loads none of them; Chinese and Japanese need the ``chinese`` and ``japanese``
extras (``languages`` says which this installation has). Every dictionary comes in a wheel: nothing
downloads. Readers are not thread-safe, so each is used under its own lock.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import threading
from collections.abc import Callable
from functools import cache
from typing import Any

English = Callable[[str, str], str]  # (text, "en-us" | "en-gb") -> phonemes

ENGLISH = ("en-us", "en-gb")
ESPEAK = ("es", "fr-fr", "it", "pt-br", "hi")
CHINESE = "cmn"
JAPANESE = "ja"
# What each language needs beyond the server's own dependencies (the extras of kokoro-server).
EXTRAS = {CHINESE: ("jieba", "pypinyin", "cn2an", "ordered_set"), JAPANESE: ("fugashi", "unidic_lite", "mojimoji")}
EXTRA_NAMES = {CHINESE: "chinese", JAPANESE: "japanese"}
# A brand written in camel case (iPhone, YouTube, WhatsApp, PlayStation): never a word of the espeak-ng
# languages, so read in English rather than spelled by their rules.
_CAMEL_CASE = re.compile(r"\b[a-z]*[A-Z]?[a-z]+[A-Z][A-Za-z]*\b")
_LATIN_RUN = re.compile(r"[A-Za-z](?:[A-Za-z'’.\-]*[A-Za-z])?(?:\s+[A-Za-z](?:[A-Za-z'’.\-]*[A-Za-z])?)*")


class LanguageUnavailable(RuntimeError):
    """The language's reader is not installed (an image or an installation built without it)."""


@cache  # asked on every admission and every Chinese or Japanese chunk; the installation does not change
def installed(language: str) -> bool:
    """Whether this installation can read ``language``."""
    return all(importlib.util.find_spec(module) is not None for module in EXTRAS.get(language, ()))


def available_languages() -> tuple[str, ...]:
    """The languages this installation reads, in Kokoro's voice-letter order."""
    return (*ENGLISH, *ESPEAK, *(language for language in (CHINESE, JAPANESE) if installed(language)))


class G2P:
    """Text to phonemes for every language; ``__call__(text, language)``, from any thread."""

    def __init__(self, english: English, vocabulary: frozenset[str]) -> None:
        self._english = english
        self._vocabulary = vocabulary  # the symbols the model reads: any other is dropped, as for English
        self._readers: dict[str, Callable[[str], Any]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._creating = threading.Lock()

    def __call__(self, text: str, language: str) -> str:
        if language in ENGLISH or language not in (*ESPEAK, CHINESE, JAPANESE):
            return self._english(text, language if language in ENGLISH else "en-us")
        english = _CAMEL_CASE if language in ESPEAK else _LATIN_RUN
        return " ".join(part for part in self._mixed(text, language, english) if part)

    def _mixed(self, text: str, language: str, english: re.Pattern[str]) -> list[str]:
        """``text`` in ``language``, with what ``english`` finds read in English."""
        parts, position = [], 0
        for latin in english.finditer(text):
            parts.append(self._read(language, text[position : latin.start()]))
            parts.append(self._english(latin.group(), "en-us"))
            position = latin.end()
        parts.append(self._read(language, text[position:]))
        return [" ".join(part.split()) for part in parts]

    def _read(self, language: str, text: str) -> str:
        if not text.strip():
            return ""
        reader, lock = self._reader(language)
        with lock:
            phonemes, _ = reader(text)
        return "".join(symbol for symbol in str(phonemes) if symbol in self._vocabulary)

    def _reader(self, language: str) -> tuple[Callable[[str], Any], threading.Lock]:
        with self._creating:
            if language not in self._readers:
                self._readers[language] = _create(language)
                self._locks[language] = threading.Lock()
            return self._readers[language], self._locks[language]


def _create(language: str) -> Any:  # a misaki reader: reader(text) -> (phonemes, tokens)
    if not installed(language):
        extra = EXTRA_NAMES[language]
        raise LanguageUnavailable(f"{language} is not installed here: install kokoro-server[{extra}]")
    if language == CHINESE:
        import jieba
        from misaki.zh import ZHG2P

        jieba.setLogLevel(logging.WARNING)  # it prints its dictionary loading on first use
        return ZHG2P()  # Kokoro v1.0's reader (misaki's legacy path)
    if language == JAPANESE:
        from misaki.cutlet import Cutlet  # misaki.ja would import pyopenjtalk, which v1.0 never uses

        return Cutlet()
    from misaki.espeak import EspeakG2P

    reader = EspeakG2P(language=language)
    reader.backend = _OneLine(reader.backend)
    return reader


class _OneLine:
    """An espeak backend whose answer is always one line. espeak-ng cuts a text in two at a dot inside a
    number ("3.5", "1.500"), and misaki keeps only the first line it gets: the rest would be lost."""

    def __init__(self, backend: Any) -> None:
        self._backend = backend

    def phonemize(self, texts: list[str], **options: Any) -> list[str]:
        lines = self._backend.phonemize(texts, **options)
        return [" ".join(line.strip() for line in lines if line.strip())] if lines else lines


_WORD_CHARACTER = re.compile(r"[^\W_]")


def words_of(text: str, language: str) -> list[str] | None:
    """``text``'s words for a language written without spaces (Chinese: jieba's; Japanese: fugashi's on
    unidic-lite), punctuation kept with the word before it; ``None`` for the other languages, whose words
    are what whitespace separates."""
    if language not in (CHINESE, JAPANESE) or not installed(language):
        return None
    with _segmenting:
        pieces = _segmenter(language)(text)
    words: list[str] = []
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        if words and not _WORD_CHARACTER.search(piece):
            words[-1] += piece  # "，" or "。" belongs to the word it ends
        else:
            words.append(piece)
    return words


_segmenting = threading.Lock()
_segmenters: dict[str, Callable[[str], list[str]]] = {}


def _segmenter(language: str) -> Callable[[str], list[str]]:
    if language not in _segmenters:
        if language == CHINESE:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            _segmenters[language] = jieba.lcut
        else:
            from fugashi import Tagger

            tagger = Tagger()
            _segmenters[language] = lambda text: [word.surface for word in tagger(text)]
    return _segmenters[language]
