"""Words that decide how what follows them is read, in Spanish, French, Italian and Portuguese (and the few of
Hindi and Japanese): after "código" or "pedido" a code is said digit by digit, after "puerta" a gate's letter
apart from its number, after "extensión" an extension, after "Enrique" a numeral is "octavo", after "siglo"
a century; French writes its hours "18 h 30" and its quarters "T3".

As in ``tag_cues``, each rule starts at its word and keeps the word as written.
"""

from __future__ import annotations

import re

from . import roman
from . import words_romance as words
from . import words_romance_cues as romance_cues
from .forms import (
    Code,
    Dotted,
    Form,
    Joined,
    Ordinal,
    Period,
    Range,
    Roman,
    Said,
    Time,
    Word,
)
from .locales import ROMANCE, Locale
from .span_rule import Build, Reading, Rule, pattern_rule
from .spoken_romance import count_before_noun
from .tag_clock import hours_glued, spaced_hour_letter
from .tag_telephone import NATIONAL_PHONES
from .words_gender import feminine

_NUMERAL = rf"[IVXLC]{{1,{roman.MAX_LETTERS}}}"
_AFTER = r"(?![\w'’-])"
_CODE = r"(?P<code>\d{2,6}(?:[ -]\d{2,4}){0,3}|(?=[A-Z0-9-]*\d)[A-Z0-9](?:[A-Z0-9-]{0,40}[A-Z0-9])?)(?![\w-]|[.,]\d)"


def _prefix(match: re.Match[str], group: str) -> Word:
    return Word(" ".join(match.string[match.start() : match.start(group)].split()))


def _ruler(lang: str) -> Build:
    def build(match: re.Match[str], reading: Reading, index: int) -> Form | None:
        number = roman.value(match["numeral"])
        name = " ".join(match["name"].split())
        if lang == "fr":  # "Louis XIV": quatorze; "François Ier": premier
            said: Form = Ordinal("1") if number == 1 else Roman(number, ordinal=False)
        elif lang == "it" or number <= 10:  # "Enrique VIII": octavo; "Alfonso XIII": trece; Italian always ordinal
            said = Ordinal(str(number), feminine=name in romance_cues.QUEENS)
        else:
            said = Roman(number, ordinal=False)
        return Joined((Word(name), said))

    return build


def _part(lang: str) -> Build:
    def build(match: re.Match[str], reading: Reading, index: int) -> Form | None:
        number = roman.value(match["numeral"])
        said: Form = Ordinal(str(number)) if lang == "it" else Roman(number, ordinal=False)
        return Joined((Word(match["name"]), said))

    return build


def _century(lang: str) -> Build:
    def build(match: re.Match[str], reading: Reading, index: int) -> Form | None:
        number = roman.value(match["numeral"])
        said: Form = Roman(number, ordinal=False) if lang in ("es", "pt_BR") else Ordinal(str(number))
        return Joined((Word(match["name"]), said)) if match["name"] else Joined((said, Word(match["after"])))

    return build


def _count(lang: str) -> Build:
    """A count before a noun whose gender is known agrees with it: "1 taza" una taza, "2 xícaras" duas
    xícaras, "½ cucharadita" media cucharadita, "1 comprimido" un comprimido; else left to the other rules."""

    def build(match: re.Match[str], reading: Reading, index: int) -> Form | None:
        count, noun = match["count"], match["noun"] or _phrase_said(match["phrase"], lang)
        half = count in ("½", "1/2")
        if not noun[0].islower() or _labelled(reading, index):
            return None  # "Parte 1 Introducción", "la opción 1 cuesta", "Calle Mayor 1 puerta": not a count
        gender = feminine(noun.split()[0], lang)  # "cuillère à café"
        if gender is None or not (gender or half or lang in ("es", "it")):
            return None  # a masculine noun changes a count only in Spanish ("un") and Italian ("uno studente")
        said = Said(count_before_noun(count, noun, gender, lang))
        if match["noun"]:
            return Joined((said, Word(noun)))
        head, _, rest = noun.partition(" ")  # "2 c. à s.": deux cuillères à soupe
        return Joined((said, Said(f"{head}s {rest}" if count != "1" and not half else noun)))

    return build


