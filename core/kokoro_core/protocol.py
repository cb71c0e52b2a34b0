"""The speech protocol, typed: the client's messages and the POST body, and their validation.

docs/protocol.md documents it (fields, order guarantees, errors, limits, one full example exchange).
Client messages are checked here for what needs no server state (types, ranges, known fields); the
server checks the rest (a voice it has, a lexicon's phonemes, its text limit) in ``options`` and the
session. Every refusal is a ``ProtocolError`` with a stable ``code`` to branch on and a message that
says what was wrong and what is allowed.

The server's messages are ``server_messages``'s, and the error codes ``errors``'s.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from .audio_format import FORMATS, SAMPLE_RATES
from .errors import ERROR_CODES, ErrorCode, ProtocolError
from .validation import problems, shown

MAX_ID_CHARS = 128
MAX_BUFFER_DELAY_MS = 10_000  # the longest a context's text may be told to wait for the rest of its sentence
DEFAULT_BUFFER_DELAY_MS = 1_000
SPEED_RANGE = (0.5, 2.0)  # what Kokoro says naturally; beyond it, speech slurs or drags
FOREIGN_SCRIPTS = ("read", "skip")  # what a voice does with a span in another script


def _refuse(code: ErrorCode, message: str) -> PydanticCustomError:
    return PydanticCustomError(code, message)  # no context: braces in a value stay as they are


# -- client to server ---------------------------------------------------------------------------


class _ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def wire(self) -> dict[str, Any]:
        """The message as sent: only the fields that were given."""
        return self.model_dump(mode="json", exclude_unset=True) | {"type": self.type_name()}

    @classmethod
    def type_name(cls) -> str:
        return str(cls.model_fields["type"].default)


class SpeechOptionFields(_ClientMessage):
    """The speech options a ``configure``, a ``speak`` or a POST body may give; absent ones keep their
    value. Which voices exist and which phonemes a lexicon may use only the server knows
    (``options.resolve_options``)."""

    voice: str | None = None
    speed: float | None = None
    format: Literal["pcm16", "wav", "mulaw"] | None = None
    sample_rate: int | None = None
    normalize: bool | None = None
    lexicon: dict[str, str] | None = None
    marks: bool | None = None
    phonemes: bool | None = None
    foreign_script: Literal["read", "skip"] | None = None

    @field_validator("voice", mode="before")
    @classmethod
    def _voice(cls, value: Any) -> Any:
        if not isinstance(value, str) or not value:
            raise _refuse("unknown_voice", f"voice {shown(value)} unknown; give a voice name from `ready`")
        return value

    @field_validator("speed", mode="before")
    @classmethod
    def _speed(cls, value: Any) -> Any:
        low, high = SPEED_RANGE
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise _refuse("invalid_speed", f"speed {shown(value)} is invalid; give a number from {low} to {high}")
        return float(value)

    @field_validator("format", mode="before")
    @classmethod
    def _format(cls, value: Any) -> Any:
        if not isinstance(value, str) or value not in FORMATS:
            raise _refuse("unknown_format", f"format {shown(value)} unknown; choose one of: {', '.join(FORMATS)}")
        return value

    @field_validator("sample_rate", mode="before")
    @classmethod
    def _sample_rate(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or value not in SAMPLE_RATES:
            allowed = ", ".join(map(str, SAMPLE_RATES))
            raise _refuse(
                "invalid_sample_rate", f"sample_rate {shown(value)} is not supported; choose one of: {allowed}"
            )
        return value

    @field_validator("normalize", mode="before")
    @classmethod
    def _normalize(cls, value: Any) -> Any:
        if not isinstance(value, bool):
            raise _refuse("invalid_normalize", f"normalize {shown(value)} is invalid; give true or false")
        return value

    @field_validator("marks", mode="before")
    @classmethod
    def _marks(cls, value: Any) -> Any:
        if not isinstance(value, bool):
            raise _refuse("invalid_marks", f"marks {shown(value)} is invalid; give true (word times) or false")
        return value

    @field_validator("phonemes", mode="before")
    @classmethod
    def _phonemes(cls, value: Any) -> Any:
        if not isinstance(value, bool):
            raise _refuse(
                "invalid_phonemes", f"phonemes {shown(value)} is invalid; give true (phoneme and viseme times) or false"
            )
        return value

    @field_validator("foreign_script", mode="before")
    @classmethod
    def _foreign_script(cls, value: Any) -> Any:
        if value not in FOREIGN_SCRIPTS:
            raise _refuse(
                "invalid_foreign_script",
                f"foreign_script {shown(value)} is invalid; give read (a span in another script, such as a Chinese "
                "name in English text, is read by its own language's reader) or skip (it is left unsaid)",
            )
        return value

    @field_validator("lexicon", mode="before")
    @classmethod
    def _lexicon(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            name = type(value).__name__
            raise _refuse("invalid_lexicon", f'lexicon must be an object of "word": "how to say it", not {name}')
        for word, say in value.items():
            if not isinstance(say, str):
                raise _refuse("invalid_lexicon", f"lexicon entry {shown(word)}: {shown(say)} is invalid; give a string")
        return value


def _check_id(value: Any) -> Any:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_CHARS:
        raise _refuse("invalid_id", f"id must be a string of 1 to {MAX_ID_CHARS} characters, not {shown(value)}")
    return value


def _check_context(value: Any) -> Any:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_CHARS:
        raise _refuse(
            "invalid_context", f"context must be a string of 1 to {MAX_ID_CHARS} characters, not {shown(value)}"
        )
    return value


def _check_ssml(value: Any) -> Any:
    if not isinstance(value, bool):
        raise _refuse("invalid_ssml", f"ssml {shown(value)} is invalid; give true (the text is SSML) or false")
    return value


def _check_text(value: Any) -> Any:
    if not isinstance(value, str):
        raise _refuse("invalid_text", f"text must be a string, not {type(value).__name__}")
    if not value.strip():
        raise _refuse("invalid_text", "text is empty; give at least one word to speak")
    return value


class Configure(SpeechOptionFields):
    """Set the session's default speech options; answered by ``configured``."""

    type: Literal["configure"] = "configure"


