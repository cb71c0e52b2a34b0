"""Speech options as they apply to an utterance: the session's defaults with a message's fields on top,
checked against what this server has (its voices, its model's phonemes, its limits)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any, Literal

from .audio_format import DEFAULT_RATES, AudioFormat
from .errors import ProtocolError
from .lexicon import MAX_ENTRIES, NO_LEXICON, Lexicon, LexiconError, parse_lexicon
from .protocol import SpeechOptionFields
from .validation import shown
from .voices import VoiceError, parse_voice


@dataclass(frozen=True)
class SpeechOptions:
    voice: str  # a voice name, or a blend in its canonical form (kokoro_core.voices)
    speed: float
    format: AudioFormat
    normalize: bool = True  # amounts, dates, times, numbers and codes said in words
    lexicon: Lexicon = NO_LEXICON  # pronunciations of names and brands
    marks: bool = False  # word times sent with the audio
    phonemes: bool = False  # phoneme and viseme times sent with the audio
    foreign_script: Literal["read", "skip"] = "read"  # a span in another script: read by its reader, or skipped

    def described(self) -> dict[str, Any]:
        """The fields of ``configured`` and ``start`` that say how speech is made."""
        return {
            "voice": self.voice,
            "speed": self.speed,
            "format": self.format.encoding,
            "sample_rate": self.format.sample_rate,
            "normalize": self.normalize,
            "lexicon_entries": len(self.lexicon),
            "marks": self.marks,
            "phonemes": self.phonemes,
            "foreign_script": self.foreign_script,
        }


def default_options(voice: str, lexicon: Lexicon = NO_LEXICON) -> SpeechOptions:
    return SpeechOptions(voice=voice, speed=1.0, format=AudioFormat("pcm16", DEFAULT_RATES["pcm16"]), lexicon=lexicon)


def resolve_options(
    fields: SpeechOptionFields, defaults: SpeechOptions, voices: tuple[str, ...], phonemes: Collection[str]
) -> SpeechOptions:
    """Apply the option fields given in ``fields`` on top of ``defaults``.

    ``voices``: the voices this server has; a voice may name one or blend several (``kokoro_core.voices``).

    ``phonemes``: the symbols the model reads, which a lexicon's phoneme entries must keep to.
    """
    options = defaults
    if fields.voice is not None:
        try:
            blend = parse_voice(fields.voice, voices)
        except VoiceError as error:
            raise ProtocolError("unknown_voice", str(error)) from None
        options = replace(options, voice=blend.canonical)
    if fields.speed is not None:
        options = replace(options, speed=fields.speed)
    if fields.normalize is not None:
        options = replace(options, normalize=fields.normalize)
    if fields.marks is not None:
        options = replace(options, marks=fields.marks)
    if fields.phonemes is not None:
        options = replace(options, phonemes=fields.phonemes)
    if fields.foreign_script is not None:
        options = replace(options, foreign_script=fields.foreign_script)
    if fields.lexicon is not None:
        try:
            added = parse_lexicon(fields.lexicon, phonemes)
        except LexiconError as error:
            raise ProtocolError("invalid_lexicon", str(error)) from None
        lexicon = options.lexicon.with_entries(added)
        if len(lexicon) > MAX_ENTRIES:
            raise ProtocolError(
                "invalid_lexicon",
                f"with these entries the lexicon would hold {len(lexicon)} (server-wide ones included); "
                f"at most {MAX_ENTRIES} are allowed",
            )
        options = replace(options, lexicon=lexicon)
    encoding = fields.format or options.format.encoding
    rate = options.format.sample_rate if encoding == options.format.encoding else DEFAULT_RATES[encoding]
    if fields.sample_rate is not None:
        rate = fields.sample_rate
    if encoding == "mulaw" and rate != 8000:
        raise ProtocolError(
            "invalid_sample_rate", f"format 'mulaw' is 8 kHz G.711; sample_rate must be 8000, not {rate}"
        )
    return replace(options, format=AudioFormat(encoding, rate))


def check_first_chunk_chars(value: int, low: int, high: int) -> int:
    """A speak's ``first_chunk_chars``: plan its first chunk to at most this many characters (a resumed
    utterance sends back what its ``start`` said, so its audio is laid out as before)."""
    if not low <= value <= high:
        raise ProtocolError(
            "invalid_first_chunk_chars",
            f"first_chunk_chars {shown(value)} is invalid; give a whole number from {low} to {high}",
        )
    return value


def check_text_length(text: str, max_chars: int) -> str:
    if len(text) > max_chars:
        raise ProtocolError("text_too_long", f"text has {len(text)} characters; at most {max_chars} are allowed")
    return text
