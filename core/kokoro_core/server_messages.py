"""The speech protocol's server-to-client messages, typed: those of the WebSocket session, and the NDJSON lines of
a POST answer with marks or phonemes on (docs/protocol.md).

Server messages ignore fields they do not know, so a client keeps working when the server adds one.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .audio_format import FORMATS, SAMPLE_RATES

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
