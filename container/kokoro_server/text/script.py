"""What an utterance says, in order: runs of text to synthesize, pauses, and marks.

Plain text is one run. An SSML document (``kokoro_core.ssml``) is cut into runs where an ``s`` or a ``p``
ends or the rate or the volume changes; within a run, text read a given way (a ``say-as``, a ``sub``, a
``phoneme``) stands as a placeholder word that the run's own lexicon reads as asked. So the chunk plan,
normalization, G2P and word timing work on a run as on any text, and a word mark names what was written
("W3C", not its alias).

A pause or a mark after text stays in its run as an anchor: one character of its own, in place of the
element, that readings skip (``without_anchors``). So the run is planned into chunks as if the anchors were not
there: a sentence that holds a break is one model call with one intonation, sentences with breaks
between them are packed as plain text is, and each pause is made at its word boundary afterwards
(``kokoro_server.serving.breaks``), or between two chunks where the plan cut there.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from kokoro_core.lexicon import NO_LEXICON, Lexicon, in_letters
from kokoro_core.ssml import Mark, Part, Pause, ReadAs, SentenceEnd, SsmlError, Words, written_text

from .foreign import marked, unmarked
from .g2p import EXTRA_NAMES, available_languages, installed
from .say_as import SayAsError, say_as

# A placeholder is plain letters (the normalizer and G2P leave it be; the lexicon finds it as a word): a stem,
# then its number in letters a-j, as the lexicon's own placeholders are. The stem takes one "q" more than any
# text of the document writes after "Ssmlzx", so no text can pass for a placeholder.
_STEM = "Ssmlzx"
_PLACEHOLDER = re.compile(rf"{_STEM}q*[a-j]+zq")
_WRITTEN_STEMS = re.compile(rf"{_STEM}(q*)")
# Anchors are characters of a private use plane: no text says them, and a document's own are removed.
_ANCHOR_BASE = 0xF0000
_ANCHORS = re.compile("[\U000f0000-\U000ffffd]")
# Tie bars join an affricate's two symbols in IPA; the model has one symbol for some of them.
_TIED = {"t͡ʃ": "ʧ", "d͡ʒ": "ʤ", "t͡s": "ʦ", "d͡z": "ʣ", "t͡ɕ": "ʨ", "d͡ʑ": "ʥ"}


@dataclass(frozen=True)
class Run:
    """Text said in one go, at ``rate`` times the utterance's speed and ``volume_db`` louder."""

    text: str  # as written, each piece read a given way as its placeholder, each inner pause or mark an anchor
    rate: float = 1.0
    lexicon: Lexicon = NO_LEXICON  # how each placeholder is said
    written: dict[str, str] = field(default_factory=dict)  # each placeholder's words as written
    anchors: dict[str, Pause | Mark] = field(default_factory=dict)  # what each anchor character stands for
    volume_db: float = 0.0

    def as_written(self, text: str) -> str:
        """``text`` of this run (a word, a chunk) with its placeholders back to what was written and its
        language marks removed."""
        text = unmarked(text)
        if not self.written:
            return text
        return _PLACEHOLDER.sub(lambda match: self.written.get(match.group(), match.group()), text)


Step = Run | Pause | Mark


def without_anchors(text: str) -> str:
    """``text`` without its anchors, its whitespace collapsed, for what reads or says it."""
    return split_anchors(text)[0] if _ANCHORS.search(text) else text


def split_anchors(text: str) -> tuple[str, list[tuple[int, str]]]:
    """``text`` without its anchors (its whitespace collapsed, as the chunk plan collapses it), and where each
    stood in that text: (offset of the character after it, anchor), in order. An anchor right before a
    word ("1.<break/>Goodbye", "a<break/>b") stands for a space there: the element parts two words; one
    before punctuation ("there<mark/>.") or a space stands for nothing."""
    clean: list[str] = []
    placed: list[tuple[int, str]] = []
    space = False  # whitespace seen since the last character kept
    for index, char in enumerate(text):
        if _ANCHORS.fullmatch(char):
            before_word = 0 < index < len(text) - 1 and not text[index - 1].isspace() and text[index + 1].isalnum()
            space = space or before_word
            placed.append((len(clean) + (1 if space and clean else 0), char))
        elif char.isspace():
            space = True
        else:
            if space and clean:
                clean.append(" ")
            space = False
            clean.append(char)
    return "".join(clean), [(min(offset, len(clean)), anchor) for offset, anchor in placed]


@dataclass(frozen=True)
class Script:
    steps: tuple[Step, ...]
    text: str  # what is said, as written


def plain_script(text: str) -> Script:
    return Script((Run(text),), text)


