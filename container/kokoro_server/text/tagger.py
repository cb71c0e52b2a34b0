"""The normalizer's tagger: a text's tokens, grouped into spans, each with the form it is (``forms``).

At each token, the rules that can start there are tried first (the shared ones of ``tag_spans`` and the cue
modules, and the language family's own, ``grammar_*``), and the first that reads whole tokens wins; else the
token is read alone (``tag_token.classify``), with what its neighbours decide (the grammar's first: four digits
after "in" are a year in English). One pass, left to right, each rule bounded: linear.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

from . import grammar_english, grammar_romance, grammar_signs
from .forms import VULGAR, Code, Form, Joined, Letters, Number, Range, Said, Scaled
from .habits import Habits
from .locales import Locale
from .span_rule import Grammar, Reading, Rule, Span
from .tag_cues_time import time_rules
from .tag_imperial import imperial_rules
from .tag_money import money_rules, sign_money_rules
from .tag_qualifiers import sign_rules
from .tag_roman import ENDS_IN_NAME
from .tag_spans import numeric_rules
from .tag_token import classify
from .tokens import Token, tokenize

# Each family's grammar, by ``Locale.family``; the order of trying rules is ``_rules``'s and ``_span_at``'s.
GRAMMARS: dict[str, Callable[[Locale], Grammar]] = {
    "english": grammar_english.grammar,
    "romance": grammar_romance.grammar,
    "signs": grammar_signs.grammar,
}

_NUMERIC_STARTS = frozenset("+-−($€£¥₹.~≈<>≤≥±#") | frozenset(VULGAR)  # "¾ tsp"


@dataclass(frozen=True)
class Rules:
    numeric: tuple[Rule, ...]  # tried at a token that starts with a digit or a sign
    words: dict[str, tuple[Rule, ...]]  # tried at a word (in lower case, without a final dot)
    capitalized: tuple[Rule, ...]  # tried at a capitalized word
    alone: Callable[[Reading, int, Form | None], Form | None]  # the grammar's: what neighbours decide
    signs: tuple[str, ...] = ()  # currency signs that start an amount ("US$21.4", "₩5.2", "R$3"): numeric too


@cache
def rules_of(locale: Locale) -> Rules:
    signs = tuple(sign for sign in locale.currencies if sign[0] not in _NUMERIC_STARTS)
    return replace(_rules(locale), signs=signs)


def _rules(locale: Locale) -> Rules:
    grammar = GRAMMARS[locale.family](locale)
    words: dict[str, tuple[Rule, ...]] = dict(sign_rules(locale)) | sign_money_rules(locale)
    for word, found in (*time_rules(locale).items(), *grammar.words.items()):
        words[word] = words.get(word, ()) + found
    shared = numeric_rules(locale, money_rules(locale), grammar.spans)
    return Rules((*grammar.numeric, *imperial_rules(), *shared), words, grammar.capitalized, grammar.alone)


def tag(text: str, locale: Locale) -> tuple[list[Token], list[Span]]:
    """``text``'s tokens and the spans they form, in order; every token is in exactly one span."""
    tokens = tokenize(text, locale.keeps_dot)
    reading = Reading(text, tokens, locale)
    rules = rules_of(locale)
    spans: list[Span] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        span = _span_at(reading, index, rules) if token.core and not token.wide else None
        if span is None:
            form = _alone(reading, index, rules) if not token.wide else None
            span = Span(index, index, form, dot=_dot(token, locale))
        if isinstance(span.form, Range) and _after_between(reading, index):
            span = replace(span, form=replace(span.form, between=True))  # "between 2-4pm": two and four
        spans.append(span)
        index = span.last + 1
    return tokens, spans


def _after_between(reading: Reading, index: int) -> bool:
    before = reading.core(index - 1).lower()
    habits = reading.locale.habits
    after_article = before in habits.between_articles and reading.core(index - 2).lower() in habits.between_words
    return before in habits.between_words or after_article


def _dot(token: Token, locale: Locale) -> str:
    """Whether an abbreviation's dot ends the sentence: a title's never, "etc." before a capital too, the others
    only at the end of the text."""
    if token.core in locale.titles:
        return "never"
    return "capital" if token.core in _LISTS_END or token.core not in locale.abbreviations else "end"


_LISTS_END = frozenset({"etc.", "ecc."})  # "… photos, etc. Then": a list's end may be a sentence's


