"""Words that decide how what follows them is read: after "order" a code is spelled, after "room" a number is
said as a room's, after "in" four digits are a year, after "Henry" a numeral is "the Eighth" (``tag_roman``), after
"flight" come an airline and its number; and the words of an address ("Apt 4B", "IL 62704": ``tag_address``).

Each rule starts at its word (``Rules.words``, by the word in lower case), so a text is tried against the
rules its own words call for, and each pattern has bounded repetition. The words themselves are kept as
written ("order number" stays; only "#" becomes "number").
"""

from __future__ import annotations

import re

from . import roman
from .forms import (
    Code,
    Form,
    Joined,
    Measure,
    Number,
    Period,
    Said,
    Word,
)
from .span_rule import Build, Reading, Rule, pattern_rule
from .tag_address import (
    SHORT_TYPES,
    WORDLIKE_STATES,
    WRITTEN_TYPES,
    address_unit,
    numbered_road,
    post_office_box,
    state_after_city,
    street_or_saint,
    street_type,
    zip_code,
)
from .tag_date import day_of_named_month, named_month_or_year, year_after_word
from .tag_roman import numbered_part, ruler
from .words_english import (
    ADDRESS_UNITS,
    AIRLINES,
    CODE_NAMES,
    CODE_WORDS,
    LIMIT_WORDS,
    MONTHS,
    NUMBERED_ROADS,
    PERIOD_WORDS,
    PLACES,
    STATES,
    TEMPERATURE_WORDS,
    TRIP_WORDS,
    UNITS,
    WEEKDAYS,
    YEAR_WORDS,
)


def _prefix(match: re.Match[str], group: str) -> Word:
    """What was written before ``group``, as written but for a number sign ("order #", "policy no." -> "order
    number", "policy number"; "Hwy" -> "highway")."""
    written = match.string[match.start() : match.start(group)]
    written = re.sub(r"\b(?i:hwy)\b\.?", "highway", written)  # "Hwy 101": highway one oh one
    written = re.sub(r"\b(?i:ref)\.", "reference", written)  # "ref. GB-55120": reference
    written = re.sub(r"\b(?i:rm)\b\.?", "room", written)  # "Rm. 204": room two oh four
    return Word(" ".join(re.sub(r"#|\b(?i:no|num)\.", " number ", written).split()))


def _code(reading_name: str) -> Build:
    def build(match: re.Match[str], reading: Reading, index: int) -> Form | None:
        if _idaho(match, reading, index):
            return None  # "Boise, ID 83702": the state and its ZIP code
        if reading.core(index - 1).lower().rstrip(".") in LIMIT_WORDS:
            return None  # "Min. order 25 units", "maximum order: $500": how much, not which order
        if match.groupdict().get("spaced"):
            return Joined((_prefix(match, "spaced"), Code(match["spaced"], reading_name)))
        return Joined((_prefix(match, "code"), Code(match["code"], reading_name)))

    return build


