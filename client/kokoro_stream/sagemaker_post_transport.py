"""The protocol emulated over SageMaker ``POST /invocations``: one streamed request per sentence.

For endpoints or accounts without bidirectional streaming. Each ``speak`` starts its own
``invoke_endpoint_with_response_stream`` at once (sentences are synthesized in parallel, like
pipelining on a session), and the events are handed back in the order the sentences were sent.
The response's PayloadParts do not align with the server's audio chunks, so they are re-buffered
to whole samples before they are passed on. With ``marks`` on, the response is newline-delimited JSON
(each chunk's audio in base64 with its words), re-buffered to whole lines instead.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from kokoro_core.audio_format import DEFAULT_RATES, FORMATS, AudioFormat
from kokoro_core.protocol import Append, Cancel, ClientMessage, Close, Configure, End, Flush, Open, Speak, SpeakRequest
from kokoro_core.server_messages import (
    Bookmark,
    ChunkLine,
    Configured,
    Done,
    Error,
    Marks,
    Phonemes,
    Ready,
    Start,
    UnexpectedMessage,
    parse_ndjson_line,
)

from .transport import Audio, Control, Event, SpeechError, TransportClosed


class _Wake:
    """New work or a cancel, for a receive that waits."""


_WAKE = _Wake()


class PayloadRebuffer:
    """Joins PayloadParts cut anywhere into chunks of whole samples."""

    def __init__(self, sample_bytes: int) -> None:
        self._sample_bytes = sample_bytes
        self._carry = b""

    def feed(self, data: bytes) -> bytes:
        data = self._carry + data
        whole = len(data) - len(data) % self._sample_bytes
        self._carry = data[whole:]
        return data[:whole]

    def finish(self) -> bytes:
        """The end of the response: a dangling part-sample means the stream was cut."""
        if self._carry:
            raise TransportClosed(f"the response ended inside a sample ({len(self._carry)} stray bytes)")
        return b""


class NdjsonReader:
    """Joins PayloadParts cut anywhere into the NDJSON response's lines: each chunk as its marks and audio."""

    def __init__(self, utterance_id: str) -> None:
        self._utterance_id = utterance_id
        self._carry = b""

    def feed(self, data: bytes) -> list[Event]:
        *lines, self._carry = (self._carry + data).split(b"\n")
        events: list[Event] = []
        for line in filter(None, (line.strip() for line in lines)):
            try:
                parsed = parse_ndjson_line(line)
            except UnexpectedMessage as error:
                raise TransportClosed(str(error)) from None
            if not isinstance(parsed, ChunkLine):
                continue  # "done", or a line type this client does not know
            audio = parsed.audio_bytes()
            marks = Marks(id=self._utterance_id, words=parsed.words)
            phonemes = Phonemes(id=self._utterance_id, phonemes=parsed.phonemes or [])
            reached = [Bookmark(id=self._utterance_id, **mark.model_dump()) for mark in parsed.bookmarks or []]
            events.extend(Control(bookmark) for bookmark in reached)  # an SSML document's marks, before the audio
            if marks.words:
                events.append(Control(marks))
            if phonemes.phonemes:
                events.append(Control(phonemes))
            if audio:
                events.append(Audio(audio))
        return events

    def finish(self) -> bytes:
        """The end of the response: a dangling part-line means the stream was cut."""
        if self._carry.strip():
            raise TransportClosed(f"the response ended inside a line ({len(self._carry)} stray bytes)")
        return b""


class _Request:
    def __init__(self, utterance_id: str) -> None:
        self.id = utterance_id
        self.events: asyncio.Queue[Event | _Wake | BaseException | None] = asyncio.Queue()
        self.cancel = threading.Event()


