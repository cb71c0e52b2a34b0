"""Feet and inches as they are written: with marks ("5'4\"", "6′2″", "5' 10\"", "12\" pizza", "10' x 12'") or
short forms ("6 ft 1 in", "5 ft. 10 in.", "2 in. thick", "a 5/16 in. key"). A height is said as people say it
("five foot four"), a length alone in its unit ("twelve inches"), and before its noun as a modifier ("a
sixty-five-inch TV").

The marks are quotes' shapes. A straight or curly double quote after a number is an inch mark only where no
quotation is open before it, so the closing quote of 'he said "call me at 5"' stays a quote; a single quote
after a number is a foot mark only before what a length in feet describes ("10' x 12'", "8' ceilings"). A mark
read is said, never left glued to the words of its number.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .forms import VULGAR, Dimensions, FeetInches, Form, Fraction, Joined, Measure, Number, Range, vulgar
from .span_rule import Reading, Rule, Span, pattern_rule
from .words_english import DETERMINERS, FUNCTION_WORDS

FOOT, INCH = "′", "″"  # the units' keys: the prime marks, which are written only for feet and inches
_INCH_MARKS = ('"', "”", "″", "''", "’’")
_HEIGHT = re.compile(r"(?P<ft>\d{1,2})['’′] ?(?P<in>\d{1,2}(?:\.\d{1,2})?)(?P<mark>\"|”|″|''|’’)")
_LENGTH = re.compile(
    rf"(?P<n>\d{{1,4}}(?:[.,]\d{{1,3}})?|\d{{0,3}}[{''.join(VULGAR)}]|\d{{1,2}}/\d{{1,2}})(?P<mark>\"|”|″|''|’’|'|’|′)"
)
# What follows a length in feet written with a single quote ("10' x 12'", "8' ceilings").
_FEET_BEFORE = re.compile(r"[ \t]?(?:x|×|by|tall|long|wide|high|deep|ceilings?|boat|ladder|fence|drop)\b")
_GAP = r"[ \t\u00a0\u202f]{1,3}"
_NOUN_AFTER = re.compile(
    r"[ \t](?!(?:and|or|nor|but|to|of|in|on|at|is|was|are|were|the|for|by|with|from|as|under|over|apart|even"
    r"|below|above|behind|ahead|off|out|up|down|into|onto|across|along|around|past|beyond|back|each|total|more"
    r"|less|long|away|then|than|too|so|if|when|while|per|plus|minus|max|min|left|right|apiece)\b)[a-z]{3,}\b"
)
# A single quote opening a quotation (at a word's start) or closing one (after a word or a number).
_QUOTE_MARK = re.compile(r"(?P<open>(?:^|(?<=[\s(\[]))['‘](?=\S))|(?P<close>(?<=\S)['’](?=[\s.,;:!?)\]]|$))")
_QUOTE_WINDOW = 200  # how far back an open quotation is looked for: bounded, as every rule is
_PAIRS = {'"': '"', "“": "”", "'": "'", "‘": "’"}  # an opening quote and the mark that would close it


def _single_quote_open(text: str, position: int) -> bool:
    """Whether a single quotation opened before ``position`` (within the window) is still open."""
    depth = 0  # in order: a possessive or a foot mark with no quotation open ("students'", "6'") closes nothing
    for mark in _QUOTE_MARK.finditer(text[max(0, position - _QUOTE_WINDOW) : position]):
        depth = depth + 1 if mark["open"] else max(0, depth - 1)
    return depth > 0


def _amount(written: str) -> Number | Fraction:
    """A length's number, or a vulgar fraction with its whole ('1½"': one and a half inches)."""
    if written[-1] in VULGAR:
        return vulgar(written[-1], written[:-1] or None)
    if "/" in written:  # '3/4"': three quarters of an inch
        top, bottom = written.split("/")
        return Fraction(top, bottom)
    return _number(written)


def _number(written: str) -> Number:
    whole, dot, fraction = written.replace(",", "").partition(".")
    return Number(whole, fraction if dot else None)


