"""The normalizer's tagger: a text's tokens, grouped into spans, each with the form it is (``forms``).

At each token, the rules that can start there are tried first (``tag_spans`` for spans that start at a
number or a sign, ``tag_cues`` for those that start at a word), and the first that reads whole tokens wins;
else the token is read alone (``tag_token.classify``), with the little context a bare number needs (four
digits after "in", or before a verb, are a year). One pass, left to right, each rule bounded: linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

from . import words_english as english
from . import words_romance as romance
from . import words_romance_cues as romance_cues
from .forms import (
    VULGAR,
    Code,
    Decade,
    Form,
    Joined,
    Letters,
    Measure,
    Money,
    Number,
    Ordinal,
    Range,
    Said,
    Scaled,
    Year,
)
from .locales import ROMANCE, Locale
from .span_rule import Reading, Rule, Span
from .tag_address import ADDRESS, COMPASS_STREET, FLOOR, STREET
from .tag_clock import named_time_rules
from .tag_cues import english_rules
from .tag_cues_romance import EXTENSIONS, romance_rules, signs_rules
from .tag_cues_technical import STATUS, technical_rules
from .tag_cues_time import time_rules
from .tag_imperial import imperial_rules
from .tag_money import money_rules, sign_money_rules
from .tag_qualifiers import sign_rules
from .tag_roman import CAPITALIZED, ENDS_IN_NAME
from .tag_spans import numeric_rules
from .tag_token import classify
from .tokens import Token, tokenize
from .words_english import FUNCTION_WORDS

_NUMERIC_STARTS = frozenset("+-−($€£¥₹.~≈<>≤≥±#") | frozenset(VULGAR)  # "¾ tsp"
_BETWEEN = frozenset({"between", "entre", "tra", "fra"})


@dataclass(frozen=True)
class Rules:
    numeric: tuple[Rule, ...]  # tried at a token that starts with a digit or a sign
    words: dict[str, tuple[Rule, ...]]  # tried at a word (in lower case, without a final dot)
    capitalized: tuple[Rule, ...]  # tried at a capitalized word
    signs: tuple[str, ...] = ()  # currency signs that start an amount ("US$21.4", "₩5.2", "R$3"): numeric too


@cache
def rules_of(locale: Locale) -> Rules:
    signs = tuple(sign for sign in locale.currencies if sign[0] not in _NUMERIC_STARTS)
    return replace(_rules(locale), signs=signs)


def _rules(locale: Locale) -> Rules:
    words: dict[str, tuple[Rule, ...]] = dict(sign_rules(locale)) | sign_money_rules(locale)
    for word, found in time_rules(locale).items():
        words[word] = words.get(word, ()) + found
    if locale.language.startswith("en"):
        for word, found in (*english_rules().items(), *named_time_rules().items(), *technical_rules().items()):
            words[word] = words.get(word, ()) + found
        numeric = (
            ADDRESS,
            COMPASS_STREET,
            FLOOR,
            STATUS,
            *imperial_rules(),
            *numeric_rules(locale, money_rules(locale)),
        )
        return Rules(numeric, words, (CAPITALIZED, STREET))
    if locale.language in ROMANCE:
        by_word, numeric, capitalized = romance_rules(locale)
        for word, found in by_word.items():
            words[word] = words.get(word, ()) + found
        return Rules((*numeric, *imperial_rules(), *numeric_rules(locale, money_rules(locale))), words, capitalized)
    return Rules((*imperial_rules(), *numeric_rules(locale, money_rules(locale))), words | signs_rules(locale), ())


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
            span = Span(index, index, _alone(reading, index) if not token.wide else None, dot=_dot(token, locale))
        if isinstance(span.form, Range) and _after_between(reading, index):
            span = replace(span, form=replace(span.form, between=True))  # "between 2-4pm": two and four
        spans.append(span)
        index = span.last + 1
    return tokens, spans


def _after_between(reading: Reading, index: int) -> bool:
    before = reading.core(index - 1).lower()
    return before in _BETWEEN or (before in _ARTICLES_AFTER_BETWEEN and reading.core(index - 2).lower() in _BETWEEN)


_ARTICLES_AFTER_BETWEEN = frozenset({"the", "las", "los", "les", "le", "la", "el", "os", "as", "i"})


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


def _alone(reading: Reading, index: int) -> Form | None:
    """The form of a token read alone, with what its neighbours decide."""
    core, locale = reading.tokens[index].core, reading.locale
    before, after = reading.core(index - 1), reading.core(index + 1)
    form = classify(core, locale, before, after)
    if isinstance(form, Number) and core.isdigit() and len(core) == 4 and _a_year(core, before, after, locale):
        return Year(core)
    if locale.language.startswith("en") and (seconds := _seconds(core, form, before, after)) is not None:
        form = seconds  # "a 5s timeout", "retry every 30s": seconds, not a code or the thirties
    spelled = locale.language.startswith("en") or locale.language in ROMANCE
    if spelled and isinstance(form, Code) and core in locale.currencies and before[-1:].isdigit():
        return Said(_currency_plural(locale.currencies[core], locale))  # "**1.234,56 €**": euros, not "euro"
    if core in ("No.", "no.") and after[:1].isdigit() and locale.language.startswith("en"):
        return Said("number")  # "No. 5", "Ref no. 4471"
    named = core[:-1] in locale.weekdays and core.endswith(".") and before.lower() not in english.DETERMINERS | {"a"}
    if named and locale.language.startswith("en"):  # not "the Sun."
        return Said(locale.weekdays[core[:-1]])  # "due EOD Fri.": a weekday's short form with its dot
    month = locale.months.get(core[:-1]) if core.endswith(".") and locale.language.startswith("en") else None
    if month is not None and before.lower() in _BEFORE_A_MONTH:
        return Said(english.MONTHS[month - 1])  # "up 12% from Oct.": a month's short form after its preposition
    if form is None and before.lower() == "per" and locale.language.startswith("en"):
        if (unit := locale.unit(core.rstrip("."))) in english.UNITS and len(core) > 1:
            return Said(english.UNITS[unit][0])  # "$12–$15 per lb": per pound
    if core in english.ROUND_PLURALS and locale.language.startswith("en"):
        return Said(english.ROUND_PLURALS[core])  # "100s of users": hundreds
    if isinstance(form, (Money, Measure)) and _modifies(form) and _before_noun(before, after, locale):
        return replace(form, before_noun=True)  # "a $20 gift card": a twenty-dollar gift card
    if (masked := _MASKED.fullmatch(core)) is not None or (core.isdigit() and _masked_lead(reading, index)):
        return Code(masked["digits"] if masked else core, "digits")  # "x4821", "(...4821)": the last digits of a card
    said_digits = _code_before(reading, index) or _called(core, before, after, locale)
    said_digits = said_digits or (len(core) == 5 and after.lower() in _ZIP_AFTER)  # "the 94110 area": a ZIP code
    if isinstance(form, Number) and core.isdigit() and said_digits:
        return Code(core, "digits")
    noun_after = after[:1].islower() and after.rstrip(".").isalpha()
    if locale.language == "it" and isinstance(form, Measure) and form.unit == "°" and noun_after:
        return Ordinal(form.amount.whole if isinstance(form.amount, Number) else "0")  # "il 3° posto": terzo
    if form is None and core in english.BARE_TITLES and locale.language.startswith("en") and after[:1].isupper():
        return Said(english.BARE_TITLES[core])  # "Mr Jones": Mister Jones
    if isinstance(form, Scaled) and core.endswith("K") and _k_letter(form, before, after):
        return Joined((form.amount, Letters("K")))  # "a 5K run", "4K TV": the letter, not a thousand
    if isinstance(form, Decade) and before.lower() in _ARTICLES.get(locale.language, ()):
        return replace(form, after_article=True)  # "los 1980s": los años ochenta
    if locale.language == "es" and isinstance(form, Ordinal) and noun_after and after not in locale.abbreviations:
        return replace(form, before_noun=True)  # "el 1.º día": el primer día
    return form


_BEFORE_A_MONTH = frozenset("from in since until till through by of before after early late mid".split())
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


def _called(core: str, before: str, after: str, locale: Locale) -> bool:
    """Whether a short number is a service's, said digit by digit: "Call 911", "911 operators", "llame al 112"."""
    if core not in _SERVICE_NUMBERS.get(locale.language, ()):
        return False
    language = locale.language
    called = before.lower() in _CALL_WORDS.get(language, ()) or before.lower() in _SERVICE_NAMES.get(language, ())
    return called or after.lower() in _SERVICE_NOUNS.get(language, ())


