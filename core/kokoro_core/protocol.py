"""The speech protocol, typed: every message both ways, its validation, and the error codes.

docs/protocol.md documents it (fields, order guarantees, errors, limits, one full example exchange).
Client messages are checked here for what needs no server state (types, ranges, known fields); the
server checks the rest (a voice it has, a lexicon's phonemes, its text limit) in ``options`` and the
session. Every refusal is a ``ProtocolError`` with a stable ``code`` to branch on and a message that
says what was wrong and what is allowed.

Server messages ignore fields they do not know, so a client keeps working when the server adds one.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from .audio_format import FORMATS, SAMPLE_RATES
from .validation import problems, shown

MAX_ID_CHARS = 128
MAX_BUFFER_DELAY_MS = 10_000  # the longest a context's text may be told to wait for the rest of its sentence
DEFAULT_BUFFER_DELAY_MS = 1_000
SPEED_RANGE = (0.5, 2.0)  # what Kokoro says naturally; beyond it, speech slurs or drags
FOREIGN_SCRIPTS = ("read", "skip")  # what a voice does with a span in another script

ErrorCode = Literal[
    # a message or body that cannot be read
    "invalid_json",
    "invalid_utf8",
    "message_too_large",
    "request_entity_too_large",
    # a message of the wrong shape
    "unknown_type",
    "invalid_message",
    "invalid_request",
    "invalid_id",
    # what to say, and how
    "invalid_text",
    "invalid_ssml",
    "text_too_long",
    "nothing_to_speak",
    "unknown_voice",
    "invalid_speed",
    "unknown_format",
    "invalid_sample_rate",
    "invalid_normalize",
    "invalid_foreign_script",
    "invalid_marks",
    "invalid_phonemes",
    "invalid_lexicon",
    "invalid_first_chunk_chars",
    "invalid_context",
    "invalid_buffer_delay",
    # the session's state
    "duplicate_id",
    "unknown_id",
    "unknown_context",
    "duplicate_context",
    "too_many_contexts",
    "closing",
    # the server's state
    "busy",
    "synthesis_failed",
    "not_ready",
    "shutting_down",
    "not_found",
    "method_not_allowed",
]
ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)


class ProtocolError(ValueError):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message

    def reply(self, utterance_id: str | None = None, context: str | None = None) -> Error:
        return Error(id=utterance_id, context=context, code=self.code, message=self.message)


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


# -- server to client ---------------------------------------------------------------------------


class _ServerMessage(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    def wire(self) -> dict[str, Any]:
        """The message as sent: optional fields that are unset are left out."""
        return self.model_dump(mode="json", exclude_none=True)


class Ready(_ServerMessage):
    """The session's first message: what the server offers. The POST transport, which has no session,
    gives only what it knows (no ``session``, ``voices`` or ``max_text_chars``)."""

    type: Literal["ready"] = "ready"
    sample_rate: int
    formats: list[str] = Field(default_factory=lambda: list(FORMATS))
    session: str | None = None
    voices: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)  # what the server reads: a voice of another is refused
    default_voice: str | None = None
    sample_rates: list[int] = Field(default_factory=lambda: list(SAMPLE_RATES))
    max_text_chars: int | None = None
    max_session_utterances: int | None = None  # a speak past this many unfinished is refused as ``busy``
    max_session_contexts: int | None = None  # text streams open at once (``open``)
    context_idle_seconds: float | None = None  # a context with nothing to say and no text for this long ends
    device: str | None = None  # where the model runs: "cuda" or "cpu"
    max_batch: int | None = None  # chunks one model call speaks, across sessions (1: one chunk per call)
    batch_wait_ms: float | None = None  # how long a batch that is not full may wait for another session's chunk


class _Described(_ServerMessage):
    """Speech options as they apply. The POST transport answers for a server it has no session with,
    so it leaves out what only the server knows (the default voice)."""

    voice: str | None = None
    speed: float = 1.0
    format: str = "pcm16"
    sample_rate: int
    normalize: bool = True
    lexicon_entries: int = 0
    marks: bool = False
    phonemes: bool = False
    foreign_script: str = "read"


class Configured(_Described):
    """The answer to ``configure``: the session's defaults now."""

    type: Literal["configured"] = "configured"


class Start(_Described):
    """An utterance begins; ``first_chunk_chars`` when its first chunk was cut to fit earlier audio. A sentence
    of a context names it, and says its text as it is said and ``stream_chars``: how many characters of the
    context's text it and the sentences before it cover (a client resuming the stream appends from there)."""

    type: Literal["start"] = "start"
    id: str
    first_chunk_chars: int | None = None
    context: str | None = None
    text: str | None = None
    stream_chars: int | None = None


class Done(_ServerMessage):
    """An utterance's audio is all sent."""

    type: Literal["done"] = "done"
    id: str
    context: str | None = None
    audio_ms: float = 0.0
    ttfa_ms: float | None = None

    def wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"context"} if self.context is None else None)