def _marked(reading: Reading, index: int, pattern: re.Pattern[str]) -> tuple[re.Match[str], int, int] | None:
    """``pattern`` matched from token ``index``'s core, with the token it ends in and how much of that token's
    trailing punctuation it read (the mark); ``None`` where it ends inside a core."""
    token = reading.tokens[index]
    match = pattern.match(reading.text, token.start + len(token.lead))
    if match is None:
        return None
    last = index
    while last + 1 < len(reading.tokens) and reading.tokens[last].end < match.end():
        last += 1
    ending = reading.tokens[last]
    core_end = ending.start + len(ending.lead) + len(ending.core)
    if not core_end <= match.end() <= ending.end:
        return None
    return match, last, match.end() - core_end


def _before_noun(reading: Reading, last: int, read: int) -> bool:
    """Whether the word after the length is the noun it describes ("a 65\" TV", "the 12\" pizza")."""
    after = reading.core(last + 1)
    rest = reading.tokens[last].trail[read:]
    noun = after.isalpha() or (after[:1].isdigit() and any(char.isalpha() for char in after))  # "a 65\" 4K TV"
    return not rest and noun and after.lower() not in FUNCTION_WORDS and after.lower() not in _EXTENTS


_EXTENTS = frozenset(
    "long wide tall high deep thick thin across apart away around diameter off short more less".split()
)  # '12" long'


def _height(reading: Reading, index: int) -> Span | None:
    """ "5'4\"", "5' 10\"", "6′2″": five foot four."""
    found = _marked(reading, index, _HEIGHT)
    if found is None:
        return None
    match, last, read = found
    if match["mark"] in ('"', "”") and reading.quotation_open(index, match["mark"]):
        return None
    return Span(index, last, FeetInches(Number(match["ft"]), _number(match["in"])), trail_read=read)


def _length(reading: Reading, index: int) -> Span | None:
    """ "12\"", "65″ TV", "10' x 12'": a length in inches or feet, written with its mark."""
    found = _marked(reading, index, _LENGTH)
    if found is None:
        return None
    match, last, read = found
    mark = match["mark"]
    if _PAIRS.get(reading.tokens[index].lead[-1:]) == mark:
        return None  # '"5"' and "'5'": a number in quotes
    if not match["n"][-1].isdigit() or "/" in match["n"]:
        if mark not in _INCH_MARKS:
            return None  # '1½"' and '3/8"' are inches; a fraction before a single quote closes a quotation
    feet = _FEET_BEFORE.match(reading.text, match.end()) or reading.core(index - 1) in ("x", "×", "by")
    if not feet and mark in ("'", "’"):  # "a 53' trailer": before a noun, unless a quotation is open ('hi 53')
        start = reading.tokens[index].start
        feet = _NOUN_AFTER.match(reading.text, match.end()) is not None and not _single_quote_open(reading.text, start)
    if mark in ("'", "’") and not feet:
        return None
    if mark in ('"', "”") and reading.quotation_open(index, mark):
        return None
    unit = INCH if mark in _INCH_MARKS else FOOT
    measure = Measure(_amount(match["n"]), unit, before_noun=_before_noun(reading, last, read))
    return Span(index, last, measure, trail_read=read)


_SIZE = re.compile(
    r"(?P<a>\d{1,3})(?P<ua>['’′\"”″]) ?[x×] ?(?P<b>\d{1,3})['’′\"”″](?: ?[x×] ?(?P<c>\d{1,3})['’′\"”″])?"
)


def _size(reading: Reading, index: int) -> Span | None:
    """ "10' x 12'", "8\" x 10\"": a size in feet or inches, "ten by twelve feet"."""
    found = _marked(reading, index, _SIZE)
    if found is None:
        return None
    match, last, read = found
    unit = INCH if match["ua"] in _INCH_MARKS else FOOT
    sides = tuple(Number(match[side]) for side in "abc" if match[side])
    return Span(index, last, Dimensions(sides, unit, _before_noun(reading, last, read)), trail_read=read)


