"""What a token is by its shape alone: e-mail and web addresses, handles and hashtags, versions and
IP addresses, multipliers and sizes, ratios, and the periods of a business year ("Q3", "FY2026"); dates written in
numbers are ``tag_date``'s, and what is typed as code or mathematics is ``tag_math``'s. Each is one bounded pattern
matched on the whole token (``tag_token.classify`` asks for them in its order).
"""

from __future__ import annotations

import re

from .forms import (
    Code,
    Decade,
    Dimensions,
    Dotted,
    Electronic,
    Form,
    Joined,
    Letters,
    Number,
    Period,
    Range,
    Said,
    Times,
    Word,
)
from .locales import Locale

_ALGEBRA_SIGNS = frozenset("+ − =".split())  # around "5x": a term, not five times ("zoom 2x / 4x" stays)

# Top-level domains a web address ends in (and every two-letter country code).
TLDS = frozenset(
    "com org net edu gov mil int io ai app dev co info biz me tv us uk ca au de fr es it nl be ch at se no dk fi "
    "ie nz za in jp cn br mx ar cl pe ru pl pt gr cz hu ro tr il sg hk tw kr my ph id vn th ae sa eg ng ke "
    "cloud online site store shop tech xyz health news blog page ly to gg fm so".split()
)
_EMAIL = re.compile(r"[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")
_URL = re.compile(
    r"(?:(?P<scheme>https?|ftp)://)?(?P<host>(?:[\w-]{1,63}\.){1,8}(?P<tld>[A-Za-z]{2,24}))(?::\d{1,5})?"
    r"(?P<path>[/?#][^\s]{0,300})?",
)
_SCHEMED = re.compile(
    r"(?:https?|ftp|wss?|sftp)://[\w-]{1,63}(?:\.[\w-]{1,63}){0,8}(?::\d{1,5})?(?:[/?#][^\s]{0,300})?", re.IGNORECASE
)
_LOCALHOST = re.compile(r"localhost(?::\d{1,5})?(?:/[^\s]{0,300})?")  # "localhost:8080/admin"
_HANDLE = re.compile(r"@[A-Za-z_][\w.]{0,63}")
_HASHTAG = re.compile(r"#[^\W\d_][\w]{0,99}")
_NUMBERED_TAG = re.compile(r"#\d{1,4}(?:[A-Z][a-z]+){2,8}")
_HASH_CODE = re.compile(r"#(?P<code>[A-Z]{1,3}\d[\w-]{0,40}|\d[\w-]{0,40})")
_RATIO = re.compile(r"(?P<a>\d{1,3}):(?P<b>\d)")
_TIMES = re.compile(r"(?P<a>\d{1,4}(?:\.\d{1,2})?)[x×]|[x×](?P<b>\d{1,4}(?:\.\d{1,2})?)")
_DIMENSIONS = re.compile(r"\d{1,5}(?:\.\d{1,2})?(?:[x×]\d{1,5}(?:\.\d{1,2})?){1,2}")
_IP = re.compile(r"(?P<ip>\d{1,3}(?:\.\d{1,3}){3})(?:/(?P<mask>\d{1,2}))?")
# A version, with a pre-release after it ("4.0.0-rc2", "v10.0.3b", "2.1.0-beta").
_PRE = r"(?:-?(?P<{name}>(?:rc|alpha|beta|a|b|dev|pre)(?:\.?\d{{1,3}})?))?"  # "-beta.3" too
_VERSION = re.compile(
    rf"(?P<v>[vV])?(?P<parts>\d{{1,5}}(?:\.\d{{1,5}}){{2,6}}){_PRE.format(name='pre')}"
    rf"|(?P<v2>[vV])(?P<parts2>\d{{1,5}}(?:\.\d{{1,5}})?){_PRE.format(name='pre2')}"
)
_ENGINE = re.compile(r"V(?:4|6|8|10|12|16)")  # "V8": a capital V, an engine's count of cylinders
_PERIOD = re.compile(  # "Q2'25", "3Q", "3Q24" (as analysts write a quarter and its year), "FY2026"
    r"(?P<letter>[QH])(?P<n>[1-4])(?:['’](?P<short>\d\d))?|(?P<n2>[1-4])Q(?P<short2>\d\d)?|FY\s?(?P<fy>\d{4}|\d\d)"
)


