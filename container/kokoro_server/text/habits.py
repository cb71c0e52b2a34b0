"""What only some languages write or read, as each language's own table: the shared taggers ask a locale's
``Habits`` and never its name. The defaults are what every language shares: a word field left empty, a table left
empty or a switch left off turns its rule off, so a new language starts with none of them and takes on each as its
writers use it; ``powers`` is on, since every spelled language reads a power, and ``pi`` has the international
name. ``english_habits`` and ``romance_habits`` fill the fields from each language's word tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from . import words_english as english
from . import words_romance as romance
from . import words_romance_cues as romance_cues


@dataclass(frozen=True)
class Habits:
    # Shapes of a single token
    picture_sizes: bool = False  # "1080p", "a 4K TV"
    one_to_one: str = ""  # "our 1:1": a meeting of two, as the language names it
    elapsed_clock: bool = False  # "finished in 1:02:33": a clock's shape with seconds is how long
    ish: bool = False  # "3pm-ish", "10ish"
    even_odds: bool = False  # "a 50-50 chance", "it ended 1-1"
    age_bounds: frozenset[str] = frozenset()  # "under-16s": the age group
    keyboard_keys: Mapping[str, str] = field(default_factory=dict)  # "Ctrl+Alt+Del"
    roots: Mapping[str, str] = field(default_factory=dict)  # "√49"
    choice_word: str = ""  # "Reply Y/N": the word between two letters of a choice ("or")
    digit_plurals: bool = False  # "7's", "the 5s": sevens, fives
    moment_word: str = ""  # "2026-03-14T09:30": the word between a moment's day and its time ("at")
    powers: bool = True  # "10⁸", "2^10", "x²", "πr²", "1.5e-6": read here, not left to the voice's reader
    pi: str = "pi"  # "πr²"
    sums: bool = False  # "10-4=6": a sum said with its operators' names
    splits: bool = False  # "an 80/20 split": each part said
    zeroth: bool = False  # "0th": the language has a zeroth
    hour_letter: bool = False  # "18h30": hours written with an "h"
    hour_cues: frozenset[str] = frozenset()  # "at 0800": words after which four bare digits are a time
    glued_meter_nouns: frozenset[str] | None = None  # "the 100m final": "m" glued is meters only before these
    degree_typo: bool = False  # "72ºF": the ordinal sign typed for the degree sign
    # Spans
    priced_per: Mapping[str, str] = field(default_factory=dict)  # "£12.50pp": what a price's short "per" names
    stone: bool = False  # "11st 4lb": Britain's stone
    coordinates: bool = False  # "40.7°N": a coordinate with its compass point
    # Month names written capitalized: matched as written, plus the lower- and upper-case spellings people type
    # ("25 july", "5 DEC"); off, they are matched in any case.
    cased_months: bool = False
    spaced_thousands: bool = False  # "30 000 km", "1 500,50 €": thousands grouped with spaces
    day_article: str = ""  # "12-16 May": the article said before the first day of a range
    # Ranges
    week_letters: Mapping[str, str] = field(default_factory=dict)  # "M–F": the week's days by their letters
    sizes: Mapping[str, str] = field(default_factory=dict)  # "XS–XL": clothing sizes
    meridiem_ranges: bool = False  # "9a-5p"
    dotted_time_ranges: bool = False  # "9.00–17.30": a range of hours written with a dot
    # Words that make numbers a date, a time or a duration ("due 6/30", "at 15.30", "finished in 21:34"), each a
    # regular expression's alternatives; without date cues, the language has none of these rules.
    date_cues: str = ""
    ambiguous_date_cues: str = ""
    dotted_time_cues: str = ""
    duration_cues: str = ""
    time_range_joins: str = ""
    time_range_cues: str = ""
    date_verbs: str = ""  # "the deadline is 6/30": verbs between a date's cue and its date
    # A cue after which a common fraction may follow, with the words before it that make it one: "cut it by 1/2",
    # but "submit it by 3/4" is a date.
    fraction_after: Mapping[str, frozenset[str]] = field(default_factory=dict)
    between_words: frozenset[str] = frozenset()  # "between 2-4pm": a range said "two and four"
    between_articles: frozenset[str] = frozenset()  # "between the 3-5": what may stand between the word and it
    # Read alone
    currency_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # "1.234,56 €": euros, not "€"
    # Short numbers said digit by digit when called ("Call 911", "llame al 112"), the words that call them, the
    # services named between ("call NHS 111") and the nouns after them ("911 operators").
    service_numbers: frozenset[str] = frozenset()
    call_words: frozenset[str] = frozenset()
    service_names: frozenset[str] = frozenset()
    service_nouns: frozenset[str] = frozenset()


def english_habits(british: bool) -> Habits:
    language = "en-gb" if british else "en-us"
    return Habits(
        picture_sizes=True,
        one_to_one="one-to-one" if british else "one-on-one",
        elapsed_clock=True,
        ish=True,
        even_odds=True,
        age_bounds=english.AGE_BOUNDS,
        keyboard_keys=english.KEYS,
        roots=english.ROOTS,
        choice_word="or",
        digit_plurals=True,
        moment_word="at",
        sums=True,
        splits=True,
        zeroth=True,
        hour_cues=english.HOUR_CUES,
        glued_meter_nouns=english.METER_NOUNS,
        degree_typo=True,
        priced_per=english.PER_ABBREVIATIONS,
        stone=True,
        coordinates=True,
        cased_months=True,
        day_article="the",
        week_letters=english.WEEK_LETTERS,
        sizes=english.SIZES,
        meridiem_ranges=True,
        dotted_time_ranges=british,
        date_cues=english.DATE_CUES,
        ambiguous_date_cues=english.AMBIGUOUS_DATE_CUES,
        dotted_time_cues=english.DOTTED_TIME_CUES,
        duration_cues=english.DURATION_CUES,
        time_range_joins="to|and|until|till|-|–",
        time_range_cues="between",
        date_verbs="is|was|will be",
        fraction_after={"by": english.CHANGE_WORDS},
        between_words=frozenset({"between"}),
        between_articles=frozenset({"the"}),
        currency_names=english.CURRENCIES,
        service_numbers=english.SERVICE_NUMBERS[language],
        call_words=english.CALL_WORDS,
        service_names=english.SERVICE_NAMES.get(language, frozenset()),
        service_nouns=english.SERVICE_NOUNS,
    )


def romance_habits(lang: str) -> Habits:
    """``lang``: num2words' code of a Romance language ("es", "fr", "it", "pt_BR")."""
    return Habits(
        roots=romance.ROOTS[lang],
        pi=romance.PI[lang],
        hour_letter=lang in ("fr", "pt_BR"),
        spaced_thousands=lang == "fr",
        dotted_time_ranges=lang in ("es", "it", "pt_BR"),
        date_cues=romance_cues.DATE_CUES[lang],
        ambiguous_date_cues=romance_cues.AMBIGUOUS_DATE_CUES[lang],
        dotted_time_cues=romance_cues.DOTTED_TIME_CUES[lang],
        time_range_joins=romance_cues.TIME_RANGE_JOINS[lang],
        time_range_cues=romance_cues.TIME_RANGE_CUES[lang],
        between_words=romance_cues.BETWEEN[lang],
        between_articles=romance_cues.BETWEEN_ARTICLES[lang],
        currency_names=romance.CURRENCIES[lang],
        service_numbers=romance_cues.SERVICE_NUMBERS.get(lang, frozenset()),
        call_words=romance_cues.CALL_WORDS.get(lang, frozenset()),
    )


# Hindi's and Japanese's readers say numbers as written, powers and pi too.
SIGNS_HABITS = Habits(powers=False)
