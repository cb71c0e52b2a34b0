"""Hindi's and Japanese's grammar: their readers say digits and signs as written, so the normalizer reads only
what they would say otherwise: an extension after "ext.", and a code after its word, digit by digit
("認証コードは583201です", "आपका OTP 583201 है")."""

from __future__ import annotations

from . import words_signs as signs
from .forms import Code, Form, Joined, Number, Said
from .locales import Locale
from .span_rule import Grammar, Reading, pattern_rule


def grammar(locale: Locale) -> Grammar:
    word = signs.EXTENSION[locale.language]
    extension = pattern_rule(r"ext\.?\s?(?P<n>\d{1,6})", lambda m, r, i: Joined((Said(word), Code(m["n"], "digits"))))
    return Grammar(words={"ext": (extension,)}, alone=_alone)


def _alone(reading: Reading, index: int, form: Form | None) -> Form | None:
    core = reading.tokens[index].core
    if isinstance(form, Number) and core.isdigit() and _code_before(reading, index):
        return Code(core, "digits")
    return None


_CODE_WORDS = ("PIN", "OTP", "コード", "暗証番号", "認証コード", "確認コード", "कोड", "ओटीपी", "code", "Code",
               *signs.EXTENSION.values())  # fmt: skip


def _code_before(reading: Reading, index: int) -> bool:
    """A number right after the word for a code, in a language written without spaces (Japanese
    "認証コードは583201です"), or with them (Hindi "आपका OTP 583201 है")."""
    if index == 0:
        return False
    previous = reading.tokens[index - 1].text.rstrip(":：").removesuffix("は").removesuffix("है").strip()
    return previous.endswith(_CODE_WORDS)