def _spaced_height(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "6 ft 1 in", "5 ft. 10 in.": six foot one."""
    return FeetInches(Number(match["ft"]), _number(match["in"]))


_AMOUNT = r"(?P<whole>\d{1,3}(?:\.\d{1,3})?)?(?:(?(whole)[ \t]|)(?P<top>\d{1,2})/(?P<bottom>\d{1,2}))?"
# "in." after a number is inches where a word, a size or a pause follows it ("2 in. thick", "4 in. x 6 in.");
# before a capital it may end a sentence ("put 2 in."), so only a fraction is inches there.
_DOTTED_INCHES = re.compile(
    rf"(?:(?P<low>\d{{1,3}}(?:\.\d{{1,3}})?)[-–])?(?:{_AMOUNT}|(?P<vulgar>[{''.join(VULGAR)}])){_GAP}in\."
    rf"(?P<go>(?=[ \t]+[a-z(x×\d]|[,;)]))?"
)  # "3-6 in. of snow": a range, its unit on the high side


def _dotted_inches(reading: Reading, index: int) -> Span | None:
    found = _marked(reading, index, _DOTTED_INCHES)
    if found is None:
        return None
    match, last, read = found
    top, bottom = VULGAR[match["vulgar"]].split("/") if match["vulgar"] else (match["top"], match["bottom"])
    if top is None and match["whole"] is None:
        return None
    if match["low"] and top is not None and match["whole"] is None:  # "4-3/4 in.": four and three quarter inches
        return Span(index, last, Measure(Fraction(top, bottom, match["low"]), INCH), trail_read=read)
    if top is not None and not 0 < int(top) < int(bottom):
        return None  # "5/10 in.": not a fraction of an inch
    amount: Number | Fraction = Fraction(top, bottom, match["whole"]) if top else _number(match["whole"])
    if match["go"] is None and top is None and "." not in match["whole"]:
        return None
    modifier = reading.core(index - 1).lower() in (*DETERMINERS, "a", "an", "one") and reading.core(last + 1).isalpha()
    measure = Measure(amount, INCH, before_noun=modifier and not isinstance(amount, Fraction))
    if match["low"]:
        return Span(index, last, Range(_number(match["low"]), replace(measure, before_noun=False)), trail_read=read)
    return Span(index, last, measure, trail_read=read)


def imperial_rules() -> tuple[Rule, ...]:
    """The rules of feet and inches, tried at a token that starts with a digit."""
    spaced = pattern_rule(
        rf"(?P<ft>\d{{1,2}}){_GAP}(?:ft\.?|feet|foot){_GAP}(?P<in>\d{{1,2}}(?:\.\d{{1,2}})?){_GAP}(?:in\.?|inch|inches)",
        _spaced_height,
    )
    stone = pattern_rule(  # "12 st 4 lb", "9st 2lb": a weight in stone and pounds, as Britain gives it
        rf"(?P<st>\d{{1,2}})(?:{_GAP})?(?:st|stone)(?:,?{_GAP}|{_GAP}and{_GAP})(?P<lb>\d{{1,2}}(?:\.\d)?)(?:{_GAP})?"
        rf"(?:lbs?|pounds?)\b\.?",
        _stone,
    )
    return (_size, _height, _length, spaced, _dotted_inches, stone)


def _stone(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    if not reading.locale.habits.stone:
        return None  # stone is Britain's, and only English says it
    glued = match.group()[len(match["st"]) : len(match["st"]) + 2] == "st"
    if glued and match["st"].endswith("1") and not match["st"].endswith("11"):
        return None  # "your 1st 10 lbs": an ordinal ("9st 2lb" is no ordinal's spelling)
    whole, _, fraction = match["lb"].partition(".")
    return Joined((Measure(Number(match["st"]), "stone"), Measure(Number(whole, fraction or None), "lb")))
