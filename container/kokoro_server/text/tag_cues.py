"""Words that decide how what follows them is read: after "order" a code is spelled, after "room" a number is
said as a room's, after "in" four digits are a year, after "Henry" a numeral is "the Eighth", after "flight" come
an airline and its number; and the words of an address ("123 Main St.", "Apt 4B", "IL 62704").

Each rule starts at its word (``Rules.words``, by the word in lower case), so a text is tried against the
rules its own words call for, and each pattern has bounded repetition. The words themselves are kept as
written ("order number" stays; only "#" becomes "number").
"""

from __future__ import annotations

import re

from . import roman
from .forms import (
    Address,
    Code,
    Date,
    Form,
    Joined,
    Measure,
    Number,
    Ordinal,
    Period,
    Range,
    Roman,
    Said,
    Word,
    Year,
)
from .span_rule import Build, Reading, Rule, Span, pattern_rule
from .tag_token import classify
from .words_english import (
    ADDRESS_UNITS,
    AIRLINES,
    CODE_NAMES,
    CODE_WORDS,
    COMPASS,
    MONTHS,
    NUMBERED_ROADS,
    PERIOD_WORDS,
    PLACES,
    STATES,
    STREET_TYPES,
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


def _year(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Word(match["word"]), Year(match["year"])))


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


