"""What holds for the everyday forms that outside text writes, in every language whose numbers the normalizer
says: decades and their ranges, grouped ordinals, fractions with ordinal suffixes, hyphen-joined measures, money
with a magnitude, numeric dates after a cue, feet and inches, two-digit years, powers of units, web addresses,
dotted times, durations. Checked on generated texts (hypothesis), each form written as its language writes it:

- no ordinal or plural suffix is left standing after a spoken number ("four th", "eighty s", "cero º");
- no bracket or quote is left glued to a spoken token: only the brackets and quotes around the forms remain;
- a decimal inside a measure or an amount is said with the language's decimal word, never "dot".
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from kokoro_server.text.normalize import normalize

from .test_normalize_invariants import _SETTINGS, SPELLED, unsaid

_DECIMAL_MARK = {"en-us": ".", "en-gb": ".", "es": ",", "fr-fr": ",", "it": ",", "pt-br": ","}
_UNITS = {
    "en": ["inch", "mm", "cm", "kg", "oz", "lb", "ml", "GB", "km", "liter", "mile", "ft", "MHz", "kWh"],
    "romance": ["kg", "km", "cm", "mm", "ml", "GB", "kWh", "MHz", "min"],
}
_SCALES = {
    "en": ["million", "billion", "trillion", "bn", "M", "k"],
    "es": ["millones", "mil millones", "M"],
    "fr-fr": ["millions", "milliards", "M", "Md"],
    "it": ["milioni", "miliardi", "M", "mld"],
    "pt-br": ["milhões", "bilhões", "bi", "mi", "M"],
}
_SIGNS = {"en": ["$", "US$", "€", "£", "₩", "CA$", "R$", "₹", "¥"], "romance": ["€", "$", "US$", "R$", "£"]}
_DATE_CUES = {"en": ["due", "on", "as of", "until", "from", "by", "Mon"], "es": ["hasta el", "el", "desde"],
              "fr-fr": ["jusqu'au", "le", "du"], "it": ["entro il", "dal", "il"],
              "pt-br": ["até", "dia", "em"]}  # fmt: skip
_ORDINAL_MARKS = {"en-us": ["th", "st", "nd", "rd"], "en-gb": ["th", "st"], "es": [".º", ".ª", "º"],
                  "fr-fr": ["e", "ème", "er"], "it": ["º", "°", ".º"], "pt-br": ["º", "ª", ".º"]}  # fmt: skip
_SUFFIXES = {"en": {"th", "st", "nd", "rd", "s", "ths", "rds", "nds", "sts"},
             "romance": {"º", "ª", "s", "er", "ère", "ème", "ième", "eme", "ᵉ"}}  # fmt: skip


def _family(language: str) -> str:
    return "en" if language.startswith("en") else "romance"


@st.composite
def _everyday_form(draw: st.DrawFn, language: str) -> str:
    """One form of the classes above, written as that language writes it."""
    family, mark = _family(language), _DECIMAL_MARK[language]
    number = draw(st.integers(1, 999))
    decimal = f"{draw(st.integers(0, 99))}{mark}{draw(st.integers(1, 9))}"
    unit = draw(st.sampled_from(_UNITS[family]))
    scale = draw(st.sampled_from(_SCALES["en" if family == "en" else language]))
    sign = draw(st.sampled_from(_SIGNS[family]))
    cue = draw(st.sampled_from(_DATE_CUES["en" if family == "en" else language]))
    grouped = f"{draw(st.integers(1, 99))}{',' if family == 'en' else '.'}{draw(st.integers(0, 999)):03d}"
    century, decade = draw(st.sampled_from(["19", "20", ""])), draw(st.integers(0, 9))
    forms = [
        f"{draw(st.sampled_from(['', 'mid-', 'early-', 'late-']))}{century}{decade}0s",
        f"'{decade}0s", f"{century or '19'}{decade}0s–{(decade + 2) % 10}0s", f"'{draw(st.integers(0, 99)):02d}",
        f"{grouped}{draw(st.sampled_from(_ORDINAL_MARKS[language]))}",
        f"{draw(st.integers(1, 7))}/{draw(st.integers(2, 16))}{draw(st.sampled_from(['th', 'ths', 'rd', 'rds']))}",
        f"{decimal}-{unit}", f"{number}-{unit}", f"{decimal}{unit}", f"{decimal} {unit}",
        f"{sign}{decimal} {scale}", f"{sign} {decimal} {scale}", f"{decimal} {scale} {sign}", f"{decimal}{scale}{sign}",
        f"{sign}{decimal}-{sign}{decimal}", f"{cue} {draw(st.integers(1, 12))}/{draw(st.integers(1, 31))}",
        f"{draw(st.integers(4, 7))}'{draw(st.integers(0, 11))}\"", f"{number}\" TV",
        f"{draw(st.integers(1, 20))}' x 12'",
        f"{draw(st.integers(1, 9))} ft {draw(st.integers(0, 11))} in", f"{number} km³", f"{number} m2",
        f"https://{draw(st.sampled_from(['shop', 'a1', 'status']))}.example.zz/{draw(st.sampled_from(['x', 'deals']))}",
        f"at {draw(st.integers(1, 12))}.{draw(st.integers(0, 59)):02d} p.m.",
        f"in {draw(st.integers(1, 59))}:{draw(st.integers(0, 59)):02d}",
        f"({draw(st.integers(200, 999))}){draw(st.integers(200, 999))}-{draw(st.integers(1000, 9999))}",
        f"Call {draw(st.sampled_from(['911', '988', '112', '999', '311']))}",
        f"{draw(st.sampled_from(['½', '¼', '¾', '1 ½', '2 ½']))} {unit}", f"{draw(st.sampled_from('xyzab'))}²",
        f"{draw(st.sampled_from(['max', 'retry', 'user']))}_{draw(st.sampled_from(['count', 'id', 'name']))}",
        f"{draw(st.sampled_from(['0', '5', '10', '15']))}W-{draw(st.sampled_from(['20', '30', '40']))}",
    ]  # fmt: skip
    return draw(st.sampled_from(forms))


_WRAPPERS = [("", ""), ("(", ")"), ("[", "]"), ("“", "”"), ("«", "»"), ('"', '"'), ("'", "'")]
_AROUND = st.sampled_from("the plan total today for you ok".split())


@st.composite
def _everyday_text(draw: st.DrawFn, language: str) -> tuple[str, str]:
    """A text of everyday forms between plain words, each perhaps between brackets or quotes; and the brackets
    and quotes it holds around its tokens."""
    pieces, around = [], []
    for _ in range(draw(st.integers(1, 4))):
        form = draw(_everyday_form(language))
        opening, closing = draw(st.sampled_from(_WRAPPERS))
        if (
            opening
            and opening in "\"'"
            and (any(char in form for char in "\"'") or opening == "'" and form[0].isdigit())
        ):
            opening = closing = ""  # a mark inside the same quotes, or "'10 km'" (a year '10?), is anyone's guess
        pieces.append(f"{draw(_AROUND)} {opening}{form}{closing}")
        around.append(opening + closing)
    return " ".join(pieces) + ".", "".join(around)


def _marks(text: str) -> list[str]:
    """The brackets and double quotes of ``text``, and its single quotes at a token's start or end."""
    found = [char for char in text if char in '()[]{}"“”«»']
    for token in text.split():
        edges = token[: len(token) - len(token.lstrip("'’‘\"“([«"))] + token[len(token.rstrip("'’‘\"”)]».,")) :]
        found.extend(char for char in edges if char in "'’‘")
    return sorted(found)


