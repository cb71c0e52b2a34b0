"""A sign written apart from the quantity it qualifies ("≥ 18", "≈ 40 km", "< 5 kg", "± 2"), and a business period
written apart from its year ("Q4 2025"): the rules that start at the sign or the period (``tagger`` tries them at
their word).
"""

from __future__ import annotations

import re

from .forms import Form, Signed
from .locales import Locale
from .span_rule import GAP, Reading, Rule, pattern_rule
from .tag_quantity import quantity
from .tag_spans import PERIOD_YEAR, number_pattern, spaced_measure, units_pattern


def _qualified(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "≥ 18", "~ 30", "< 5": a sign written apart from its quantity."""
    what = quantity(match["n"], reading.locale)
    return Signed(match["sign"], what) if what is not None else None


def qualified_measure(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "≈ 40 km", "< 5 kg": a sign written apart from the measure it qualifies."""
    measured = spaced_measure(match, reading, index)
    return Signed(match["sign"], measured) if measured is not None else None


def sign_rules(locale: Locale) -> dict[str, tuple[Rule, ...]]:
    """Rules that start at a sign written apart: "≥ 18", "≈ 30", and periods of a year ("Q4 2025")."""
    sign = r"(?P<sign><=|>=|[~≈<>≤≥±])"
    measure = pattern_rule(
        rf"{sign}{GAP}(?P<n>{number_pattern(locale)}){GAP}(?P<unit>(?:{units_pattern(locale)})(?:/\w{{1,6}})?)\.?",
        qualified_measure,
    )
    qualified = pattern_rule(rf"{sign}{GAP}(?P<n>\S{{1,24}}?)", _qualified)
    rules: dict[str, tuple[Rule, ...]] = {
        sign: (measure, qualified) for sign in ("~", "≈", "<", ">", "≤", "≥", "<=", ">=", "±")
    }
    for period in ("q1", "q2", "q3", "q4", "h1", "h2", "fy", "1q", "2q", "3q", "4q"):
        rules[period] = (PERIOD_YEAR,)
    return rules
