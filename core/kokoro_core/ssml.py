"""The SSML this project reads, parsed into what is said: words (some read a given way), pauses and marks.

A text is SSML when it is asked to be (``"ssml": true``) or when it is a document that starts with
``<speak>``; plain text is never read as markup. The elements read (docs/ssml.md):

- ``speak`` (the root), ``p`` and ``s`` (a paragraph or sentence ends where they end);
- ``lang`` and ``xml:lang`` on ``speak``, ``p``, ``s`` and ``lang``: the text inside is read by that language's
  reader (its normalizer and G2P) and spoken by the document's voice (``Words.language``);
- ``break`` (``time`` such as ``700ms`` or ``1.5s``, or ``strength`` from ``none`` to ``x-strong``);
- ``say-as`` (``interpret-as``: characters, digits, cardinal, ordinal, date with a ``format``, time,
  telephone, currency), ``sub`` (``alias``), ``phoneme`` (``ph`` in ``alphabet`` ipa or x-kokoro): text
  read a given way, which stays as written in word marks and heard text;
- ``prosody`` (``rate``; ``volume`` in dB or a named level, applied as gain with a limiter; ``pitch`` is
  accepted and not applied), ``emphasis`` (accepted, read as it is);
- ``mark`` (``name``): it comes back in the stream at its audio offset.

Parsing is linear, by expat (through defusedxml, which refuses DTDs, entities and external references:
no expansion bomb, no fetch), and bounded: nesting, elements, marks and pause time have limits, and the
first thing past one refuses the document. Errors name the element, the line and column, and what is
allowed. The client reads the same parts for the text it shows as heard (``written_text``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, NoReturn

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

SSML_NAMESPACE = "http://www.w3.org/2001/10/synthesis"
XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace"
# xsi:schemaLocation on <speak>, as the W3C's examples and many templates write it: accepted, not read.
SCHEMA_INSTANCE = "{http://www.w3.org/2001/XMLSchema-instance}"
MAX_DEPTH = 16
MAX_ELEMENTS = 2000
MAX_MARKS = 500
MAX_MARK_NAME_CHARS = 128
MAX_BREAK_MS = 10_000  # one pause, as Amazon Polly allows
MAX_PAUSE_MS = 60_000  # all pauses of one document: silence is cheap to make, not to send and hear
MAX_READ_AS_CHARS = 400  # the text inside a say-as, sub or phoneme, and an alias or a ph
# A break's strength as a pause (milliseconds). The voice's own pause between two sentences is about
# a quarter of a second; these are the whole pause, at least that.
BREAK_STRENGTHS = {"none": 0, "x-weak": 100, "weak": 250, "medium": 400, "strong": 700, "x-strong": 1000}
PARAGRAPH_PAUSE_MS = BREAK_STRENGTHS["medium"]  # between two paragraphs, beyond a sentence's own pause
# Named volumes in dB: each step is about what a listener hears as clearly softer or louder (6 dB halves
# or doubles the amplitude); "silent" mutes. A dB change is relative to the enclosing volume.
VOLUMES = {
    "silent": float("-inf"),
    "x-soft": -12.0,
    "soft": -6.0,
    "medium": 0.0,
    "default": 0.0,
    "loud": 4.0,
    "x-loud": 8.0,
}
VOLUME_DB_RANGE = (-40.0, 20.0)  # a volume in dB outside this is refused (past it, speech is inaudible or all limiter)
RATES = {"x-slow": 0.6, "slow": 0.8, "medium": 1.0, "default": 1.0, "fast": 1.25, "x-fast": 1.5}
INTERPRET_AS = (
    "characters",
    "spell-out",
    "verbatim",
    "digits",
    "cardinal",
    "number",
    "ordinal",
    "date",
    "time",
    "telephone",
    "currency",
)
DATE_FORMATS = ("mdy", "dmy", "ymd", "md", "dm", "ym", "my", "y", "m", "d")
ALPHABETS = ("ipa", "x-kokoro")
EMPHASIS_LEVELS = ("strong", "moderate", "none", "reduced")
# Each element's attributes.
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "speak": ("version", "xml:lang", "xml:base", "xmlns"),
    "p": ("xml:lang",),
    "s": ("xml:lang",),
    "lang": ("xml:lang",),
    "break": ("time", "strength"),
    "say-as": ("interpret-as", "format", "detail"),
    "sub": ("alias",),
    "phoneme": ("ph", "alphabet"),
    "prosody": ("rate", "pitch", "volume"),
    "emphasis": ("level",),
    "mark": ("name",),
}
ELEMENTS = tuple(ATTRIBUTES)
_READ_AS = ("say-as", "sub", "phoneme")  # text only inside, read a given way
_EMPTY = ("break", "mark")
_TIME = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*")
_VOLUME = re.compile(r"\s*([+-]?)(\d+(?:\.\d+)?)\s*dB\s*")
_RATE = re.compile(r"\s*([+-]?)(\d+(?:\.\d+)?)\s*(%?)\s*")
_DOCUMENT = re.compile(r"\s*(?:<\?xml[^>]{0,200}\?>\s*)?(?:<!DOCTYPE\s+speak\b|<speak[\s>/])")
_PROLOG = re.compile(r"\s*<(?:\?xml|!DOCTYPE|speak[\s>/])")  # a document, not a fragment to wrap
_SPACE = re.compile(r"\s+")


class SsmlError(ValueError):
    """A document this project does not read: the message names what and where, and what is allowed."""


@dataclass(frozen=True)
class ReadAs:
    """How a piece of text is read: a ``say-as``, a ``sub`` or a ``phoneme``."""

    element: Literal["say-as", "sub", "phoneme"]
    value: str  # interpret-as, alias or ph
    format: str | None = None  # say-as's format, phoneme's alphabet
    detail: str | None = None


@dataclass(frozen=True)
class Words:
    """Text to say, as written; ``rate`` multiplies the utterance's speed; ``language`` (one of
    ``LANGUAGE_TAGS``' values) reads it in another language than the voice's, ``None`` in the document's."""

    written: str
    rate: float = 1.0
    read_as: ReadAs | None = None
    volume_db: float = 0.0  # louder by this much (-inf: silent)
    language: str | None = None