class Word(BaseModel):
    """A written word of an utterance's text (as sent, its markdown read as words, punctuation attached; words
    said only together, such as "7:45 a.m.", are one) and when it is heard: milliseconds from the utterance's
    first sample."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    text: str
    start_ms: float
    end_ms: float


class Marks(_ServerMessage):
    """When the words of the audio that follows are heard; sent before that audio, with ``marks`` on."""

    type: Literal["marks"] = "marks"
    id: str
    context: str | None = None
    words: list[Word]


class Phoneme(BaseModel):
    """A sound of an utterance (one model phoneme, a diphthong or an affricate; ``sil`` for quiet) and when it
    is heard, with its viseme id (``kokoro_core.visemes``: Azure's 0-21, 0 for silence): the phonemes of an
    utterance tile its audio, each starting where the one before ends."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    phoneme: str
    viseme: int
    start_ms: float
    end_ms: float


class Phonemes(_ServerMessage):
    """When the sounds of the audio that follows are heard; sent before that audio, with ``phonemes`` on."""

    type: Literal["phonemes"] = "phonemes"
    id: str
    context: str | None = None
    phonemes: list[Phoneme]


class Bookmark(_ServerMessage):
    """An SSML ``mark`` reached: ``at_ms`` from the utterance's first sample, sent before the audio that
    follows it, in order with the word marks."""

    type: Literal["bookmark"] = "bookmark"
    id: str
    context: str | None = None
    name: str
    at_ms: float


class Canceled(_ServerMessage):
    """After a ``cancel``: how much of the utterance's audio had gone out, and the words it held whole."""

    type: Literal["canceled"] = "canceled"
    id: str
    context: str | None = None
    sent_ms: float = 0.0
    sent_text: str = ""


class Error(_ServerMessage):
    """A message was refused, or an utterance failed; ``id`` names the utterance, when there is one."""

    type: Literal["error"] = "error"
    id: str | None = None
    context: str | None = None  # the context the refused message or failed sentence was of
    code: str  # a client keeps working when a newer server adds a code
    message: str

    def wire(self) -> dict[str, Any]:
        # "id": null when the error is about no utterance
        return self.model_dump(mode="json", exclude={"context"} if self.context is None else None)


class Flushed(_ServerMessage):
    """The audio of everything appended to ``context`` before the ``flush`` (with its ``id``) has been sent."""

    type: Literal["flushed"] = "flushed"
    context: str
    id: str | None = None


class ContextEnded(_ServerMessage):
    """A context is over: all its audio has been sent (``ended``, after ``end``), it was canceled, or it
    had nothing to say and got no text for ``context_idle_seconds`` (``expired``)."""

    type: Literal["context_ended"] = "context_ended"
    context: str
    reason: Literal["ended", "canceled", "expired"] = "ended"


ServerMessage = (
    Ready | Configured | Start | Marks | Phonemes | Bookmark | Done | Canceled | Error | Flushed | ContextEnded
)
SERVER_MESSAGES: dict[str, type[ServerMessage]] = {
    model.model_fields["type"].default: model
    for model in (Ready, Configured, Start, Marks, Phonemes, Bookmark, Done, Canceled, Error, Flushed, ContextEnded)
}
_SERVER_MESSAGE: TypeAdapter[ServerMessage] = TypeAdapter(Annotated[ServerMessage, Field(discriminator="type")])


# -- POST /invocations as NDJSON (with marks or phonemes on) ------------------------------------


class ReachedMark(BaseModel):
    """An SSML ``mark`` in a POST NDJSON line: a ``Bookmark`` without the id a session needs."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    name: str
    at_ms: float


class ChunkLine(_ServerMessage):
    """One NDJSON line of a POST answer: a chunk's audio (base64, in the requested format; the first one of
    a ``wav`` starts with its header), the words and phonemes that start in it, and the SSML marks reached
    just before it. ``phonemes`` is absent unless asked for."""

    type: Literal["chunk"] = "chunk"
    audio: str = ""
    words: list[Word] = Field(default_factory=list)
    phonemes: list[Phoneme] | None = None
    bookmarks: list[ReachedMark] | None = None

    @classmethod
    def of(
        cls,
        audio: bytes,
        words: list[Word],
        bookmarks: list[Bookmark],
        phonemes: list[Phoneme] | None = None,
    ) -> ChunkLine:
        reached = [ReachedMark(name=mark.name, at_ms=mark.at_ms) for mark in bookmarks] or None
        return cls(audio=base64.b64encode(audio).decode(), words=words, phonemes=phonemes, bookmarks=reached)

    def audio_bytes(self) -> bytes:
        return base64.b64decode(self.audio, validate=True)


class DoneLine(_ServerMessage):
    """The last NDJSON line of a POST answer."""

    type: Literal["done"] = "done"
    audio_ms: float = 0.0
    ttfa_ms: float | None = None

    def wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


NdjsonLine = ChunkLine | DoneLine
_NDJSON_LINE: TypeAdapter[NdjsonLine] = TypeAdapter(Annotated[NdjsonLine, Field(discriminator="type")])


def ndjson_line(line: NdjsonLine) -> bytes:
    """A line as sent: JSON, then a newline."""
    return json.dumps(line.wire()).encode() + b"\n"


def parse_ndjson_line(data: bytes) -> NdjsonLine | None:
    """A POST answer's line, typed; ``None`` for a line type this client does not know. Raises
    ``UnexpectedMessage`` for a line it cannot read."""
    try:
        document = json.loads(data)
        if isinstance(document, dict) and document.get("type") not in ("chunk", "done"):
            return None
        line = _NDJSON_LINE.validate_python(document)
        if isinstance(line, ChunkLine):
            line.audio_bytes()  # refuse a line whose audio is not base64 here, not where it is played
        return line
    except (ValueError, ValidationError, binascii.Error) as error:
        raise UnexpectedMessage(f"the response has a line this client cannot read: {error}") from None


class UnexpectedMessage(ValueError):
    """A server message a client cannot read."""


def parse_server_message(document: Any) -> ServerMessage | None:
    """A server's JSON message, typed; ``None`` for a message type this client does not know."""
    if isinstance(document, dict) and document.get("type") not in SERVER_MESSAGES:
        return None
    try:
        return _SERVER_MESSAGE.validate_python(document)
    except ValidationError as error:
        raise UnexpectedMessage(f"the server sent a message this client cannot read: {document!r} ({error})") from None