class Speak(SpeechOptionFields):
    """Queue an utterance. ``first_chunk_chars`` resumes one: the value its ``start`` gave. ``ssml``: the
    text is SSML (docs/ssml.md); unset, a text that starts with ``<speak>`` is."""

    type: Literal["speak"] = "speak"
    text: str
    id: str | None = None
    first_chunk_chars: int | None = None
    ssml: bool | None = None

    _text = field_validator("text", mode="before")(_check_text)
    _ssml = field_validator("ssml", mode="before")(_check_ssml)
    _id = field_validator("id", mode="before")(_check_id)

    @field_validator("first_chunk_chars", mode="before")
    @classmethod
    def _first_chunk_chars(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise _refuse(
                "invalid_first_chunk_chars", f"first_chunk_chars {shown(value)} is invalid; give a whole number"
            )
        return value


class Cancel(_ClientMessage):
    """Stop utterance ``id``; or ``context``: that context, its buffered text and every sentence of it queued
    or playing (it ends); with neither, everything queued and playing and every context (barge-in)."""

    type: Literal["cancel"] = "cancel"
    id: str | None = None
    context: str | None = None

    _id = field_validator("id", mode="before")(_check_id)
    _context = field_validator("context", mode="before")(_check_context)


class Open(SpeechOptionFields):
    """Open a text stream (a context) with its own speech options over the session's defaults: text
    ``append``-ed to it is cut into sentences on the server and spoken as each is complete. ``ssml``: its text
    is SSML fragments. ``max_buffer_delay_ms``: how long text waits, once no more comes, for the rest of its
    sentence before it is spoken as it is (0: every append is spoken as it arrives)."""

    type: Literal["open"] = "open"
    context: str
    ssml: bool | None = None
    max_buffer_delay_ms: int | None = None

    _context = field_validator("context", mode="before")(_check_context)
    _ssml = field_validator("ssml", mode="before")(_check_ssml)

    @field_validator("max_buffer_delay_ms", mode="before")
    @classmethod
    def _max_buffer_delay_ms(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BUFFER_DELAY_MS:
            raise _refuse(
                "invalid_buffer_delay",
                f"max_buffer_delay_ms {shown(value)} is invalid; give a whole number of ms from 0 to "
                f"{MAX_BUFFER_DELAY_MS}",
            )
        return value


class Append(_ClientMessage):
    """Add text to a context: any piece of it (a token, half a word, a paragraph)."""

    type: Literal["append"] = "append"
    context: str
    text: str

    _context = field_validator("context", mode="before")(_check_context)

    @field_validator("text", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise _refuse("invalid_text", f"text must be a string, not {type(value).__name__}")
        return value


class Flush(_ClientMessage):
    """Speak what the context holds now, without waiting for its sentence to end; answered by ``flushed``
    (with this ``id``) once the audio of everything appended before it has been sent."""

    type: Literal["flush"] = "flush"
    context: str
    id: str | None = None

    _context = field_validator("context", mode="before")(_check_context)
    _id = field_validator("id", mode="before")(_check_id)


class End(_ClientMessage):
    """No more text for the context: what it holds is spoken, then ``context_ended`` comes."""

    type: Literal["end"] = "end"
    context: str

    _context = field_validator("context", mode="before")(_check_context)


class Close(_ClientMessage):
    """Finish what is queued, then close the session."""

    type: Literal["close"] = "close"


class SpeakRequest(SpeechOptionFields):
    """The JSON body of POST /invocations: one text (``ssml`` as in ``Speak``) and its options."""

    text: str
    ssml: bool | None = None

    _text = field_validator("text", mode="before")(_check_text)
    _ssml = field_validator("ssml", mode="before")(_check_ssml)

    def wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_unset=True)


ClientMessage = Configure | Speak | Cancel | Close | Open | Append | Flush | End
CLIENT_MESSAGES: dict[str, type[ClientMessage]] = {
    model.type_name(): model for model in (Configure, Speak, Cancel, Close, Open, Append, Flush, End)
}


def _first_error(error: ValidationError, fallback: ErrorCode, subject: str) -> ProtocolError:
    """A pydantic refusal as the protocol's error: our own codes as they are, anything else as ``fallback``."""
    problem = problems(error)[0]
    if problem.kind in ERROR_CODES:
        return ProtocolError(problem.kind, problem.message)  # raised by our validators
    if problem.kind == "missing" and problem.where == "text":
        return ProtocolError("invalid_text", "text is missing; give at least one word to speak")
    return ProtocolError(fallback, f"{subject} {problem.where or 'fields'}: {problem.message}")


def _check_fields(document: dict[str, Any], model: type[_ClientMessage], code: ErrorCode, subject: str) -> None:
    unknown = sorted(set(document) - set(model.model_fields))
    if unknown:
        allowed = ", ".join(sorted(model.model_fields))
        raise ProtocolError(code, f"{subject} does not take {', '.join(unknown)}; its fields are: {allowed}")


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
    except RecursionError:
        raise ProtocolError(
            "invalid_json", "the message nests arrays or objects too deeply; send one flat JSON object"
        ) from None
    except ValueError:  # Python refuses to read an integer of thousands of digits
        raise ProtocolError("invalid_json", "the message holds a number with too many digits to read") from None
    if not isinstance(document, dict):
        raise ProtocolError("invalid_json", f"the message must be a JSON object, not {type(document).__name__}")
    return document


def parse_client_message(payload: str | bytes, max_bytes: int) -> ClientMessage:
    """A WebSocket message (text or binary frame) as a checked client message.

    Anything that is not a JSON object is text to speak with the session's defaults.
    """
    size = len(payload) if isinstance(payload, bytes) else len(payload.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ProtocolError("message_too_large", f"the message has {size} bytes; at most {max_bytes} are allowed")
    text = decode_utf8(payload) if isinstance(payload, bytes) else payload
    if not text.lstrip().startswith(("{", "[")):
        return validate_client_message({"type": "speak", "text": text})
    return validate_client_message(parse_json_object(text))


def validate_client_message(document: dict[str, Any]) -> ClientMessage:
    """A client message from its JSON object, checked."""
    kind = document.get("type")
    model = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        kinds = ", ".join(CLIENT_MESSAGES)
        if kind is None:
            problem = "the message has no type"
        elif isinstance(kind, str):
            problem = f"message type {shown(kind)} unknown"
        else:
            problem = f"message type must be a string, not {type(kind).__name__}"
        raise ProtocolError("unknown_type", f"{problem}; send one of: {kinds}")
    _check_fields(document, model, "invalid_message", model.type_name())
    try:
        return model.model_validate(document)
    except ValidationError as error:
        raise _first_error(error, "invalid_message", model.type_name()) from None


def parse_speak_request(fields: dict[str, Any]) -> SpeakRequest:
    """A POST body's JSON object as a checked request."""
    _check_fields(fields, SpeakRequest, "invalid_request", "the request")
    try:
        return SpeakRequest.model_validate(fields)
    except ValidationError as error:
        raise _first_error(error, "invalid_request", "the request") from None