_SERVICE_NUMBERS = {**english.SERVICE_NUMBERS, **{"es": romance_cues.SERVICE_NUMBERS["es"]}}
_CALL_WORDS = {"en-us": english.CALL_WORDS, "en-gb": english.CALL_WORDS, "es": romance_cues.CALL_WORDS["es"]}
_SERVICE_NOUNS = {"en-us": english.SERVICE_NOUNS, "en-gb": english.SERVICE_NOUNS}
_SERVICE_NAMES = {"en-gb": english.SERVICE_NAMES}
_ARTICLES = {"es": ("los",), "fr-fr": ("les", "des", "aux"), "it": ("gli", "negli", "degli", "agli", "dagli"),
             "pt-br": ("os", "nos", "dos", "aos", "pelos")}  # fmt: skip


def _a_year(core: str, before: str, after: str, locale: Locale) -> bool:
    """Whether four digits alone are a year: from 1900 to 2099, and not counting what follows ("2024 was a
    record year", "in 2010.", but "1999 people"); "the 1990 census" is a year before its noun."""
    if not locale.language.startswith("en") or not 1900 <= int(core) <= 2099:
        return False
    counted = after[:1].islower() and after.isalpha() and after not in FUNCTION_WORDS
    return not counted or before.lower() in ("the", "a", "this", "that", "last", "next")