@dataclass(frozen=True)
class Pause:
    ms: int


@dataclass(frozen=True)
class Mark:
    name: str


@dataclass(frozen=True)
class SentenceEnd:
    """Where a ``p`` or an ``s`` ends: what follows is a new sentence."""


Part = Words | Pause | Mark | SentenceEnd


# The languages a reader exists for, as xml:lang names them (BCP 47: case does not matter; a region this table
# does not name falls back to its language), and the language each reads with.
LANGUAGE_TAGS = {"en": "en-us", "en-us": "en-us", "en-gb": "en-gb", "en-uk": "en-gb", "es": "es", "fr": "fr-fr",
                 "it": "it", "pt": "pt-br", "pt-br": "pt-br", "hi": "hi", "ja": "ja", "zh": "cmn",
                 "cmn": "cmn"}  # fmt: skip
_SCRIPT_SUBTAGS = {"hans", "hant", "latn", "jpan", "deva"}


READ_LANGUAGES = ("en-US", "en-GB", "es", "fr-FR", "it", "pt-BR", "hi", "ja", "zh")  # as an error names them


def language_of_tag(tag: str) -> str | None:
    """The reading language of an ``xml:lang`` value ("fr-FR" -> "fr-fr", "zh-Hans-CN" -> "cmn"), or ``None`` when
    no reader reads it."""
    parts = [part for part in tag.strip().lower().replace("_", "-").split("-") if part]
    if not parts or any(not part.isalnum() or len(part) > 8 for part in parts):
        return None
    parts = [part for part in parts if part not in _SCRIPT_SUBTAGS]
    for length in (2, 1):
        if (found := LANGUAGE_TAGS.get("-".join(parts[:length]))) is not None:
            return found
    return None


def is_ssml(text: str, asked: bool | None = None) -> bool:
    """Whether ``text`` is read as SSML: as asked, or when not asked, when it is a ``<speak>`` document."""
    return asked if asked is not None else _DOCUMENT.match(text[:256]) is not None