def _airline_flight(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "on DL 2214 departing ATL": an airline's flight without the word "flight", where the words around it are
    a trip's ("AA 24 pack", "the LX 100 camera" are not); the window is bounded, as every rule is."""
    around = range(max(0, index - _TRIP_WINDOW), min(len(reading.tokens), index + _TRIP_WINDOW + 1))
    if not any(reading.core(near).lower().rstrip(".,") in TRIP_WORDS for near in around):
        return None
    return _code("flight")(match, reading, index)


_TRIP_WINDOW = 8  # tokens before and after


def _idaho(match: re.Match[str], reading: Reading, index: int) -> bool:
    written = reading.tokens[index]
    after_city = index > 0 and reading.tokens[index - 1].trail.endswith(",")
    return written.core == "ID" and after_city and re.fullmatch(r"\d{5}(?:-\d{4})?", match["code"]) is not None


def _extension(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    head = _prefix(match, "x").text
    return Joined(
        tuple(part for part in (Word(head) if head else None, Said("extension"), Code(match["n"], "digits")) if part)
    )


def _card_ending(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    prefix = _prefix(match, "code").text.rstrip("*•xX ")  # "ending ***8830": the mask is not said
    return Joined((Word(prefix), Code(match["code"], "digits")))


def _half(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Word(match["word"]), Period("H", int(match["n"]), None)))


def _number_sign(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    from .tag_quantity import read_number

    if match["code"]:  # "Policy no. HX-2047-B": number, then the code
        return Joined((Said("number"), Code(match["code"])))
    number = read_number(match["n"], reading.locale)
    return Joined((Said("number"), number)) if number is not None else None


def _weekdays(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    def say(part: re.Match[str]) -> str:
        if part["day"]:
            return WEEKDAYS[part["day"]]
        between = part["between"].strip()
        return " to " if between in "-–—" else " and " if between in "&/" else part.group()

    return Said(_WEEKDAY_PARTS.sub(say, match["days"]))


def _day_after(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "on Tue", "by Wed.", "on Fri & Sat": a weekday's short form after a word that takes a day."""
    return Joined((Word(match["word"]), _weekdays(match, reading, index) or Said(match["days"])))


def _weekday_before_date(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Said(WEEKDAYS[match["days"].rstrip(".")] + match["comma"])


def _temperature(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    degrees = Number(match["n"].lstrip("-−"), negative=match["n"][0] in "-−")
    return Joined((Word(match["word"]), Measure(degrees, f"°{match['unit']}")))


_MONTHS = {name: number for number, name in enumerate(MONTHS, start=1)}
_MONTH_NAMES = "|".join(sorted(MONTHS + [month[:3] for month in MONTHS] + ["Sept"], key=len, reverse=True))
_MONTHS |= {name[:3]: number for name, number in list(_MONTHS.items())} | {"Sept": 9}
_WEEKDAY_NAMES = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_DAY = rf"(?:{_WEEKDAY_NAMES})\.?"
_BETWEEN_DAYS = r"\s*(?:[-–—&/,]|to|through|thru|and|or)\s*"
_WEEKDAY_PARTS = re.compile(rf"(?P<day>{_WEEKDAY_NAMES})\.?|(?P<between>\s*[-–—&/]\s*)")
_UNIT_NAMES = "|".join(re.escape(unit) for unit in sorted(UNITS, key=len, reverse=True))
# "tracking 7749 2210 5531": a code typed in groups of digits (three or more each, so "order 12 of 20" is not one)
_SPACED_CODE = r"(?P<spaced>\d{3,6}(?: \d{3,6}){1,5})(?![\w-]|[.,]\d)"
_CODE = r"(?P<code>(?=[A-Z0-9-]*\d)[A-Z0-9](?:[A-Z0-9-]{0,40}[A-Z0-9])?)(?![\w.,]\d)"


def english_rules() -> dict[str, tuple[Rule, ...]]:
    """The rules that start at an English word, by the word in lower case."""
    rules: dict[str, list[Rule]] = {}

    def add(words: str | list[str], rule: Rule) -> None:
        for word in words.split("|") if isinstance(words, str) else words:
            rules.setdefault(word.split()[0].lower().rstrip("."), []).append(rule)

    add(
        "verification|security|access|confirmation|one-time|one|login|sign-in|2fa|otp|passcode|pin|code",
        pattern_rule(
            rf"(?i:{CODE_NAMES})(?:\s+(?:is|was))?\s*:?\s*(?P<code>\d{{2,4}}(?:[ -]\d{{2,4}}){{1,3}})(?![\w-]|[.,]\d)",
            _code("digits"),
        ),
    )
    add("ext|ext.|extension", pattern_rule(r"(?P<x>)(?i:ext\.?|extension)\s?(?P<n>\d{1,6})", _extension))
    add("at|dial|call|or|press|to", pattern_rule(r"(?:at|dial|call|or|press|to) (?P<x>)x(?P<n>\d{2,6})", _extension))
    add(
        PLACES,
        pattern_rule(
            rf"(?i:{PLACES})(?:(?<=[Rr]m)\.)?(?:\s+(?:(?i:number|no\.|#)\s*)?(?:is\s+)?)(?P<code>[A-Z]{{0,2}}\d{{1,4}}[A-Z]?)(?![\w-]|[.,]\d|['’′\"”″]|\s?(?:{_UNIT_NAMES})\b|\s?(?i:[ap]\.?m)\b|\s?[x×]\s?\d)",
            _code("paired"),
        ),
    )
    add(
        list(NUMBERED_ROADS),
        pattern_rule(rf"(?P<word>{'|'.join(NUMBERED_ROADS)})\.?\s(?P<n>\d{{1,4}})(?P<letter>[A-Z])?\b", numbered_road),
    )  # "County Rd 12", "Hwy 101": the road in full, its number as a road's
    add(
        "flight",
        pattern_rule(
            r"(?i:flight)(?:\s+(?:is|was|number|no\.))?\s+(?P<code>(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?\d{1,4})",
            _code("flight"),
        ),
    )
    add(
        sorted(AIRLINES),
        pattern_rule(
            rf"(?P<code>(?:{'|'.join(sorted(AIRLINES))})\s?\d{{2,4}})(?![\w-]|[.,]\d|\s?(?:%|{_UNIT_NAMES})\b)",
            _airline_flight,
        ),
    )  # "on DL 2214": an airline's flight without the word "flight"
    add(
        "text|txt|reply|send",
        pattern_rule(
            r"(?i:text|txt|reply|send)\s+(?:[A-Z]{2,10}|[\"“][A-Z]{2,10}[\"”])\s+to\s+(?P<code>\d{5,6})"
            r"(?=[.,;:!?)]|\s+(?:to|for|and|or|now)\b|\s*$)",
            _code("digits"),
        ),
    )  # "Text STOP to 62226 to opt out": a short code, digit by digit (not "send NASA to 10000 schools")
    add(
        "ending|ends|last",
        pattern_rule(
            r"(?i:ending in|ends in|ending|last four digits|last 4 digits)(?:\s+(?:are|is))?\s+[*•xX]{0,12}"
            r"(?P<code>\d{4})",
            _card_ending,
        ),
    )
    add(
        CODE_WORDS,
        pattern_rule(
            rf"(?i:{CODE_WORDS})(?:(?<=[Rr]ef)\.)?(?:\s+(?i:number|no\.|num\.|code|id))?(?:\s+(?:is|was|are))?\s*(?:#|:)?\s*"
            rf"(?:{_SPACED_CODE}|{_CODE})",
            _code("digits"),
        ),
    )
    add(
        list(YEAR_WORDS),
        pattern_rule(
            rf"(?P<word>[A-Za-z]+)\s+(?P<year>1[1-9]\d\d|20\d\d)(?!\s*%|[-–]\d|\s+(?:[A-Z][\w'’-]*\s+){{1,3}}(?:{WRITTEN_TYPES})\b)",
            year_after_word,
        ),
    )  # "in 1998", but not "to 1600 Pennsylvania Ave": a house number
    add(
        "po|p.o.|pob",
        pattern_rule(r"(?:PO|P\.O\.|POB)\s?(?:Box\s)?(?P<code>\d{1,8})", post_office_box),
    )
    add(
        list(WEEKDAYS),
        pattern_rule(rf"(?P<days>{_DAY})(?P<comma>,?)(?=\s+(?:\d|(?:{_MONTH_NAMES})\b))", _weekday_before_date),
    )  # "Fri, Jan 9", "Sat 1–4 pm": a weekday's short form before its date or hours
    add(
        TEMPERATURE_WORDS,
        pattern_rule(
            r"(?P<word>[A-Za-z]+(?: of| to)?)\s+(?P<n>[-−]?\d{1,3})(?P<unit>[CF])\b",
            _temperature,
        ),
    )  # "reach 24C", "a high of 75F": degrees, not a seat
    add(list(PERIOD_WORDS), pattern_rule(r"(?P<word>[A-Za-z]+)\s+H(?P<n>[12])(?!\s?(?:['’]\d\d|\d{4}|FY))", _half))
    add(
        "no.|#",
        pattern_rule(
            rf"(?:[Nn]o\.|#)\s?(?:(?P<n>\d(?:[\d,]{{0,11}}\d)?(?:\.\d{{1,3}})?)(?![\w-]|,\d)|{_CODE})",
            _number_sign,
        ),
    )
    add(list(WEEKDAYS), pattern_rule(rf"(?P<days>{_DAY}(?:{_BETWEEN_DAYS}{_DAY})+)", _weekdays))
    add(
        "on|by|from|till|next|last|this|every|until",
        pattern_rule(
            rf"(?P<word>[A-Za-z]+) (?P<days>{_DAY}(?:{_BETWEEN_DAYS}{_DAY})*)(?!\w|,?\s+\d{{1,2}}/\d)", _day_after
        ),
    )
    add(
        list(ADDRESS_UNITS),
        pattern_rule(
            rf"(?P<word>{'|'.join(ADDRESS_UNITS)})\.?\s?#?\s?(?P<n>\d{{1,5}})(?P<letter>[A-Z])?", address_unit
        ),
    )
    add(
        list(STATES),
        pattern_rule(rf"(?P<state>{'|'.join(STATES)}),?\s+(?P<zip>\d{{5}})(?:-(?P<plus4>\d{{4}}))?", zip_code),
    )
    named = [state for state in STATES if state not in WORDLIKE_STATES]
    add(named, pattern_rule(rf"(?P<state>{'|'.join(named)})\b", state_after_city))
    rulers = "|".join(roman.RULERS)
    titles = "|".join(roman.TITLES)
    add(roman.RULERS, pattern_rule(rf"(?P<name>{rulers})\s+(?P<numeral>[IVXLC]{{1,9}})(?![\w'’-])", ruler))
    add(
        roman.TITLES,
        pattern_rule(
            rf"(?P<name>(?:{titles})\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?P<numeral>[IVXLC]{{1,9}})(?![\w'’-])", ruler
        ),
    )
    add(
        roman.PARTS,
        pattern_rule(
            rf"(?P<name>(?:{'|'.join(roman.PARTS)})\.?)\s+(?P<numeral>[IVXLCDM]{{1,9}})(?![\w'’-])", numbered_part
        ),
    )
    add(
        "wwii|wwi",
        pattern_rule(
            r"WW(?P<numeral>I{1,2})", lambda m, r, i: Said(f"World War {'Two' if len(m['numeral']) == 2 else 'One'}")
        ),
    )
    add("st.|dr.", street_or_saint)
    add(sorted(SHORT_TYPES), street_type)
    months = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))
    # As people type them too ("july 25 2012", "DEC 25"), but "may", which is mostly the verb.
    typed_names = [m.lower() for m in _MONTHS if m != "May"] + [m.upper() for m in _MONTHS]
    typed = "|".join(sorted((re.escape(m) for m in typed_names), key=len, reverse=True))
    add(
        list(_MONTHS),
        pattern_rule(
            rf"(?P<month>{months}|{typed})\.?\s+(?:(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
            rf"(?:[-–](?P<to>\d{{1,2}})(?:st|nd|rd|th)?"
            rf"|\s?[-–—]\s?(?P<month2>{months}|{typed})\.?\s+(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?)?"  # "Nov 28 – Dec 1"
            rf"(?!:)(?:,?\s+(?P<year>\d{{4}}))?"
            rf"|(?P<year2>\d{{4}}|['’]\d\d\b))",  # "Oct. '23" too
            named_month_or_year,
        ),
    )
    add(
        "the",
        pattern_rule(
            rf"(?i:the)\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{months}|{typed})\.?"
            rf"(?:,?\s+(?P<year>\d{{4}}))?",
            day_of_named_month,
        ),
    )
    return {word: tuple(found) for word, found in rules.items()}