def _month_day(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "March 3rd", "Jan. 15, 2024", "Sept 1", "March 2026": a month's name, then its day or its year."""
    month = reading.locale.months[match["month"].rstrip(".").capitalize()]  # "july 25 2012", as typed
    if match["day"] is None:
        return Date(match["year"], month, None)
    day = int(match["day"])
    if not 1 <= day <= 31:
        return None
    if match.groupdict().get("month2"):  # "Nov 28 – Dec 1": both dates whole
        last_day = int(match["day2"])
        last_month = reading.locale.months[match["month2"].rstrip(".").capitalize()]
        return Range(Date(None, month, day), Date(match["year"], last_month, last_day)) if last_day <= 31 else None
    if match["to"]:  # "May 3–7, 2026": the third to the seventh, then the year
        last: Form = Date(None, None, int(match["to"]))
        return Range(Date(None, month, day), Joined((last, Year(match["year"]))) if match["year"] else last)
    return Date(match["year"], month, day)


def _the_day_of(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "the 3rd of March": a day, then its month's name."""
    day = int(match["day"])
    if not 1 <= day <= 31:
        return None
    return Date(match["year"], reading.locale.months[match["month"].rstrip(".").capitalize()], day, day_first=True)


def _day_after(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "on Tue", "by Wed.", "on Fri & Sat": a weekday's short form after a word that takes a day."""
    return Joined((Word(match["word"]), _weekdays(match, reading, index) or Said(match["days"])))


def _weekday_before_date(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Said(WEEKDAYS[match["days"].rstrip(".")] + match["comma"])


def _temperature(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    degrees = Number(match["n"].lstrip("-−"), negative=match["n"][0] in "-−")
    return Joined((Word(match["word"]), Measure(degrees, f"°{match['unit']}")))


def _post_office_box(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Said("P O Box"), Code(match["code"], "digits")))


def _floor(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "4th Fl.", "12th Flr": the fourth floor."""
    return Joined((Ordinal(match["n"]), Said("floor")))


def _address(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "123 Main St.", "55 W 3rd ave", "W 42nd St." (a street without its number): the street type in
    full whatever its case."""
    groups = match.groupdict()
    before = match["before"].rstrip(".") if match["before"] else None
    after = match["after"].strip().rstrip(".") if groups.get("after") else None
    names = " ".join(match["names"].split())
    street = match["type"] if match["type"] in STREET_TYPES else match["type"].capitalize()
    return Address(groups.get("number") or "", groups.get("letter"), before, names, street, after)


def _address_unit(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Said(ADDRESS_UNITS[match["word"]]), Code(match["n"] + (match["letter"] or ""), "paired")))


def _numbered_road(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Said(NUMBERED_ROADS[match["word"]]), Code(match["n"] + (match["letter"] or ""), "paired")))


def _month_or_year(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "Oct. 23", "March 3–5, 2025": a day of the month; "Oct 2023", "Oct. '23": a month of a year."""
    if match["year2"] is None:
        return _month_day(match, reading, index)
    month = reading.locale.months[match["month"].rstrip(".").capitalize()]
    if match["year2"].isdigit():
        return Date(match["year2"], month, None)
    return Joined((Date(None, month, None), Year(match["year2"][1:], short=True)))


def _zip(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    parts: list[Form] = [Said(STATES[match["state"]]), Code(match["zip"], "digits")]
    if match["plus4"]:
        parts.append(Code(f"-{match['plus4']}", "digits"))
    return Joined(tuple(parts))


def _state_after_city(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "Austin, TX", "Cambridge, MA.": a state's code after its city and a comma, said as its name."""
    city = reading.tokens[index - 1] if index > 0 else None
    if city is None or not city.trail.endswith(",") or not city.core[:1].isupper() or not city.core.isalpha():
        return None
    return Said(STATES[match["state"]])


# State codes that are also words or letters people write in capitals ("Sure, OK.", "Hey, HI!")
_WORDLIKE_STATES = frozenset({"OK", "IN", "OR", "ME", "HI", "OH", "ID", "AS", "DC"})


def _ruler(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Word(" ".join(match["name"].split())), Roman(roman.value(match["numeral"]), ordinal=True)))


def _numbered(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Joined((Word(match["name"]), Roman(roman.value(match["numeral"]), ordinal=False)))


def _street_or_saint(reading: Reading, index: int) -> Span | None:
    """ "Main St." is a street; "St. Louis" a saint; "Oak Dr." a drive ("Dr. Patel" is left to the table)."""
    token = reading.tokens[index]
    if token.core not in ("St.", "Dr.", "St", "Dr"):
        return None
    before, after = reading.core(index - 1), reading.tokens[index + 1].text if index + 1 < len(reading.tokens) else ""
    named = bool(re.fullmatch(r"[A-Z][a-z]+", before)) and not _starts_sentence(reading, index - 1)
    if token.core.startswith("Dr"):
        return (
            Span(index, index, Said("Drive"), dot="end")
            if named and (not after or after[:1].islower() or after[:1] in ",;")
            else None
        )
    if named or _ordinal_name(before) or (not after[:1].isupper() and token.core == "St."):
        return Span(index, index, Said("Street"))
    if not after[:1].isupper():
        return None  # a bare "St" neither after a name nor before one: letters of a code, perhaps
    return Span(index, index, Said("Saint"), dot="never")


def _ordinal_name(word: str) -> bool:
    return re.fullmatch(r"\d{1,3}(?:st|nd|rd|th)", word) is not None  # "5th", "42nd": a numbered street


# The short forms of street types that "St" and "Dr" do not share a spelling with: "5th Ave", "Elm Blvd"
_SHORT_TYPES = {short for short, full in STREET_TYPES.items() if short != full and short not in ("St", "Dr")}


def _street_type(reading: Reading, index: int) -> Span | None:
    """A street type's short form after the street's name, a numbered one ("5th Ave and 42nd St.") or a
    capitalized word that does not start the sentence ("on Elm Blvd"); not a code's letters ("Sq 4")."""
    short = reading.tokens[index].core.rstrip(".")
    before = reading.core(index - 1)
    if short not in _SHORT_TYPES:
        return None
    named = re.fullmatch(r"[A-Z][a-z]+", before) is not None and not _starts_sentence(reading, index - 1)
    if not named and not _ordinal_name(before):
        return None
    return Span(index, index, Said(STREET_TYPES[short]))


def _starts_sentence(reading: Reading, index: int) -> bool:
    return index <= 0 or reading.tokens[index - 1].text.endswith((".", "!", "?"))


# A token that ends in a capitalized word after a sign or a digit ("0:Aa"): said, that word is a name.
ENDS_IN_NAME = re.compile(r"[^A-Za-z'’\s][A-Z][^\W\d_]*[a-z]$")


def _capitalized_numeral(reading: Reading, index: int) -> Span | None:
    """ "Rocky III", "Final Fantasy VII": two numeral letters or more after a capitalized word are a number;
    after a token that ends in one ("0:Aa VIII") too, so that reading what was said changes nothing."""
    name, numeral = reading.core(index), reading.core(index + 1)
    heading = name.lower() in _HEADINGS  # "CHAPTER XIV", "Part I": one numeral letter is enough
    if not re.fullmatch(r"[IVXL]{1,9}" if heading else r"[IVX]{2,9}", numeral) or name in _NOT_NAMES:
        return None
    word = heading or re.fullmatch(r"[A-Z][^\W\d_'’]*(?:['’][^\W\d_]+)?[a-z]", name) is not None
    if not word and ENDS_IN_NAME.search(name) is None:
        return None
    if reading.tokens[index].trail or reading.tokens[index + 1].text[
        len(reading.tokens[index + 1].lead) + len(numeral) :
    ][:1] in ("-", "'"):
        return None
    try:
        value = roman.value(numeral)
    except ValueError:
        return None
    first = Word(name) if word else classify(name, reading.locale) or Word(name)
    return Span(index, index + 1, Joined((first, Roman(value, ordinal=False))), trail=True)


_MONTHS = {name: number for number, name in enumerate(MONTHS, start=1)}
_MONTH_NAMES = "|".join(sorted(MONTHS + [month[:3] for month in MONTHS] + ["Sept"], key=len, reverse=True))
_MONTHS |= {name[:3]: number for name, number in list(_MONTHS.items())} | {"Sept": 9}
_HEADINGS = frozenset(
    "chapter part section volume book act scene phase stage level season episode article appendix type tier "
    "step round grade class title".split()
)
_NOT_NAMES = frozenset(
    "The A An My Your His Her Its Our Their This That These Those In On At By For Of To And Or With No Get Need".split()
)
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
        pattern_rule(rf"(?P<word>{'|'.join(NUMBERED_ROADS)})\.?\s(?P<n>\d{{1,4}})(?P<letter>[A-Z])?\b", _numbered_road),
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
            rf"(?P<word>[A-Za-z]+)\s+(?P<year>1[1-9]\d\d|20\d\d)(?!\s*%|[-–]\d|\s+(?:[A-Z][\w'’-]*\s+){{1,3}}(?:{_TYPES})\b)",
            _year,
        ),
    )  # "in 1998", but not "to 1600 Pennsylvania Ave": a house number
    add(
        "po|p.o.|pob",
        pattern_rule(r"(?:PO|P\.O\.|POB)\s?(?:Box\s)?(?P<code>\d{1,8})", _post_office_box),
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
            rf"(?P<word>{'|'.join(ADDRESS_UNITS)})\.?\s?#?\s?(?P<n>\d{{1,5}})(?P<letter>[A-Z])?", _address_unit
        ),
    )
    add(
        list(STATES), pattern_rule(rf"(?P<state>{'|'.join(STATES)}),?\s+(?P<zip>\d{{5}})(?:-(?P<plus4>\d{{4}}))?", _zip)
    )
    named = [state for state in STATES if state not in _WORDLIKE_STATES]
    add(named, pattern_rule(rf"(?P<state>{'|'.join(named)})\b", _state_after_city))
    rulers = "|".join(roman.RULERS)
    titles = "|".join(roman.TITLES)
    add(roman.RULERS, pattern_rule(rf"(?P<name>{rulers})\s+(?P<numeral>[IVXLC]{{1,9}})(?![\w'’-])", _ruler))
    add(
        roman.TITLES,
        pattern_rule(
            rf"(?P<name>(?:{titles})\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?P<numeral>[IVXLC]{{1,9}})(?![\w'’-])", _ruler
        ),
    )
    add(
        roman.PARTS,
        pattern_rule(
            rf"(?P<name>(?:{'|'.join(roman.PARTS)})\.?)\s+(?P<numeral>[IVXLCDM]{{1,9}})(?![\w'’-])", _numbered
        ),
    )
    add(
        "wwii|wwi",
        pattern_rule(
            r"WW(?P<numeral>I{1,2})", lambda m, r, i: Said(f"World War {'Two' if len(m['numeral']) == 2 else 'One'}")
        ),
    )
    add("st.|dr.", _street_or_saint)
    add(sorted(_SHORT_TYPES), _street_type)
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
            _month_or_year,
        ),
    )
    add(
        "the",
        pattern_rule(
            rf"(?i:the)\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{months}|{typed})\.?"
            rf"(?:,?\s+(?P<year>\d{{4}}))?",
            _the_day_of,
        ),
    )
    return {word: tuple(found) for word, found in rules.items()}