def as_document(text: str) -> str:
    """An SSML document or fragment as a document: a fragment is wrapped in ``<speak>``."""
    return text if _PROLOG.match(text[:256]) else f"<speak>{text}</speak>"


def parse_ssml(text: str) -> list[Part]:
    """The parts of an SSML document or fragment, in order; raises ``SsmlError``."""
    builder = _Builder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    builder.where = lambda: f"line {parser.parser.CurrentLineNumber}, column {parser.parser.CurrentColumnNumber + 1}"
    try:
        parser.feed(as_document(text))
        parser.close()
    except ParseError as error:
        raise SsmlError(f"the SSML is not well-formed XML: {error}; close every tag and escape & and <") from None
    except DefusedXmlException:
        raise SsmlError(
            "the SSML declares a DTD or an entity, which is not allowed; use the characters themselves"
        ) from None
    except RecursionError:
        raise SsmlError(f"the SSML nests elements too deeply; at most {MAX_DEPTH} levels are allowed") from None
    return builder.parts


def written_text(parts: list[Part]) -> str:
    """What a document says, as written (its text without markup, a ``sub`` as its own words)."""
    pieces = [part.written if isinstance(part, Words) else " " for part in parts]
    return " ".join("".join(pieces).split())


@dataclass
class _Open:
    name: str
    rate: float
    volume_db: float
    read_as: ReadAs | None = None
    text: list[str] = field(default_factory=list)
    language: str | None = None


