"""Amounts of money written apart from their currency, either way round ("12,99 €", "€ 42,97", "USD 250"), with
a magnitude before the sign or after the amount ("2,5 M€", "R$ 4 bilhões", "C$ 4 million", "US$21.4 trillion"),
and per what they are priced ("$95 pp": per person).

The rules are tried at a number (``money_rules``) or at a currency's sign or code (``sign_money_rules``), each a
bounded pattern matched from its token, as every span rule is (``tag_spans``).
"""

from __future__ import annotations

import re

from .forms import Form, Money, Number, Per, Range, Scaled, Signed
from .locales import Locale
from .span_rule import GAP, Reading, Rule, pattern_rule
from .tag_quantity import money_number
from .tag_spans import QUALIFIER, number_in, number_pattern, per_after, scale_words
from .tag_token import classify


def _money_apart(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """An amount and its currency written apart, either way round: "12,99 €", "20 USD", "€ 42,97", "USD 250",
    with a magnitude before the sign or after the amount ("2,5 M€", "R$ 4 bilhões", "C$ 4 million")."""
    sign = match["sign"]
    amount = money_number(match["n"], sign, reading.locale) or _amount(match["n"], reading)
    if amount is None or sign not in reading.locale.currencies:
        return None
    scale = match.groupdict().get("glued") or match.groupdict().get("scale")
    if scale and isinstance(amount, Number):
        amount = Scaled(amount, reading.locale.scales[scale])
    money = per_after(Money(amount, reading.locale.currencies[sign], sign=sign), match, reading)
    return Signed(match["q"], money) if match["q"] and money is not None else money


def _amount(written: str, reading: Reading) -> Number | Scaled | None:
    """An amount of money: a number, or a number and its magnitude ("4B $", "R$ 3,5M": M and B are never
    letters before a currency)."""
    number = number_in(written, reading)
    if number is not None:
        return number
    match = re.fullmatch(r"(?P<n>.+?)(?P<scale>k|K|M|B|bn)", written)
    number = number_in(match["n"], reading) if match else None
    if match is None or number is None or match["scale"] not in reading.locale.scales:
        return None
    return Scaled(number, reading.locale.scales[match["scale"]])


def _scale_word(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "$4.5 million", "€2 bn", "£6 b": an amount of money, then its magnitude in a word or written short."""
    scale = reading.locale.scales.get(match["scale"])
    form = classify(match["n"], reading.locale)
    if scale is None:
        return None
    if isinstance(form, Money) and isinstance(form.amount, Number):
        return Money(Scaled(form.amount, scale), form.currency, sign=form.sign)
    if isinstance(form, Range) and isinstance(form.low, Money) and isinstance(form.low.amount, Number):
        high = form.high.amount if isinstance(form.high, Money) else form.high
        if isinstance(high, Number):  # "$1.2–1.5 million": the magnitude is both sides'
            low = Money(Scaled(form.low.amount, scale), form.low.currency, sign=form.low.sign)
            return Range(low, Money(Scaled(high, scale), form.low.currency, sign=form.low.sign))
    return None


def _short_scales(locale: Locale) -> str:
    """The magnitudes written short and apart after an amount of money ("£6 bn", "¥40 b", "$3 M")."""
    short = [scale for scale in locale.scales if len(scale) <= 2 and scale not in ("T", "mi", "bi")]
    return "|".join(re.escape(scale) for scale in sorted(short, key=len, reverse=True)) or "(?!)"


def _glued_scales(locale: Locale) -> str:
    """The magnitudes written glued to a currency sign after an amount ("2,5 M€", "3 Md€")."""
    letters = [scale for scale in locale.scales if len(scale) <= 3 and scale[0].isupper()]
    return "|".join(re.escape(scale) for scale in sorted(letters, key=len, reverse=True)) or "(?!)"


def _priced_per(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "$95 pp", "€80 p.n.": an amount of money per person, per night, per year."""
    money = classify(match["n"], reading.locale)
    per = reading.locale.habits.priced_per[match["per"]]
    return Per(money, per) if isinstance(money, Money) else None


def _coded(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "$50 CAD", "$1,299.00 MXN": a sign many currencies share, then the code that says which."""
    form = classify(match["money"], reading.locale)
    code = reading.locale.currencies.get(match["code"])
    if not isinstance(form, Money) or code is None or code not in _SHARED_SIGNS[match["money"][0]]:
        return None
    return Money(form.amount, code, sign=match["code"])


# Signs that several currencies write, and the codes that may follow them.
_SHARED_SIGNS = {"$": frozenset({"USD", "CAD", "AUD", "NZD", "HKD", "SGD", "MXN"}),
                 "¥": frozenset({"JPY", "CNY"})}  # fmt: skip


def money_rules(locale: Locale) -> tuple[Rule, ...]:
    """The rules of money that start at a number: the amount, then its magnitude or its currency."""
    signs = "|".join(re.escape(sign) for sign in sorted(locale.currencies, key=len, reverse=True))
    scales, number = scale_words(locale), number_pattern(locale)
    rules = [
        pattern_rule(rf"(?P<money>[$¥]{number}){GAP}(?P<code>[A-Z]{{3}})\b", _coded),
        pattern_rule(
            rf"(?P<q>{QUALIFIER})?(?P<n>{number}(?:[kKMB]|bn)?){GAP}(?:(?P<scale>{scales}){GAP})?"
            rf"(?P<glued>{_glued_scales(locale)})?(?P<sign>{signs})(?:/(?P<per>\w{{1,10}}))?",
            _money_apart,
        ),
        pattern_rule(rf"(?P<n>\S{{1,24}}?){GAP}(?P<scale>{scales}|{_short_scales(locale)})", _scale_word),
    ]
    if locale.habits.priced_per:
        per = "|".join(re.escape(short) for short in sorted(locale.habits.priced_per, key=len, reverse=True))
        rules.append(pattern_rule(rf"(?P<n>\S{{1,24}}?)(?:{GAP})?(?P<per>{per})\.?", _priced_per))  # "£12.50pp"
    return tuple(rules)


def sign_money_rules(locale: Locale) -> dict[str, tuple[Rule, ...]]:
    """The rules of money that start at its sign or code written apart ("€ 42,97", "USD 250", "R$ 4 bilhões"),
    by the sign in lower case."""
    money = pattern_rule(
        rf"(?P<q>{QUALIFIER})?(?P<sign>\S{{1,4}}?){GAP}(?P<n>{number_pattern(locale)}(?:[kKMB]|bn)?)"
        rf"(?:{GAP}(?P<scale>{scale_words(locale)}))?(?:/(?P<per>\w{{1,10}}))?",
        _money_apart,
    )
    return {sign.lower(): (money,) for sign in locale.currencies}