_COMPASS = "|".join(sorted(COMPASS, key=len, reverse=True))
# Street types as written, their short forms in lower case too ("9 Orchard blvd"); not "way" or "loop", words
_TYPES = "|".join(
    sorted({*STREET_TYPES, *(short.lower() for short in STREET_TYPES if len(short) <= 4 and short != "Way")},
           key=len, reverse=True)
)  # fmt: skip
# "Main", "O'Farrell", "5th": a street's name, letters only (a code is no name)
_NAME = r"(?:[A-Z][^\W\d_'’-]*(?:['’-][^\W\d_]+)*|\d{1,3}(?:st|nd|rd|th))"
FLOOR = pattern_rule(r"(?P<n>\d{1,3})(?:st|nd|rd|th)\s+(?:Fl|Flr|Floor)\b\.?", _floor)
ADDRESS = pattern_rule(
    rf"(?P<number>\d{{1,5}})(?P<letter>[A-Z])?\s+(?:(?P<before>(?:{_COMPASS})\.?)\s+)?"
    rf"(?P<names>(?:{_NAME}\s+){{1,3}})(?P<type>{_TYPES})\b\.?(?P<after>\s+(?:{_COMPASS})\b\.?)?",
    _address,
)


def _compass_street(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    return Address(match["number"], None, match["before"].rstrip("."), match["names"], "", None)


# A house number and a compass point before a street named without a type: "91 S. Broadway"
COMPASS_STREET = pattern_rule(
    rf"(?P<number>\d{{1,5}})\s+(?P<before>(?-i:[NSEW]|NE|NW|SE|SW)\.?)\s+(?P<names>[A-Z][a-z]{{2,}})"
    rf"(?=[,;)]|\.?$|\s+(?:#|{'|'.join(ADDRESS_UNITS)})\b)",  # where an address goes on: not "5 E Coli samples"
    _compass_street,
)
# A compass point before a named street, no house number: "W 42nd St.", "N Main St"
STREET = pattern_rule(
    rf"(?P<before>(?:{_COMPASS})\.?)\s+(?P<names>(?:{_NAME}\s+){{1,3}})(?P<type>{_TYPES})\b\.?", _address
)
CAPITALIZED = _capitalized_numeral