def _labelled(reading: Reading, index: int) -> bool:
    """Whether the number at ``index`` labels what is before it (a word that numbers things, or a name) rather
    than counting what follows."""
    before = reading.core(index - 1)
    if not before or reading.tokens[index - 1].trail.endswith((".", "!", "?", ":", ";", ",")):
        return False  # the number starts a sentence or a clause
    sentence_start = index == 1 or reading.tokens[index - 2].trail.endswith((".", "!", "?", ":"))
    return before.lower() in romance_cues.LABEL_WORDS or (before[0].isupper() and not sentence_start)


def _phrase_said(written: str, lang: str) -> str:
    return next(said for _, phrase, said in romance_cues.PHRASES[lang] if re.fullmatch(phrase, written))


def _code_after(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """A code after its word, digit by digit; after the words of a card's last digits ("terminada en 4821"), a
    year stays one ("la torre, terminada en 1889")."""
    ending = re.match(r"(?i)termin|acabad|finissant|se terminant|che termina|che finisce|com final", match.group())
    if ending and re.fullmatch(r"1[1-9]\d\d|20\d\d", match["code"]):
        return None
    return Joined((_prefix(match, "code"), Code(match["code"], "digits")))


def _postcode(match: re.Match[str], reading: Reading, index: int) -> Form | None:
    """ "75002 Paris", "28013 Madrid", "00184 Roma": five digits before a town; not "20000 Km"."""
    town = reading.core(index + 1)
    if reading.locale.unit(town) is not None or (
        reading.locale.language == "es" and not "01" <= match["code"][:2] <= "52"
    ):
        return None
    return Code(match["code"], "digits")


def _said(said: str) -> Build:
    return lambda match, reading, index: Said(said)


def romance_rules(locale: Locale) -> tuple[dict[str, tuple[Rule, ...]], tuple[Rule, ...], tuple[Rule, ...]]:
    """The rules of a Romance language: by the word that starts them, those that start at a number, and
    those that start at a capitalized word."""
    lang = ROMANCE[locale.language]
    rules: dict[str, list[Rule]] = {}

    def add(keys: list[str], rule: Rule) -> None:
        for key in keys:
            rules.setdefault(key.lower().rstrip("."), []).append(rule)

    extension_words = "ext\\.?|extensión|poste|interno|ramal"
    add(
        ["ext", "extensión", "poste", "interno", "ramal"],
        pattern_rule(
            rf"(?i:{extension_words})\s?(?P<n>\d{{1,6}})",
            lambda m, r, i: Joined((Said(words.EXTENSION[lang]), Code(m["n"], "digits"))),
        ),
    )
    code_words = romance_cues.CODE_WORDS[lang]
    add(
        [word.split()[0] for word in code_words.split("|")],
        pattern_rule(
            rf"(?:{code_words})(?:\s+(?:{romance_cues.CODE_QUALIFIERS[lang]}))?(?:\s+(?:es|est|è|é))?\s*:?\s*{_CODE}",
            _code_after,
        ),
    )
    for first, phrase, said in romance_cues.PHRASES[lang]:  # "p. ej.", "c. à café", "P. ej." at a sentence's start
        start = f"(?i:{phrase[0]})" if phrase[0] == "p" else phrase[0]  # "P. ej." too; "C/" is a street
        add([first], pattern_rule(f"{start}{phrase[1:]}", _said(said)))
    versions = romance_cues.VERSION_WORDS[lang]
    add(
        versions.split("|"),
        pattern_rule(
            rf"(?i:{versions})\s+(?P<version>\d{{1,3}}\.\d{{1,3}})",
            lambda m, r, i: Joined((_prefix(m, "version"), Dotted(tuple(m["version"].split(".")), "version"))),
        ),
    )
    places = romance_cues.PLACE_WORDS[lang]
    add(
        places.split("|"),
        pattern_rule(
            rf"(?i:{places})\s+(?P<code>[A-Z]{{1,2}}\d{{1,4}})\b",
            lambda m, r, i: Joined((_prefix(m, "code"), Code(m["code"]))),
        ),
    )
    rulers = romance_cues.RULERS[lang].replace("_", " ").split()
    add(
        [ruler.split()[0] for ruler in rulers],
        pattern_rule(rf"(?P<name>{'|'.join(rulers)})\s+(?P<numeral>{_NUMERAL})(?:er)?{_AFTER}", _ruler(lang)),
    )
    parts = romance_cues.PARTS[lang].split()
    add(parts, pattern_rule(rf"(?P<name>{'|'.join(parts)})\s+(?P<numeral>{_NUMERAL}){_AFTER}", _part(lang)))
    century = romance_cues.CENTURY[lang]
    add([century], pattern_rule(rf"(?P<name>{century})\s+(?P<numeral>{_NUMERAL}){_AFTER}", _century(lang)))
    # "mar. 3 juin", "sáb. 14/06": a weekday's short form before a date is the day's name
    weekdays = {**words.WEEKDAYS[lang], **words.WEEKDAYS_BEFORE_DATE[lang]}
    months = "|".join(sorted((re.escape(month) for month in locale.months), key=len, reverse=True))
    add(
        list(weekdays),
        pattern_rule(
            rf"(?i:(?P<day>{'|'.join(weekdays)}))\.?"
            rf"(?=,?\s{{1,3}}\d{{1,2}}(?:er|º|ª)?(?:\s{{1,3}}(?:de\s{{1,3}})?(?i:{months})\b|/\d))",
            lambda m, r, i: Said(weekdays[m["day"].lower()]),
        ),
    )
    phrases = "|".join(phrase for _, phrase, _ in romance_cues.PHRASES[lang])  # "1 c. à soupe": a spoon's short form
    add(  # "seg. a sex.", "lun. a vie.": a range of weekdays' short forms
        list(weekdays),
        pattern_rule(
            rf"(?i:(?P<first>{'|'.join(weekdays)}))\.\s(?:a|à|al|-|–)\s(?i:(?P<last>{'|'.join(weekdays)}))\.?",
            lambda m, r, i: Range(Said(weekdays[m["first"].lower()]), Said(weekdays[m["last"].lower()])),
        ),
    )
    numeric: list[Rule] = [
        pattern_rule(
            rf"(?P<count>\d{{1,3}}(?:\.\d{{3}}){{0,2}}|½|1/2)[ \u00a0]"
            rf"(?:(?P<noun>[^\W\d_]{{2,}})(?![\w'’-])|(?P<phrase>{phrases}))",
            _count(lang),
        ),
        # "las 14:30 h", "às 9:00 h": the hour's sign after a time says nothing more
        pattern_rule(r"(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)\s?h\.?", lambda m, r, i: Time(int(m["h"]), int(m["m"]))),
        # "el 3T de 2024", "3T24": a quarter, as Spanish, Italian and Portuguese reports write it
        pattern_rule(
            r"(?P<n>[1-4])T(?:(?P<short>\d\d)|\s(?:de\s|del\s)?(?P<year>(?:19|20)\d\d))?",
            lambda m, r, i: Period("Q", int(m["n"]), m["year"] or (f"20{m['short']}" if m["short"] else None)),
        ),
    ]
    numeric.extend(NATIONAL_PHONES.get(romance_cues.COUNTRY[lang], ()))
    if lang in ("fr", "es", "it"):  # "75002 Paris", "28013 Madrid": a postcode before its town, digit by digit
        numeric.append(pattern_rule(r"(?P<code>\d{5})(?=\s+[A-ZÉ][a-zé]+)", _postcode))
    if lang != "fr":  # "18h30", "2h15": Portuguese, Spanish and Italian write it so too
        numeric.append(pattern_rule(r"(?P<h>\d{1,2})h(?P<m>[0-5]\d)", hours_glued))
    if lang == "fr":
        numeric.append(pattern_rule(r"(?P<h>\d{1,2})\s?h(?:\s?(?P<m>[0-5]\d))?", spaced_hour_letter))
        add(
            [f"t{n}" for n in range(1, 5)],
            pattern_rule(
                r"T(?P<n>[1-4])(?:\s(?P<year>(?:19|20)\d\d))?",
                lambda m, r, i: Period("Q", int(m["n"]), m["year"]),
            ),
        )
    capitalized = (
        pattern_rule(rf"(?P<numeral>{_NUMERAL})(?:e|ème|er|º)?\s+(?P<after>{century})\b(?P<name>)", _century(lang)),
    )
    return {key: tuple(found) for key, found in rules.items()}, tuple(numeric), capitalized