def _span_at(reading: Reading, index: int, rules: Rules) -> Span | None:
    core = reading.tokens[index].core
    found: tuple[Rule, ...] = ()
    if core[0].isdigit() or core[0] in _NUMERIC_STARTS or _signed_amount(core, rules.signs):
        found = rules.numeric
    key = core.lower().rstrip(".")
    found += rules.words.get(key, ())
    if key not in rules.words and (head := _BEFORE_DASH.match(key)) is not None:
        found += rules.words.get(head[1], ())  # "noon–2 p.m.": the rules of the word before the dash
    if key[:1] in "~≈<>" and len(key) > 1:
        found += rules.words.get(key[1:], ())  # "~R$ 30": about thirty reais
    if index + 1 < len(reading.tokens) and (core[0].isupper() or ENDS_IN_NAME.search(core)):
        found += rules.capitalized
    for rule in found:
        if (span := rule(reading, index)) is not None:
            return span
    return None


_BEFORE_DASH = re.compile(r"([^\W\d_]+)[-–—]\d")


def _signed_amount(core: str, signs: tuple[str, ...]) -> bool:
    return any(core.startswith(sign) and core[len(sign) : len(sign) + 1].isdigit() for sign in signs)


def _alone(reading: Reading, index: int, rules: Rules) -> Form | None:
    """The form of a token read alone, with what its neighbours decide: a currency after its amount and a called
    service's number, by the language's tables; then the language's grammar; then the shared rules (a card's
    last digits, a ZIP code, "a 5K run")."""
    core, locale = reading.tokens[index].core, reading.locale
    before, after = reading.core(index - 1), reading.core(index + 1)
    form = classify(core, locale, before, after)
    habits = locale.habits
    if isinstance(form, Code) and habits.currency_names and core in locale.currencies and before[-1:].isdigit():
        names = habits.currency_names  # "**1.234,56 €**": euros, not "euro"
        return Said((names.get(locale.currencies[core]) or names["USD"])[1])
    if isinstance(form, Number) and core in habits.service_numbers and _called(before, after, habits):
        return Code(core, "digits")  # "Call 911", "llame al 112"
    if (decided := rules.alone(reading, index, form)) is not None:
        return decided
    if (masked := _MASKED.fullmatch(core)) is not None or (core.isdigit() and _masked_lead(reading, index)):
        return Code(masked["digits"] if masked else core, "digits")  # "x4821", "(...4821)": the last digits of a card
    if isinstance(form, Number) and core.isdigit() and len(core) == 5 and after.lower() in _ZIP_AFTER:
        return Code(core, "digits")  # "the 94110 area": a ZIP code
    if isinstance(form, Scaled) and core.endswith("K") and _k_letter(form, before, after):
        return Joined((form.amount, Letters("K")))  # "a 5K run", "4K TV": the letter, not a thousand
    return form


def _called(before: str, after: str, habits: Habits) -> bool:
    """Whether a service's short number is called or named ("Call 911", "call NHS 111", "911 operators")."""
    before = before.lower()
    return before in habits.call_words or before in habits.service_names or after.lower() in habits.service_nouns


_MASKED = re.compile(r"[xX•]{1,12}(?P<digits>\d{4})")  # a star before digits is a keypad's ("*4821")


def _masked_lead(reading: Reading, index: int) -> bool:
    """Whether digits follow a mask written apart from them ("...4821", "…4821", "•••• 4821")."""
    token = reading.tokens[index]
    if not 3 <= len(token.core) <= 6 or index == 0:
        return False
    mask = reading.tokens[index - 1]
    glued = mask.end == token.start and mask.text.endswith(("...", "…", "*", "•"))
    return glued or mask.core in ("••••", "****")


_ZIP_AFTER = frozenset({"area", "zip", "region", "neighborhood", "district", "postcode", "code"})
_K_NOUNS = frozenset("run race walk tv tvs monitor monitors display displays screen screens video videos resolution "
                     "camera cameras streaming hdr uhd content".split())  # fmt: skip


def _k_letter(form: Scaled, before: str, after: str) -> bool:
    amount = form.amount
    small = amount.fraction is None and len(amount.whole) <= 2
    return small and (before.lower() in ("a", "the", "this", "that") or after.lower().rstrip(".,") in _K_NOUNS)