class SageMakerPostTransport:
    def __init__(self, endpoint_name: str, client: Any, target_variant: str | None = None) -> None:
        """``client``: a boto3 ``sagemaker-runtime`` client (its retries cover connection setup)."""
        self.endpoint_name = endpoint_name
        self.target_variant = target_variant
        self._client = client
        self._options = Configure()
        self._requests: deque[_Request] = deque()
        self._local: asyncio.Queue[Event | _Wake | None] = asyncio.Queue()
        self._closing = False

    async def connect(self, hello: ClientMessage) -> Ready:
        await self.close()
        self._closing = False
        self._local = asyncio.Queue()
        await self.send(hello)  # its answer (``configured``) waits in the queue behind ``ready``
        return Ready(sample_rate=24000, formats=list(FORMATS))

    async def send(self, message: ClientMessage) -> None:
        match message:
            case Configure():
                self._options = message
                self._local.put_nowait(Control(Configured(**self._described(message))))
            case Speak():
                request = _Request(message.id or f"post-{id(message)}")
                self._requests.append(request)
                # The session's options, then the speak's own: one POST body of the same fields.
                fields = self._options.wire() | message.wire()
                body = SpeakRequest.model_validate({k: v for k, v in fields.items() if k in SpeakRequest.model_fields})
                loop = asyncio.get_running_loop()
                threading.Thread(target=self._invoke, args=(loop, request, body), daemon=True).start()
                self._local.put_nowait(_WAKE)  # a receive waiting for work takes this request now
            case Cancel():
                for request in self._requests:
                    if message.id in (None, request.id):
                        request.cancel.set()
                        request.events.put_nowait(_WAKE)  # a receive waiting on it moves on
                self._requests = deque(r for r in self._requests if not r.cancel.is_set())
            case Close():
                self._closing = True
                self._local.put_nowait(None)
            case Open() | Append() | Flush() | End():
                raise SpeechError(
                    "the POST transport has no session to stream text to (a context); cut the text in the client: "
                    'Speaker(..., segment="client")'
                )

    @staticmethod
    def _described(options: Configure | SpeakRequest) -> dict[str, Any]:
        """What the endpoint will apply, as far as a client knows it: the options given, the protocol's defaults
        for the others (``Configured``'s), and the default voice left out (only the server knows it)."""
        given = {
            name: value
            for name in ("voice", "speed", "format", "normalize", "marks", "phonemes", "foreign_script")
            if (value := getattr(options, name)) is not None
        }
        encoding = options.format or Configured.model_fields["format"].default
        sample_rate = options.sample_rate or DEFAULT_RATES[encoding]
        return {**given, "format": encoding, "sample_rate": sample_rate, "lexicon_entries": len(options.lexicon or {})}

    async def receive(self) -> Event:
        while True:
            if not self._requests or not self._local.empty():
                if not self._requests and self._local.empty() and self._closing:
                    raise TransportClosed("closed")
                event = await self._local.get()
                if event is None:
                    self._closing = True
                elif not isinstance(event, _Wake):
                    return event
                continue
            request = self._requests[0]
            item = await request.events.get()
            if request.cancel.is_set() or isinstance(item, _Wake):
                continue
            if item is None:
                self._requests.popleft()
                return Control(Done(id=request.id))
            if isinstance(item, BaseException):
                self._requests.popleft()
                raise item
            return item

    def _invoke(self, loop: asyncio.AbstractEventLoop, request: _Request, body: SpeakRequest) -> None:
        """Run one streamed request on a thread; hand its events to the event loop."""

        def put(item: Event | BaseException | None) -> None:
            try:
                loop.call_soon_threadsafe(request.events.put_nowait, item)
            except RuntimeError:
                request.cancel.set()  # the event loop is gone: nobody is listening any more

        described = self._described(body)
        rebuffer: PayloadRebuffer | NdjsonReader = (
            NdjsonReader(request.id)
            if body.marks or body.phonemes  # the server answers in NDJSON with either
            else PayloadRebuffer(AudioFormat(described["format"], described["sample_rate"]).sample_bytes)
        )
        arguments = {
            "EndpointName": self.endpoint_name,
            "Body": json.dumps(body.wire()),
            "ContentType": "application/json",
        }
        if self.target_variant:
            arguments["TargetVariant"] = self.target_variant
        try:
            response = self._client.invoke_endpoint_with_response_stream(**arguments)
            put(Control(Start(id=request.id, **described)))
            for event in response["Body"]:
                if request.cancel.is_set():  # canceled, or the session is gone
                    response["Body"].close()
                    return
                for item in stream_events(event, rebuffer):
                    put(item)
            rebuffer.finish()
            put(None)
        except ClientError as error:
            put(_client_error(error, request.id))
            put(None)
        except (BotoCoreError, TransportClosed, OSError) as error:
            put(error if isinstance(error, TransportClosed) else TransportClosed(f"the request failed: {error}"))

    async def close(self) -> None:
        for request in self._requests:
            request.cancel.set()
        self._requests.clear()


def stream_events(event: dict[str, Any], rebuffer: PayloadRebuffer | NdjsonReader) -> list[Event]:
    """One event of a boto3 response stream as protocol events."""
    if "PayloadPart" in event:
        data = rebuffer.feed(event["PayloadPart"].get("Bytes", b""))
        if isinstance(data, list):
            return data
        return [Audio(data)] if data else []
    for failure in ("ModelStreamError", "InternalStreamFailure"):
        if failure in event:
            raise TransportClosed(f"{failure}: {event[failure].get('Message', event[failure])}")
    return []


def _client_error(error: ClientError, utterance_id: str) -> Control:
    """The server's JSON error (a 4xx from the container arrives as ModelError) as a protocol error."""
    details = error.response.get("Error", {})
    code, message = details.get("Code", "error"), details.get("Message", str(error))
    original = error.response.get("OriginalMessage") or message
    try:
        body = json.loads(original)
        code, message = body.get("error", code), body.get("message", message)
    except (TypeError, ValueError):
        pass
    return Control(Error(id=utterance_id, code=str(code), message=str(message)))
