"""What a voice's normalizer may say, for the invariant tests: every word it says is a word of the text it was
given, or a word of its language's vocabulary (number words, units, currencies, signs' and letters' names), so a
word glued to a number ("smithfour", "fiveKG", "percentminus") is caught wherever it appears.

The vocabulary is built from the same tables and num2words the verbalizers use, and from num2words' words for
every number below a thousand and the powers of a thousand: the words of any number it says are among those.
Italian writes a number as one word ("duemilaventisei"), so an Italian word is also accepted when it is made
of Italian number words end to end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from num2words import num2words

from kokoro_server.text import spoken, words_english, words_romance, words_romance_cues, words_signs
from kokoro_server.text.locales import ROMANCE

_WORD = re.compile(r"[^\W\d_]+")
_POWERS = [10**3, 10**6, 10**9, 10**12, 2 * 10**3, 2 * 10**6, 2 * 10**9, 2 * 10**12]


def words_in(texts: Iterable[str]) -> set[str]:
    """The words (runs of letters) of ``texts``, in lower case."""
    return {word.lower() for text in texts for word in _WORD.findall(str(text))}


def _tables(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _tables(key)
            yield from _tables(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _tables(item)


def _module_words(*modules: object) -> set[str]:
    texts = []
    for module in modules:
        for name, value in vars(module).items():
            if name.isupper():
                texts.extend(_tables(value))
    return words_in(texts)


@cache
def vocabulary(language: str) -> frozenset[str]:
    """Every word a voice of ``language`` may say for a digit or a sign."""
    if language.startswith("en"):
        said = [num2words(n) for n in range(1000)] + [num2words(n, to="ordinal") for n in range(1001)]
        said += [num2words(n) for n in _POWERS] + [num2words(n, to="ordinal") for n in _POWERS]
        said += [num2words(n, to="year") for n in range(1100, 2100)]
        words = words_in(said) | _module_words(words_english) | words_in(spoken.LETTERS.values())
        words |= words_in(spoken.DIGITS) | {"oh", "o'clock", "hundred", "point", "per", "to", "and", "of", "the", "a"}
        words |= {"am", "pm", "fiscal", "year", "hashtag", "dash", "dot", "colon", "question", "mark", "times", "x"}
        words |= {"by", "out", "plus", "minus", "number", "seconds", "second", "version", "sharp", "world", "war"}
        words |= {"q", "h", "us", "nineteen", "thousands", "nineties", "eighties", "seventies", "sixties", "fifties"}
        words |= {"forties", "thirties", "twenties", "tens", "noughties", "hundreds", "about", "under", "over"}
        words |= {"at", "most", "least", "approximately", "or", "extension", "apartment", "suite", "unit", "floor"}
        # a number's plural as a noun: "two by fours", "sevens"
        words |= {word[:-1] + "ies" if word.endswith("y") else word + "es" if word.endswith("x") else word + "s"
                  for word in words_in(num2words(n) for n in range(100))}  # fmt: skip
        words |= {word.replace("meter", "metre").replace("liter", "litre") for word in words}  # British spellings
        return frozenset(words | {"building", "halves", "slash"} | _LETTERS)
    if language in ROMANCE:
        lang = ROMANCE[language]
        said = [num2words(n, lang=lang) for n in range(1001)] + [
            num2words(n, lang=lang, to="ordinal") for n in range(1, 1001)
        ]
        said += [num2words(n, lang=lang) for n in _POWERS if n < 10**12 or lang != "pt_BR"]
        said += [num2words(n, lang=lang, to="ordinal") for n in _POWERS[:2]]
        words = words_in(said) | _module_words(words_romance) | _module_words(words_romance_cues)
        words |= {"primer", "tercer", "segunda", "primera", "tercera", "cuarta", "quinta", "octava", "demi", "medio"}
        words |= {"un", "una", "uno", "um", "uma", "une", "mezzo", "meio", "sur", "su", "de", "d", "los", "años", "les"}
        words |= {"années", "gli", "anni", "os", "anos", "l", "heure", "heures", "vez", "veces", "fois", "volta"}
        words |= {"volte", "vezes", "duas", "a", "al", "all", "alla", "per", "par", "por", "le", "la", "del", "menos"}
        words |= {"moins", "meno", "más", "plus", "più", "mais", "e", "y", "et", "con", "o", "sharp"}
        words |= {"veintiún"}  # Spanish drops "uno" before a masculine noun: "veintiún kilómetros"
        words |= {word[:-1] + "a" for word in words if word.endswith("o")}  # feminine ordinals: "terceira"
        return frozenset(words | _LETTERS)
    return frozenset(_module_words(words_signs) | _LETTERS)


_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")  # a code's letters, said one by one


@cache
def _italian_morphemes() -> tuple[str, ...]:
    said = [num2words(n, lang="it") for n in range(1000)] + [
        num2words(n, lang="it", to="ordinal") for n in range(1, 1000)
    ]
    morphemes = words_in(said) | {"mille", "mila", "milione", "milioni", "miliardo", "miliardi", "un"}
    morphemes |= {"milionesimo", "millesimo", "milionesima", "millesima"}
    morphemes |= {word[:-3] + "tré" for word in morphemes if word.endswith("tre")}  # "ottantatré"
    return tuple(sorted(morphemes, key=len, reverse=True))


def _italian_number(word: str) -> bool:
    """Whether ``word`` is made of Italian number words end to end ("duemilaventisei")."""
    morphemes = _italian_morphemes()
    reachable = [False] * (len(word) + 1)
    reachable[0] = True
    for start in range(len(word)):
        if reachable[start]:
            for morpheme in morphemes:
                if word.startswith(morpheme, start):
                    reachable[start + len(morpheme)] = True
    return reachable[-1]


def foreign_words(said: str, written: str, language: str) -> list[str]:
    """The words of ``said`` that are neither in ``written`` nor in the language's vocabulary."""
    allowed = words_in([written]) | vocabulary(language)
    return sorted(
        word for word in words_in([said]) if word not in allowed and not (language == "it" and _italian_number(word))
    )