class _Builder:
    """The parser's target: expat calls it for each start tag, end tag and run of text, in order."""

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.where: Callable[[], str] = lambda: "?"  # the parser's position, set once it exists
        self._open: list[_Open] = []
        self._elements = 0
        self._marks = 0
        self._pause_ms = 0
        self._text: list[str] = []  # text not yet a part, said at ``self._text_rate``
        self._text_rate, self._text_volume = 1.0, 0.0
        self._text_language: str | None = None
        self._paragraph_ended = False  # a paragraph ended: its pause goes before the next words

    def start(self, tag: str, attributes: dict[str, str]) -> None:
        name = self._name(tag)
        self._flush_text()
        self._elements += 1
        if self._elements > MAX_ELEMENTS:
            self._refuse(f"the SSML has over {MAX_ELEMENTS} elements, the most one document may have")
        if len(self._open) >= MAX_DEPTH:
            self._refuse(f"<{name}> nests {MAX_DEPTH + 1} levels deep; at most {MAX_DEPTH} are allowed")
        if not self._open and name != "speak":
            self._refuse(f"the document's root is <{name}>; an SSML document is one <speak> element")
        if self._open and name == "speak":
            self._refuse("<speak> is the document's root and cannot be inside another element")
        parent = self._open[-1] if self._open else None
        if parent is not None and (parent.name in _READ_AS or parent.name in _EMPTY):
            self._refuse(f"<{parent.name}> holds only text, not <{name}>")
        given = self._attributes(name, attributes)
        rate = parent.rate if parent is not None else 1.0
        volume_db = parent.volume_db if parent is not None else 0.0
        language = self._language(name, given, parent.language if parent is not None else None)
        read_as = None
        if name in ("p", "s"):
            self._sentence_end()
        elif name == "break":
            self._pause(self._break_ms(given))
        elif name == "mark":
            self._mark(given)
        elif name == "prosody":
            rate = self._rate(given.get("rate"), rate)
            volume_db = self._volume(given.get("volume"), volume_db)
        elif name == "emphasis" and given.get("level", "moderate") not in EMPHASIS_LEVELS:
            self._bad(name, "level", given["level"], ", ".join(EMPHASIS_LEVELS))
        elif name in _READ_AS:
            read_as = self._read_as(name, given)
        self._open.append(_Open(name, rate, volume_db, read_as, language=language))

    def end(self, tag: str) -> None:
        element = self._open.pop()
        self._flush_text()
        if element.read_as is not None:
            written = _SPACE.sub(" ", "".join(element.text)).strip()
            if not written:
                self._refuse(f"<{element.name}> is empty; put the text it reads inside it")
            if len(written) > MAX_READ_AS_CHARS:
                self._refuse(f"<{element.name}> holds {len(written)} characters; at most {MAX_READ_AS_CHARS}")
            self._words(Words(written, element.rate, element.read_as, element.volume_db, element.language))
        elif element.name == "p":
            self._sentence_end()
            self._paragraph_ended = True
        elif element.name == "s":
            self._sentence_end()

    def data(self, text: str) -> None:
        if not self._open:
            return  # whitespace around the root
        element = self._open[-1]
        if element.name in _EMPTY and text.strip():
            self._refuse(f"<{element.name}> is an empty element; write it <{element.name} .../>")
        if element.read_as is not None:
            element.text.append(text)
            return
        self._text.append(text)
        self._text_rate, self._text_volume, self._text_language = element.rate, element.volume_db, element.language

    def close(self) -> None:
        self._flush_text()

    def _flush_text(self) -> None:
        """The text gathered since the last tag, as one part (expat hands it over in pieces)."""
        text = _SPACE.sub(" ", "".join(self._text))
        self._text.clear()
        if text.strip() or (self.parts and text):
            self._words(Words(text, self._text_rate, volume_db=self._text_volume, language=self._text_language))

    def _words(self, words: Words) -> None:
        if self._paragraph_ended and words.written.strip():
            self._paragraph_ended = False
            self._pause(PARAGRAPH_PAUSE_MS, counted=False)
        self.parts.append(words)

    # -- the elements --------------------------------------------------------------------------

    def _name(self, tag: str) -> str:
        namespace, _, name = tag[1:].rpartition("}") if tag.startswith("{") else ("", "", tag)
        if namespace not in ("", SSML_NAMESPACE) or name not in ATTRIBUTES:
            shown = f"{{{namespace}}}{name}" if namespace and namespace != SSML_NAMESPACE else name
            self._refuse(f"<{shown}> is not an element this server reads; it reads: {', '.join(ELEMENTS)}")
        return name

    def _attributes(self, name: str, attributes: dict[str, str]) -> dict[str, str]:
        given = {}
        for key, value in attributes.items():
            plain = key.replace(f"{{{XML_NAMESPACE}}}", "xml:")
            if name == "speak" and plain.startswith(SCHEMA_INSTANCE):
                continue
            if plain not in ATTRIBUTES[name] and not plain.startswith("{"):
                allowed = ", ".join(ATTRIBUTES[name]) or "none"
                self._refuse(f"<{name}> does not take the attribute {plain!r}; it takes: {allowed}")
            if plain.startswith("{"):
                self._refuse(f"<{name}> does not take the attribute {plain!r} (another namespace's)")
            given[plain] = value
        return given

    def _language(self, name: str, given: dict[str, str], parent: str | None) -> str | None:
        """The reading language inside the element: its ``xml:lang``, else its parent's."""
        tag = given.get("xml:lang")
        if tag is None:
            if name == "lang":
                self._refuse('<lang> needs an xml:lang naming its language, as in <lang xml:lang="fr-FR">')
            return parent
        language = language_of_tag(tag)
        if language is None:
            self._bad(name, "xml:lang", tag, "a language a reader exists for: " + ", ".join(READ_LANGUAGES))
        return language

    def _break_ms(self, given: dict[str, str]) -> int:
        if "time" in given:
            match = _TIME.fullmatch(given["time"])
            if match is None:
                self._bad("break", "time", given["time"], "a duration such as 700ms or 1.5s")
            ms = float(match.group(1)) * (1 if match.group(2) == "ms" else 1000)
            if ms > MAX_BREAK_MS:
                self._refuse(
                    f"<break time={given['time']!r}> is longer than {MAX_BREAK_MS} ms, the longest one break may be"
                )
            return round(ms)
        strength = given.get("strength", "medium")
        if strength not in BREAK_STRENGTHS:
            self._bad("break", "strength", strength, ", ".join(BREAK_STRENGTHS))
        return BREAK_STRENGTHS[strength]

    def _pause(self, ms: int, counted: bool = True) -> None:
        """A pause; a break's counts toward the document's limit (a paragraph's is bounded by the elements')."""
        self._pause_ms += ms if counted else 0
        if self._pause_ms > MAX_PAUSE_MS:
            self._refuse(f"the document's pauses add up to over {MAX_PAUSE_MS // 1000} s, the most one may have")
        if ms:
            self.parts.append(Pause(ms))

    def _mark(self, given: dict[str, str]) -> None:
        name = given.get("name", "")
        if not name or len(name) > MAX_MARK_NAME_CHARS:
            self._refuse(f'<mark> needs a name of 1 to {MAX_MARK_NAME_CHARS} characters, as in <mark name="confirm"/>')
        self._marks += 1
        if self._marks > MAX_MARKS:
            self._refuse(f"the document has over {MAX_MARKS} marks, the most one may have")
        self.parts.append(Mark(name))

    def _sentence_end(self) -> None:
        if self.parts and not isinstance(self.parts[-1], SentenceEnd):
            self.parts.append(SentenceEnd())

    def _rate(self, value: str | None, parent: float) -> float:
        if value is None:
            return parent
        if value in RATES:
            return RATES[value]
        match = _RATE.fullmatch(value)
        if match is None or float(match.group(2)) == 0 and not match.group(1):
            self._bad(
                "prosody",
                "rate",
                value,
                f"{', '.join(RATES)}, a percentage such as 80% or +10%, or a number such as 1.2",
            )
        sign, number, percent = match.groups()
        amount = float(number) / (100 if percent else 1)
        if sign:  # relative to the enclosing rate: +10% is 1.1 times it
            relative = 1 + (amount if sign == "+" else -amount)
            if relative <= 0:
                self._bad("prosody", "rate", value, "a change that leaves a rate above zero, such as -50%")
            return parent * relative
        return amount

    def _volume(self, value: str | None, parent: float) -> float:
        if value is None:
            return parent
        if value in VOLUMES:
            return VOLUMES[value]
        match = _VOLUME.fullmatch(value)
        low, high = VOLUME_DB_RANGE
        if match is None:
            self._bad("prosody", "volume", value, f"{', '.join(VOLUMES)}, or a change in dB such as +6dB or -3.5dB")
        sign, number = match.groups()
        if parent == float("-inf"):
            return parent  # louder than silent is still silent
        volume = parent + float(number) * (-1 if sign == "-" else 1)
        if not low <= volume <= high:
            self._bad("prosody", "volume", value, f"a volume from {low:+g}dB to {high:+g}dB in all")
        return volume

    def _read_as(self, name: str, given: dict[str, str]) -> ReadAs:
        if name == "sub":
            alias = given.get("alias", "").strip()
            if not alias or len(alias) > MAX_READ_AS_CHARS:
                self._refuse(f"<sub> needs an alias of 1 to {MAX_READ_AS_CHARS} characters: what is said")
            return ReadAs("sub", alias)
        if name == "phoneme":
            ph, alphabet = given.get("ph", "").strip(), given.get("alphabet", "ipa")
            if not ph or len(ph) > MAX_READ_AS_CHARS:
                self._refuse(f"<phoneme> needs a ph of 1 to {MAX_READ_AS_CHARS} characters: the phonemes said")
            if alphabet not in ALPHABETS:
                self._bad("phoneme", "alphabet", alphabet, ", ".join(ALPHABETS))
            return ReadAs("phoneme", ph, alphabet)
        interpret_as = given.get("interpret-as", "")
        if interpret_as not in INTERPRET_AS:
            self._bad("say-as", "interpret-as", interpret_as, ", ".join(INTERPRET_AS))
        date_format = given.get("format")
        if interpret_as == "date" and date_format is not None and date_format not in DATE_FORMATS:
            self._bad("say-as", "format", date_format, ", ".join(DATE_FORMATS))
        return ReadAs("say-as", interpret_as, date_format, given.get("detail"))

    def _bad(self, element: str, attribute: str, value: str, allowed: str) -> NoReturn:
        self._refuse(f"<{element} {attribute}={value!r}> is not allowed; {attribute} may be: {allowed}")

    def _refuse(self, message: str) -> NoReturn:
        raise SsmlError(f"{self.where()}: {message}")