def _number_words(language: str) -> frozenset[str]:
    from num2words import num2words

    lang = {"en-us": "en", "en-gb": "en", "es": "es", "fr-fr": "fr", "it": "it", "pt-br": "pt_BR"}[language]
    said = [num2words(n, lang=lang) for n in (*range(100), *range(100, 1000, 100), 1000, 10**6, 10**9)]
    return frozenset(word for text in said for word in re.findall(r"[^\W\d_]+", text.lower()))


@_SETTINGS
@given(st.sampled_from(SPELLED).flatmap(lambda language: st.tuples(st.just(language), _everyday_text(language))))
def test_no_suffix_stands_after_a_number_and_no_bracket_or_quote_is_left_glued(
    case: tuple[str, tuple[str, str]],
) -> None:
    language, (text, wrappers) = case
    said = normalize(text, language)
    assert not unsaid(said, language), f"{text!r} -> {said!r}"
    words = [word.strip("'’‘") for word in re.findall(r"[^\s,.;:!?()\[\]«»\"“”]+", said.lower().replace("-", " "))]
    numbers, suffixes = _number_words(language), _SUFFIXES[_family(language)]
    standing = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False) if a in numbers and b in suffixes]
    assert not standing, f"{text!r} -> {said!r}: {standing}"
    assert _marks(said) == sorted(wrappers), f"{text!r} -> {said!r}"


