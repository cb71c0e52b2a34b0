"""Request and message parsing shared by both routes: what a client may ask for, and the errors.

Every error names what was wrong and what is allowed. Errors carry a stable ``code`` that
clients can branch on; the message is for people. docs/protocol.md documents every message, field,
error code and limit.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from .audio import DEFAULT_RATES, FORMATS, SAMPLE_RATES, AudioFormat
from .engine import SPEED_RANGE
from .lexicon import MAX_ENTRIES, NO_LEXICON, Lexicon, LexiconError, parse_lexicon

MAX_ID_CHARS = 128
OPTION_FIELDS = ("voice", "speed", "format", "sample_rate", "normalize", "lexicon")
MESSAGE_FIELDS = {
    "configure": {"type", *OPTION_FIELDS},
    "speak": {"type", "id", "text", "first_chunk_chars", *OPTION_FIELDS},
    "cancel": {"type", "id"},
    "close": {"type"},
}


class ProtocolError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def body(self, utterance_id: str | None = None) -> dict[str, Any]:
        return {"type": "error", "id": utterance_id, "code": self.code, "message": self.message}


@dataclass(frozen=True)
class SpeechOptions:
    voice: str
    speed: float
    format: AudioFormat
    normalize: bool = True  # amounts, dates, times, numbers and codes said in words (normalize.py)
    lexicon: Lexicon = NO_LEXICON  # pronunciations of names and brands (lexicon.py)


def default_options(voice: str, lexicon: Lexicon = NO_LEXICON) -> SpeechOptions:
    return SpeechOptions(voice=voice, speed=1.0, format=AudioFormat("pcm16", DEFAULT_RATES["pcm16"]), lexicon=lexicon)


def resolve_options(
    fields: dict[str, Any], defaults: SpeechOptions, voices: tuple[str, ...], phonemes: Collection[str]
) -> SpeechOptions:
    """Apply the option fields present in ``fields`` on top of ``defaults``.

    ``phonemes``: the symbols the model reads, which a lexicon's phoneme entries must keep to.
    """
    options = defaults
    if "voice" in fields:
        voice = fields["voice"]
        if not isinstance(voice, str) or voice not in voices:
            raise ProtocolError("unknown_voice", f"voice {voice!r} unknown; choose one of: {', '.join(voices)}")
        options = replace(options, voice=voice)
    if "speed" in fields:
        speed = fields["speed"]
        low, high = SPEED_RANGE
        if isinstance(speed, bool) or not isinstance(speed, int | float) or not low <= speed <= high:
            raise ProtocolError("invalid_speed", f"speed {speed!r} is invalid; give a number from {low} to {high}")
        options = replace(options, speed=float(speed))
    if "normalize" in fields:
        normalize = fields["normalize"]
        if not isinstance(normalize, bool):
            raise ProtocolError("invalid_normalize", f"normalize {normalize!r} is invalid; give true or false")
        options = replace(options, normalize=normalize)
    if "lexicon" in fields:
        try:
            added = parse_lexicon(fields["lexicon"], phonemes)
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
    encoding = options.format.encoding
    if "format" in fields:
        encoding = fields["format"]
        if not isinstance(encoding, str) or encoding not in FORMATS:
            raise ProtocolError("unknown_format", f"format {encoding!r} unknown; choose one of: {', '.join(FORMATS)}")
    rate = options.format.sample_rate if encoding == options.format.encoding else DEFAULT_RATES[encoding]
    if "sample_rate" in fields:
        rate = fields["sample_rate"]
        if isinstance(rate, bool) or not isinstance(rate, int) or rate not in SAMPLE_RATES:
            raise ProtocolError(
                "invalid_sample_rate",
                f"sample_rate {rate!r} is not supported; choose one of: {', '.join(map(str, SAMPLE_RATES))}",
            )
    if encoding == "mulaw" and rate != 8000:
        raise ProtocolError(
            "invalid_sample_rate", f"format 'mulaw' is 8 kHz G.711; sample_rate must be 8000, not {rate}"
        )
    return replace(options, format=AudioFormat(encoding, rate))


def check_first_chunk_chars(value: Any, low: int, high: int) -> int:
    """A speak's ``first_chunk_chars``: plan its first chunk to at most this many characters (a resumed
    utterance sends back what its ``start`` said, so its audio is laid out as before)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError(
            "invalid_first_chunk_chars",
            f"first_chunk_chars {value!r} is invalid; give a whole number from {low} to {high}",
        )
    return value


def check_text(text: Any, max_chars: int) -> str:
    if not isinstance(text, str):
        raise ProtocolError("invalid_text", f"text must be a string, not {type(text).__name__}")
    if not text.strip():
        raise ProtocolError("invalid_text", "text is empty; give at least one word to speak")
    if len(text) > max_chars:
        raise ProtocolError("text_too_long", f"text has {len(text)} characters; at most {max_chars} are allowed")
    return text


def decode_utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProtocolError(
            "invalid_utf8", f"the message is not valid UTF-8 (byte {error.start}); send UTF-8 text"
        ) from None


def parse_json_object(text: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProtocolError("invalid_json", f"the message is not valid JSON: {error}") from None
    if not isinstance(document, dict):
        raise ProtocolError("invalid_json", f"the message must be a JSON object, not {type(document).__name__}")
    return document


def parse_message(payload: str | bytes, max_bytes: int) -> dict[str, Any]:
    """A WebSocket message (text or binary frame) as a checked control message.

    Anything that is not a JSON object is text to speak with the session defaults.
    """
    size = len(payload) if isinstance(payload, bytes) else len(payload.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ProtocolError("message_too_large", f"the message has {size} bytes; at most {max_bytes} are allowed")
    text = decode_utf8(payload) if isinstance(payload, bytes) else payload
    if not text.lstrip().startswith(("{", "[")):
        return {"type": "speak", "text": text}
    message = parse_json_object(text)
    kind = message.get("type")
    if kind not in MESSAGE_FIELDS:
        raise ProtocolError("unknown_type", f"message type {kind!r} unknown; send one of: {', '.join(MESSAGE_FIELDS)}")
    unknown = sorted(set(message) - MESSAGE_FIELDS[kind])
    if unknown:
        allowed = ", ".join(sorted(MESSAGE_FIELDS[kind]))
        raise ProtocolError("invalid_message", f"{kind} does not take {', '.join(unknown)}; its fields are: {allowed}")
    if "id" in message and (not isinstance(message["id"], str) or not 0 < len(message["id"]) <= MAX_ID_CHARS):
        raise ProtocolError(
            "invalid_id", f"id must be a string of 1 to {MAX_ID_CHARS} characters, not {message['id']!r}"
        )
    return message
