"""The Romance languages' grammar (Spanish, French, Italian, Portuguese), each with its own tables: their spans
and cue words (``tag_cues_romance``), and what decides a token read alone from its neighbours ("1.234,56 €"
euros, "llame al 112", "il 3° posto", "los 1980s", "el 1.º día")."""

from __future__ import annotations

from dataclasses import replace

from . import words_romance as romance
from . import words_romance_cues as romance_cues
from .forms import Code, Decade, Form, Measure, Number, Ordinal, Said
from .locales import ROMANCE, Locale
from .span_rule import Grammar, Reading
from .tag_cues_romance import romance_rules


def grammar(locale: Locale) -> Grammar:
    words, numeric, capitalized = romance_rules(locale)
    return Grammar(words=words, numeric=numeric, capitalized=capitalized, alone=_alone)


def _alone(reading: Reading, index: int, form: Form | None) -> Form | None:
    core, locale = reading.tokens[index].core, reading.locale
    before, after = reading.core(index - 1), reading.core(index + 1)
    lang = ROMANCE[locale.language]
    if isinstance(form, Code) and core in locale.currencies and before[-1:].isdigit():
        names = romance.CURRENCIES[lang]  # "**1.234,56 €**": euros, not "euro"
        return Said((names.get(locale.currencies[core]) or names["USD"])[1])
    if isinstance(form, Number) and core.isdigit() and _called(core, before, lang):
        return Code(core, "digits")
    noun_after = after[:1].islower() and after.rstrip(".").isalpha()
    if lang in romance_cues.ORDINAL_DEGREE and isinstance(form, Measure) and form.unit == "°" and noun_after:
        return Ordinal(form.amount.whole if isinstance(form.amount, Number) else "0")  # "il 3° posto": terzo
    if isinstance(form, Decade) and before.lower() in romance_cues.DECADE_ARTICLES[lang]:
        return replace(form, after_article=True)  # "los 1980s": los años ochenta
    before_noun = noun_after and after not in locale.abbreviations
    if lang in romance_cues.ORDINAL_BEFORE_NOUN and isinstance(form, Ordinal) and before_noun:
        return replace(form, before_noun=True)  # "el 1.º día": el primer día
    return None


def _called(core: str, before: str, lang: str) -> bool:
    """Whether a short number is a service's, said digit by digit: "llame al 112"."""
    return core in romance_cues.SERVICE_NUMBERS.get(lang, ()) and before.lower() in romance_cues.CALL_WORDS[lang]