_GLUED_SECONDS = re.compile(r"(?P<n>\d{1,4}(?:\.\d{1,3})?)s")
# Words around "30s" that make it seconds rather than a decade ("every 30s", "30s later"); "in her 30s" stays.
_SECONDS_BEFORE = frozenset("every to for after within wait waited in about under over than takes took lasts only just "
                            "another first last max min".split())  # fmt: skip
_SECONDS_AFTER = frozenset("timeout delay left later ago interval intervals cooldown window apart each per max total "
                           "long".split())  # fmt: skip


def _seconds(core: str, form: Form | None, before: str, after: str) -> Form | None:
    """ "5s", "1.5s", "120s": seconds, where the token is no decade nor a digit's plural ("the 5s"); a decade's
    shape ("30s") only where a word around it times something."""
    match = _GLUED_SECONDS.fullmatch(core)
    if match is None or re.fullmatch(r"\d00+", match["n"]):
        return None  # "100s of users": hundreds
    if isinstance(form, Decade):
        timed = before.lower() in _SECONDS_BEFORE or after.lower().rstrip(".,;:!?") in _SECONDS_AFTER
        if form.century is not None or not (timed or re.fullmatch(r"\d{1,3}(?:m|min)", before)):
            return None
    elif not isinstance(form, Code):
        return None
    whole, _, fraction = match["n"].partition(".")
    return Measure(Number(whole, fraction or None), "s")


def _currency_plural(code: str, locale: Locale) -> str:
    if locale.language in ROMANCE:
        names = romance.CURRENCIES[ROMANCE[locale.language]]
        return (names.get(code) or names["USD"])[1]
    return english.CURRENCIES.get(code, english.CURRENCIES["USD"])[1]


def _before_noun(before: str, after: str, locale: Locale) -> bool:
    """Whether an amount describes the noun after it: after "a" ("a $20 gift card", "a 5 km run"), or after
    "the", "this", "each"... before a noun that an amount names ("the $5 bill", "your $30 fee")."""
    if not locale.language.startswith("en"):
        return False
    if before.lower() in ("a", "an"):
        return True
    return before.lower() in english.DETERMINERS and after.lower().rstrip(".,;:!?") in english.AMOUNT_NOUNS


def _modifies(form: Money | Measure) -> bool:
    """Whether an amount can describe a noun: a whole one, or a measure's decimal ("a 2.0L engine"); not
    "a $2.50 coffee", said as an amount."""
    amount = form.amount
    if not isinstance(amount, Number):
        return False
    return (not amount.fraction or isinstance(form, Measure)) and not amount.negative


_CODE_WORDS = (
    "PIN",
    "OTP",
    "コード",
    "暗証番号",
    "認証コード",
    "確認コード",
    "कोड",
    "ओटीपी",
    "code",
    "Code",
    *EXTENSIONS.values(),
)


def _code_before(reading: Reading, index: int) -> bool:
    """A number right after the word for a code, in a language written without spaces (Japanese
    "認証コードは583201です"), or with them (Hindi "आपका OTP 583201 है"): said digit by digit."""
    if reading.locale.language not in ("hi", "ja") or index == 0:
        return False
    previous = reading.tokens[index - 1].text.rstrip(":：").removesuffix("は").removesuffix("है").strip()
    return previous.endswith(_CODE_WORDS)