def ssml_script(parts: list[Part], language: str, symbols: Collection[str]) -> Script:
    """The script of an SSML document's parts, for a voice of ``language``; raises ``SsmlError`` when a
    piece cannot be read as asked. ``symbols``: the model's phonemes, which a ``phoneme`` must keep to."""
    steps: list[Step] = []
    pieces: list[str] = []
    readings: list[tuple[str, str, str]] = []  # (placeholder, said, written) of the run being built
    anchors: dict[str, Pause | Mark] = {}  # of the run being built
    rate, volume_db = 1.0, 0.0
    has_text = False  # the run being built holds text: a pause or a mark after it stays in it
    count = 0
    written = [part.written for part in parts if isinstance(part, Words)]
    stem = _STEM + "q" * (1 + max((len(q) for text in written for q in _WRITTEN_STEMS.findall(text)), default=-1))

    def end_run() -> None:
        nonlocal has_text
        text = _joined(pieces)
        if has_text:
            lexicon = Lexicon(tuple((placeholder, said) for placeholder, said, _ in readings))
            placed = {placeholder: written for placeholder, _, written in readings}
            steps.append(Run(text, rate, lexicon, placed, dict(anchors), volume_db))
        else:  # only anchors: what they stand for, in order
            steps.extend(anchors[anchor] for anchor in _ANCHORS.findall(text))
        pieces.clear()
        readings.clear()
        anchors.clear()
        has_text = False

    for part in parts:
        if isinstance(part, Words):
            if part.read_as is None and not part.written.strip():
                pieces.append(part.written)  # whitespace between elements stays in the run it is in
                continue
            if (part.rate, part.volume_db) != (rate, volume_db):
                end_run()
                rate, volume_db = part.rate, part.volume_db
            reader = _reader(part.language, language)
            if part.read_as is None:
                pieces.append(_in_language(_ANCHORS.sub(" ", part.written), reader, language))
                has_text = has_text or bool(pieces[-1].strip())
                continue
            placeholder = f"{stem}{in_letters(count)}zq"
            count += 1
            readings.append((placeholder, _said(part.read_as, part.written, reader, symbols), part.written))
            pieces.append(_in_language(f"\x01{placeholder}\x02", reader, language))
            has_text = True
        elif not isinstance(part, SentenceEnd) and has_text:
            anchor = chr(_ANCHOR_BASE + len(anchors))
            anchors[anchor] = part
            pieces.append(anchor)
        else:
            end_run()
            if not isinstance(part, SentenceEnd):
                steps.append(part)
    end_run()
    return Script(tuple(steps), written_text(parts))


def _reader(asked: str | None, language: str) -> str:
    """The language a piece is read in: its ``xml:lang``'s, if this installation reads it, else the voice's."""
    if asked is None:
        return language
    if not installed(asked):
        readers = ", ".join(reader for reader in available_languages())
        extra = EXTRA_NAMES.get(asked, asked)
        raise SsmlError(
            f"xml:lang asks for {asked}, which this server cannot read (kokoro-server[{extra}] is not installed); "
            f"it reads: {readers}"
        )
    return asked


def _in_language(text: str, reader: str, language: str) -> str:
    """``text`` marked as read in ``reader`` where that is not the voice's ``language``; its spaces outside."""
    core = text.strip()
    if reader == language or not core:
        return text
    start = text.index(core[0])
    return f"{text[:start]}{marked(core, reader)}{text[start + len(core) :]}"


def _joined(pieces: list[str]) -> str:
    """The run's text; a placeholder stands apart from the letters either side of it, so it is a word."""
    text = "".join(pieces)  # each placeholder between \x01 and \x02
    return re.sub("(?<=\\w)\x01|\x02(?=\\w)", " ", text).replace("\x01", "").replace("\x02", "")


def _said(read_as: ReadAs, written: str, language: str, symbols: Collection[str]) -> str:
    """What is said for ``written``: a respelling, or phonemes between slashes (as in a lexicon)."""
    if read_as.element == "sub":
        return read_as.value.lstrip("/")  # a lexicon reads a leading slash as phonemes
    if read_as.element == "phoneme":
        return f"/{_phonemes(read_as.value, read_as.format or 'ipa', language, symbols)}/"
    try:
        said = say_as(written, read_as.value, read_as.format, language)
    except SayAsError as error:
        raise SsmlError(str(error)) from None
    except (ArithmeticError, ValueError) as error:  # num2words past what it can say, a digit it cannot read
        raise SsmlError(f"say-as {read_as.value} cannot read {written[:60]!r} ({error})") from None
    if not said.strip():
        raise SsmlError(f"say-as {read_as.value} found nothing to say in {written[:60]!r}")
    return said


def _phonemes(ph: str, alphabet: str, language: str, symbols: Collection[str]) -> str:
    """``ph`` in the model's phoneme set: x-kokoro as written; IPA with its spellings of the model's
    symbols mapped (ɡ for g, ɹ for an English r, one symbol for a tied affricate)."""
    phonemes = " ".join(ph.split())
    if alphabet == "ipa":
        english = language.startswith("en")
        for tied, one in _TIED.items():
            phonemes = phonemes.replace(tied, tied.replace("͡", "") if english else one)
        phonemes = phonemes.replace("͡", "").replace("g", "ɡ").replace(".", "")
        if english:
            phonemes = phonemes.replace("r", "ɹ")
    unknown = sorted({symbol for symbol in phonemes if symbol not in symbols and symbol != " "})
    if unknown:
        raise SsmlError(
            f"<phoneme ph={ph!r}> uses {' '.join(unknown)!r}, which the model does not say; "
            "`kokoro-stream normalize --phonemes` shows the phonemes of similar words"
        )
    return phonemes
