"""Signs, units, codes and short forms in Spanish, French, Italian and Brazilian Portuguese, said before the
numbers are (``normalize_romance`` says those after): "~30 €" (aproximadamente), "2x" (dos veces), "10k",
"3,5M €", "65-70 °F" and "9:00-17:00" (a / à), "5+ años" (más de), "C++", "@usuario", "#3", units ("km/h",
"GB", "kWh"), quarters ("Q3 2025": tercer trimestre), roman numerals ("Enrique VIII": octavo, "siglo XXI":
veintiuno, "Louis XIV": quatorze), address abbreviations ("C/", "Av.", "nº"), phone numbers and their
extension, and codes said digit by digit ("PIN 0420", "código 583 201").

A rule that leaves digits leaves them for ``normalize_romance``; every pattern is bounded and runs once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial

from num2words import num2words

from . import words_romance as words
from .normalize_romance_numbers import number_words, written_value
from .roman import MAX_LETTERS, value

Say = Callable[[re.Match[str], str], str]
_VALUE = r"\d{1,9}(?:[.,]\d{1,6})?"
_DASH = r"\s?[-–—]\s?"


def normalize_romance_kinds(text: str, lang: str) -> str:
    """``text`` with the kinds above in the words of ``lang`` (num2words' code: es, fr, it, pt_BR)."""
    for pattern, say in _rules(lang):
        text = pattern.sub(partial(_said_or_kept, say, lang), text)
    return text


def _said_or_kept(say: Say, lang: str, match: re.Match[str]) -> str:
    try:
        return say(match, lang)
    except (ArithmeticError, ValueError, KeyError, NotImplementedError, OverflowError):
        return match.group()


def _number(written: str, lang: str) -> str:
    return number_words(written_value(written), lang)


def _digits(written: str, lang: str) -> str:
    return " ".join(str(num2words(int(c), lang=lang)) for c in written if c.isdigit())


def _scaled(match: re.Match[str], lang: str) -> str:
    one, many = words.SCALES[lang][match["scale"][:1].replace("K", "k").replace("b", "B")]
    amount = match["n"]
    said = one if amount == "1" else f"{_number(amount, lang)} {many}"
    if lang == "it" and many == "mila":
        said = said.replace(" mila", "mila")  # "diecimila": Italian writes thousands in one word
    symbol = match["currency"] or match["after"]
    if symbol:
        currency = words.CURRENCIES[lang][symbol][1]
        if match["scale"] in "kK":
            return f"{said} {currency}"
        if lang == "fr" and currency[0] in "aeiouéh":
            return f"{said} d'{currency}"  # "millions d'euros"
        return f"{said} {words.OF[lang]} {currency}"
    return said


def _times(match: re.Match[str], lang: str) -> str:
    said = _number(match["n"], lang)
    if lang == "pt_BR":  # "vezes" is feminine: duas vezes, uma vez
        said = re.sub(r"\bdois$", "duas", said)
        if said == "um":
            return "uma vez"
    elif match["n"] == "1":
        return {"es": "una vez", "fr": "une fois", "it": "una volta"}[lang]
    return f"{said} {words.TIMES[lang]}"


def _unit(match: re.Match[str], lang: str) -> str:
    one, many = words.UNIT_WORDS[lang][match["unit"]]
    return one if match["n"] == "1" else f"{match['n']} {many}"


def _ordinal(number: int, lang: str) -> str:
    said = str(num2words(number, lang=lang, to="ordinal"))
    return said[:-1] if lang == "es" and said.endswith(("primero", "tercero")) else said  # tercer trimestre


def _period(match: re.Match[str], lang: str) -> str:
    noun = words.QUARTER[lang] if match["letter"] in "QT" else words.HALF[lang]
    said = f"{_ordinal(int(match['n']), lang)} {noun}"
    return f"{said}{words.OF_YEAR[lang]} {match['year']}" if match["year"] else said


def _ruler(match: re.Match[str], lang: str) -> str:
    number = value(match["numeral"])
    if lang == "fr":
        return f"{match['name']} {'premier' if number == 1 else num2words(number, lang=lang)}"
    if lang == "it" or number <= 10:  # "Enrique VIII": octavo; "Alfonso XIII": trece; Italian always ordinal
        said = str(num2words(number, lang=lang, to="ordinal"))
        if match["name"] in words.QUEENS:  # "Isabel II": segunda
            said = re.sub(r"o\b", "a", said)
        return f"{match['name']} {said}"
    return f"{match['name']} {num2words(number, lang=lang)}"


def _part(match: re.Match[str], lang: str) -> str:
    number = value(match["numeral"])
    said = num2words(number, lang=lang, to="ordinal") if lang == "it" else num2words(number, lang=lang)
    return f"{match['name']} {said}"


def _century(match: re.Match[str], lang: str) -> str:
    number = value(match["numeral"] or match["numeral2"])
    if lang in ("es", "pt_BR"):  # "siglo XXI": veintiuno
        said = str(num2words(number, lang=lang))
    else:  # "XXIe siècle": vingt et unième; "XXI secolo": ventunesimo
        said = str(num2words(number, lang=lang, to="ordinal"))
    return f"{said} {words.CENTURY[lang]}" if match["before"] else f"{match['name']} {said}"


def _phone(match: re.Match[str], lang: str) -> str:
    groups = re.findall(r"\d+", match["number"])
    if lang == "fr" and all(len(group) == 2 for group in groups):  # "01 23 45 67 89": said in pairs
        said = ", ".join(_pair(group, lang) for group in groups)
    else:
        said = ", ".join(_digits(group, lang) for group in groups)
    if match["number"].startswith("+"):
        said = f"{words.PLUS[lang]} {said}"
    return said + (f", {words.EXTENSION[lang]} {_digits(match['ext'], lang)}" if match["ext"] else "")


def _pair(group: str, lang: str) -> str:
    return _digits(group, lang) if group.startswith("0") else str(num2words(int(group), lang=lang))


def _spaced_code(match: re.Match[str], lang: str) -> str:
    groups = re.split(r"[\s-]", match["code"])
    return f"{match['word']}{match['between']}{', '.join(_digits(group, lang) for group in groups)}"


@cache
def _rules(lang: str) -> tuple[tuple[re.Pattern[str], Say], ...]:
    units = "|".join(re.escape(u) for u in sorted(words.UNIT_WORDS[lang], key=len, reverse=True))
    rulers = "|".join(words.RULERS[lang].replace("_", " ").split())
    parts = "|".join(words.PARTS[lang].split())
    addresses = "|".join(re.escape(a) for a in sorted(words.ADDRESS_WORDS[lang], key=len, reverse=True))
    numeral = rf"[IVXLC]{{1,{MAX_LETTERS}}}"
    century = words.CENTURY[lang]
    said: list[tuple[str, Say]] = [
        # Phone numbers, with their extension, digit by digit (French in pairs).
        (
            r"(?<![\w+])(?P<number>\+\d{1,3}(?:[\s.-]\(?\d{1,5}\)?){2,5}|\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}"
            r"|0\d(?:[ .]\d{2}){4})(?:,?\s*(?:ext\.?|x|extensión|poste|interno|ramal)\s*(?P<ext>\d{1,6}))?(?![\w-])",
            _phone,
        ),
        (
            r"\b(?P<word>ext\.?|extensión|poste|interno|ramal)\s?(?P<n>\d{1,6})\b",
            lambda m, lang: f"{words.EXTENSION[lang]} {_digits(m['n'], lang)}",
        ),
        # Codes to type, digit by digit, in their groups.
        (
            rf"\b(?P<word>(?:{words.CODE_WORDS[lang]})(?:\s+(?:{words.CODE_QUALIFIERS[lang]}))?)"
            r"(?P<between>(?:\s+(?:es|est|è|é))?\s*:?\s*)"
            r"(?P<code>\d{2,6}(?:[ -]\d{2,4}){0,3})(?![\w-]|[.,]\d)",
            _spaced_code,
        ),
        # A place's letter apart from its number: "puerta B12" -> "puerta B 12".
        (
            rf"\b(?P<word>(?i:{words.PLACE_WORDS[lang]}))\s+(?P<letter>[A-Z]{{1,2}})(?P<n>\d{{1,4}})\b",
            lambda m, lang: f"{m['word']} {' '.join(m['letter'])} {m['n']}",
        ),
        # Ranges whose unit follows the second number.
        (
            rf"(?<![\w.,-])(?P<low>{_VALUE}|\d{{1,2}}:[0-5]\d){_DASH}(?=(?:{_VALUE})\s?(?:%|°|€|(?:{units})\b|[xkKMB]\b)|\d{{1,3}}\s[^\W\d_]|\d{{1,2}}:[0-5]\d\b|\d{{1,2}}\s?h\b)",
            lambda m, lang: f"{m['low']} {words.TO[lang]} ",
        ),
        (r"(?<![\w~])~\s?(?=(?:R\$|[$€£])?\s?\d)|≈\s?", lambda m, lang: f"{words.ABOUT[lang]} "),
        (r"(?<![<>\w])<\s?(?=[$€£]?\d)", lambda m, lang: f"{words.LESS_THAN[lang]} "),
        (r"(?<![<>\w])>\s?(?=[$€£]?\d)", lambda m, lang: f"{words.MORE_THAN[lang]} "),
        (r"(?<![\w.])(?P<n>\d{1,9})\+(?![\w+])", lambda m, lang: f"{words.MORE_THAN[lang]} {m['n']}"),
        (r"\b(?P<letter>[A-Z])\+\+(?![\w+])", lambda m, lang: f"{m['letter']} {words.PLUS[lang]} {words.PLUS[lang]}"),
        (
            r"\b(?P<a>[A-Z]{1,3})\s?[&+]\s?(?P<b>[A-Z]{1,3})\b",
            lambda m, lang: (
                f"{' '.join(m['a'])} {words.AND[lang] if '&' in m.group() else words.PLUS[lang]} {' '.join(m['b'])}"
            ),
        ),
        (r"(?<=\s)&(?=\s)", lambda m, lang: words.AND[lang]),
        (r"(?<![\w@])@(?=[A-Za-z_])", lambda m, lang: f"{words.AT_SIGN[lang]} "),
        (r"(?<![\w#])#\s?(?=\d)", lambda m, lang: f"{words.NUMBER_SIGN[lang]} "),
        (r"(?<![\w#])#(?=[A-Za-z])", lambda m, lang: "hashtag "),
        (r"(?<=\s)\+(?=\s)", lambda m, lang: words.PLUS[lang]),
        (r"(?<=[\w)] )=(?= [\w(-])", lambda m, lang: words.EQUALS[lang]),
        # Multipliers, sizes and magnitudes.
        (
            r"(?<![\w.])(?P<a>\d{1,5})\s?[x×]\s?(?P<b>\d{1,5})(?![\w×]|\.\d)",
            lambda m, lang: f"{m['a']} {words.BY[lang]} {m['b']}",
        ),
        (r"(?<![\w.,])(?P<n>\d{1,9}(?:[.,]\d{1,3})?)\s?[x×](?![\w×])", _times),
        (
            r"(?<![\w.,])(?:(?P<currency>R\$|[$€£])\s?)?(?P<n>\d{1,3}(?:[.,]\d{1,3})?)\s?(?P<scale>[kK]|M(?![\w])|B(?![\w])|bn)(?!\w)"
            r"(?:\s?(?P<after>R\$|[€$£]))?",
            _scaled,
        ),
        # Units.
        (rf"(?<![\w.,])(?P<n>\d{{1,9}}(?:[.,]\d{{1,6}})?)\s?(?P<unit>{units})(?![\w/])", _unit),
        # Quarters, halves and fiscal years.
        (
            r"\b(?P<letter>Q|T)(?P<n>[1-4])\b(?:\s(?P<year>(?:19|20)\d\d)\b)?"
            if lang == "fr"
            else r"\b(?P<letter>Q)(?P<n>[1-4])\b(?:\s(?P<year>(?:19|20)\d\d)\b)?",
            _period,
        ),
        (r"\b(?P<letter>H|S)(?P<n>[12])\s(?P<year>(?:19|20)\d\d)\b", _period),
        (r"\bFY\s?(?P<year>\d{4})\b", lambda m, lang: f"{words.FISCAL_YEAR[lang]} {m['year']}"),
        # Roman numerals.
        (rf"(?P<name>\b(?:{rulers}))\s+(?P<numeral>{numeral})(?:er)?\b(?![\w'’-])", _ruler),
        (rf"(?P<name>\b(?:{parts}))\s+(?P<numeral>{numeral})\b(?![\w'’-])", _part),
        (
            rf"(?P<name>\b{century})\s+(?P<numeral>{numeral})\b(?![\w'’-])|(?P<before>\b(?P<numeral2>{numeral})(?:e|ème|er|º)?)\s+{century}\b",
            _century,
        ),
        # Address and title abbreviations.
        (rf"(?<![\w./])(?P<short>{addresses})(?![\w/])", lambda m, lang: words.ADDRESS_WORDS[lang][m["short"]]),
    ]
    return tuple((re.compile(pattern), say) for pattern, say in said)