@st.composite
def _decimal_amount(draw: st.DrawFn, language: str) -> str:
    """A decimal inside a measure or an amount with a magnitude, written as that language writes it."""
    family, mark = _family(language), _DECIMAL_MARK[language]
    decimal = f"{draw(st.integers(0, 99))}{mark}{draw(st.integers(1, 9))}"
    unit = draw(st.sampled_from(_UNITS[family]))
    scale = draw(st.sampled_from([s for s in _SCALES["en" if family == "en" else language] if len(s) > 2]))
    sign = draw(st.sampled_from(_SIGNS[family]))
    shapes = [f"{decimal}{unit}", f"{decimal} {unit}", f"{decimal}-{unit}", f"{sign}{decimal} {scale}",
              f"{sign} {decimal} {scale}", f"{decimal} {scale} {sign}", f"{decimal}%"]  # fmt: skip
    return draw(st.sampled_from(shapes))


_DECIMAL_WORDS = {"en-us": "point", "en-gb": "point", "es": "coma", "fr-fr": "virgule", "it": "virgola",
                  "pt-br": "vírgula"}  # fmt: skip
_DOT_WORDS = {"en-us": "dot", "en-gb": "dot", "es": "punto", "fr-fr": "point", "it": "punto", "pt-br": "ponto"}


@_SETTINGS
@given(st.sampled_from(SPELLED).flatmap(lambda language: st.tuples(st.just(language), _decimal_amount(language))))
def test_a_decimal_in_a_measure_or_an_amount_is_said_with_the_languages_decimal_word(case: tuple[str, str]) -> None:
    language, form = case
    said = normalize(f"It is {form} today.", language).lower().replace("-", " ")
    words = said.split()
    assert _DECIMAL_WORDS[language] in words, f"{form!r} -> {said!r}"
    assert _DOT_WORDS[language] not in words, f"{form!r} -> {said!r}"


# Feminine nouns, singular and plural, and the masculine words a count before them must not end in.
_FEMININE_NOUNS = {"es": (("taza", "semana", "persona", "página"), ("tazas", "semanas", "personas", "páginas")),
                   "pt-br": (("xícara", "semana", "pessoa", "colher"), ("xícaras", "semanas", "pessoas", "colheres")),
                   "fr-fr": (("heure", "page", "chambre", "semaine"), ("heures", "pages", "chambres", "semaines")),
                   "it": (("compressa", "settimana", "persona", "tazza"),
                          ("compresse", "settimane", "persone", "tazze"))}  # fmt: skip
_MASCULINE_ENDS = {"es": r"(?:\buno|\bun|veintiún|veintiuno|ientos)", "pt-br": r"(?:\bum|\bdois|entos)",
                   "fr-fr": r"\bun", "it": r"(?:\buno|\bun)"}  # fmt: skip


@_SETTINGS
@given(st.sampled_from(sorted(_FEMININE_NOUNS)), st.integers(1, 999), st.integers(0, 3))
def test_a_count_agrees_with_the_feminine_noun_after_it(language: str, count: int, which: int) -> None:
    """ "1 taza": una taza; "21 páginas": veintiuna páginas; "200 pessoas": duzentas pessoas; "21 places": vingt
    et une places. Never a masculine count before a feminine noun."""
    singular, plural = _FEMININE_NOUNS[language]
    noun = (singular if count == 1 else plural)[which]
    said = normalize(f"Son {count} {noun}.", language)
    assert noun in said and re.search(rf"{_MASCULINE_ENDS[language]} {noun}\b", said) is None, f"{count} -> {said!r}"
