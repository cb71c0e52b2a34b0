"""The Romance languages' grammar (Spanish, French, Italian, Portuguese), each with its own tables: their spans
and cue words (``tag_cues_romance``), and what decides a token read alone from its neighbours ("il 3° posto",
"los 1980s", "el 1.º día")."""

from __future__ import annotations

from dataclasses import replace

from . import words_romance_cues as romance_cues
from .forms import Decade, Form, Measure, Number, Ordinal
from .locales import ROMANCE, Locale
from .span_rule import Grammar, Reading
from .tag_cues_romance import romance_rules


def grammar(locale: Locale) -> Grammar:
    words, numeric, capitalized = romance_rules(locale)
    return Grammar(words=words, numeric=numeric, capitalized=capitalized, alone=_alone)


def _alone(reading: Reading, index: int, form: Form | None) -> Form | None:
    locale = reading.locale
    before, after = reading.core(index - 1), reading.core(index + 1)
    lang = ROMANCE[locale.language]
    noun_after = after[:1].islower() and after.rstrip(".").isalpha()
    if lang in romance_cues.ORDINAL_DEGREE and isinstance(form, Measure) and form.unit == "°" and noun_after:
        return Ordinal(form.amount.whole if isinstance(form.amount, Number) else "0")  # "il 3° posto": terzo
    if isinstance(form, Decade) and before.lower() in romance_cues.DECADE_ARTICLES[lang]:
        return replace(form, after_article=True)  # "los 1980s": los años ochenta
    before_noun = noun_after and after not in locale.abbreviations
    if lang in romance_cues.ORDINAL_BEFORE_NOUN and isinstance(form, Ordinal) and before_noun:
        return replace(form, before_noun=True)  # "el 1.º día": el primer día
    return None