def electronic(core: str) -> Form | None:
    if "@" in core:
        if _EMAIL.fullmatch(core):
            return Electronic(core, "email")
        if _HANDLE.fullmatch(core):
            return Electronic(core, "handle")
        return None
    if core.startswith("#"):
        if _NUMBERED_TAG.fullmatch(core):
            return Electronic(core, "hashtag")  # "#100DaysOfCode": a tag that starts with its number
        if (match := _HASH_CODE.fullmatch(core)) is not None:
            short = match["code"].isdigit() and len(match["code"]) <= 4  # "#12": number twelve; "#48213" digit by digit
            return Code(match["code"], "paired" if short else "spelled", number_sign=True)
        return Electronic(core, "hashtag") if _HASHTAG.fullmatch(core) else None
    if _SCHEMED.fullmatch(core) or _LOCALHOST.fullmatch(core):
        return Electronic(core, "url")  # "https://foo.bar.zz/x", "http://localhost:8080": any host after a scheme
    match = _URL.fullmatch(core)
    if match is None:
        return None
    labels = match["host"].split(".")
    plain = not match["scheme"] and labels[0].lower() != "www" and not match["path"]
    if plain and (any(len(label) < 2 for label in labels) or labels[-1].isupper() or _numbers(labels)):
        return None  # "e.g", "A.B", "3.5.US" are not addresses
    if match["tld"].lower() not in TLDS and not (match["path"] or labels[0].lower() == "www" or _lower(labels)):
        return None  # a top-level domain nobody knows, in a token that may be a typo ("done.Next")
    return Electronic(core, "url")


def _lower(labels: list[str]) -> bool:
    """Labels as a new top-level domain's address is written: lower case, two letters or more ("acme.travel")."""
    return all(len(label) >= 2 and label == label.lower() and label[0].isalnum() for label in labels) and (
        labels[-1].isalpha()
    )


def _numbers(labels: list[str]) -> bool:
    return all(label.isdigit() for label in labels[:-1])


_RESOLUTION = re.compile(r"(?P<lines>480|576|720|1080|1440|2160|4320)(?P<scan>[pi])|(?P<k>[2458])K")
# What a "4K" names when it is a picture's size, not four thousand ("4K TV", "shot in 4K", not "a 4K bonus")
_PICTURE_WORDS = frozenset(
    "tv tvs video videos display displays monitor monitors screen screens resolution hdr uhd camera cameras"
    " projector content streaming footage blu-ray oled qled panel".split()
)


_SCREEN_SIZE = re.compile(r"\d{2,3}(?:\.\d)?(?:[\"″”]|-?inch|-in\.?)?")  # the inch mark may be set apart


def resolution(core: str, before: str, after: str) -> Form | None:
    """A picture's size: "1080p" (ten eighty p), "720i"; "4K", "8K" before a picture's word or after "in"."""
    match = _RESOLUTION.fullmatch(core)
    if match is None:
        return None
    if match["lines"]:
        return Joined((Code(match["lines"], "paired"), Word(match["scan"])))
    screen = _SCREEN_SIZE.fullmatch(before) is not None  # 'a 65" 4K model': after a screen's size
    if (
        before.lower() != "in"
        and after.lower() not in _PICTURE_WORDS
        and not _RESOLUTION.fullmatch(after)
        and not screen
    ):
        return None
    return Joined((Number(match["k"]), Word("K")))


def shaped(core: str, before: str = "", after: str = "") -> Form | None:
    """Multipliers ("2x", "x2"; "a 10x engineer" after an article), sizes ("1920x1080"), IP addresses, versions
    ("v2.4.1", "1.2.3"), ratios ("16:9") and periods ("Q3", "Q2'25", "FY2026"; "H1" alone is left to context)."""
    if (match := _TIMES.fullmatch(core)) is not None:
        if match["a"] and core[-1] == "x" and (before in _ALGEBRA_SIGNS or after in _ALGEBRA_SIGNS):
            return Joined((plain_number(match["a"]), Word("x")))  # "x² − 5x + 6": five x, a term of algebra
        return Times(plain_number(match["a"] or match["b"]), letter=before.lower() in ("a", "an", "the"))
    if _DIMENSIONS.fullmatch(core):
        return Dimensions(tuple(plain_number(side) for side in re.split("[x×]", core)))
    if core.endswith("s") and _DIMENSIONS.fullmatch(core[:-1]):  # "2x4s": boards
        return Dimensions(tuple(plain_number(side) for side in re.split("[x×]", core[:-1])), plural=True)
    if (match := _IP.fullmatch(core)) and all(int(part) <= 255 for part in match["ip"].split(".")):
        return Dotted(tuple(match["ip"].split(".")), "ip", suffix=match["mask"] or "")  # "10.0.0.0/8"
    if _ENGINE.fullmatch(core):
        return Joined((Letters("V"), Number(core[1:])))  # "a 5.7-liter V8": an engine's cylinders, not a version
    if (match := _VERSION.fullmatch(core)) is not None:
        parts = (match["parts"] or match["parts2"]).split(".")
        suffix = match["pre"] or match["pre2"] or ""
        return Dotted(tuple(parts), "version", prefix=match["v"] or match["v2"] or "", suffix=suffix)
    if (match := _RATIO.fullmatch(core)) is not None:
        return Range(Number(match["a"]), Number(match["b"]))
    if (match := _PERIOD.fullmatch(core)) is not None:
        if match["fy"]:
            return Period("FY", None, match["fy"])
        letter = match["letter"] or "Q"
        if letter == "H" and not match["short"]:
            return None  # "H1" alone may be a heading: read in context (``tag_cues_english``)
        return Period(letter, int(match["n"] or match["n2"]), match["short"] or match["short2"])
    return None


def plain_number(written: str) -> Number:
    """ "2", "1.5": the numbers of a multiplier or a size, written with a dot in every language."""
    whole, dot, fraction = written.partition(".")
    return Number(whole, fraction if dot else None)


# Words before "1:1" that make it a meeting of two ("our 1:1", "a weekly 1:1"), and after it a ratio's nouns.
_MEETING_BEFORE = frozenset("our my your their his her weekly biweekly monthly next first quick".split())
_RATIO_NOUNS = frozenset("ratio ratios scale mapping match copy replica aspect correspondence mix split".split())


def meeting(core: str, before: str, after: str, said: str) -> Form | None:
    """ "move our 1:1 to Wed.", "my 1:1s": a meeting of two, ``said`` as the language names it ("one-on-one";
    "one-to-one" in Britain)."""
    if core in ("1:1s", "1-on-1s"):
        return Said(f"{said}s")
    if core in ("1:1", "1-on-1") and before.lower() in _MEETING_BEFORE and after.lower() not in _RATIO_NOUNS:
        return Said(said)
    return None


_DIGIT_PLURAL = re.compile(r"(?P<digit>\d)(?P<apostrophe>['’])?s|(?P<digit2>\d\d)(?P<apostrophe2>['’])s")
_COUNTING = frozenset(("the", "and", "or", "two", "three", "four", "five", "six", "both", "all", "double", "triple"))


def digit_plural(text: str, locale: Locale, before: str) -> Form | None:
    """ "7's", "the 5s", "two 15's": a number's plural ("sevens", "fives", "fifteens"), said as a decade's is, where
    the language writes it. Bare, only a digit's and after a word that counts them ("the", "or", "two", "double"):
    "a 5s timeout" is seconds."""
    match = _DIGIT_PLURAL.fullmatch(text) if locale.habits.digit_plurals else None
    if match is not None and match["digit2"]:
        return Decade(match["digit2"])
    if match is None or not (match["apostrophe"] or before.lower() in _COUNTING):
        return None
    return Decade(match["digit"])
