"""The protocol emulated over SageMaker ``POST /invocations``: one streamed request per sentence.

For endpoints or accounts without bidirectional streaming. Each ``speak`` starts its own
``invoke_endpoint_with_response_stream`` at once (sentences are synthesized in parallel, like
pipelining on a session), and the events are handed back in the order the sentences were sent.
The response's PayloadParts do not align with the server's audio chunks, so they are re-buffered
to whole samples before they are passed on.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from kokoro_server.audio import DEFAULT_RATES, FORMATS, AudioFormat

from .transport import Audio, Control, Event, TransportClosed

_WAKE = Control({"type": "wake"})  # internal: new work or a cancel for a waiting receive


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


class _Request:
    def __init__(self, utterance_id: str) -> None:
        self.id = utterance_id
        self.events: asyncio.Queue[Event | BaseException | None] = asyncio.Queue()
        self.cancel = threading.Event()


class SageMakerPostTransport:
    def __init__(self, endpoint_name: str, client: Any, target_variant: str | None = None) -> None:
        """``client``: a boto3 ``sagemaker-runtime`` client (its retries cover connection setup)."""
        self.endpoint_name = endpoint_name
        self.target_variant = target_variant
        self._client = client
        self._options: dict[str, Any] = {}
        self._requests: deque[_Request] = deque()
        self._local: asyncio.Queue[Event | None] = asyncio.Queue()
        self._closing = False

    async def connect(self) -> dict[str, Any]:
        await self.close()
        self._closing = False
        self._local = asyncio.Queue()
        return {"type": "ready", "sample_rate": 24000, "formats": list(FORMATS), "transport": "post"}

    async def send(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "configure":
            self._options = {k: v for k, v in message.items() if k != "type"}
            encoding = self._options.get("format", "pcm16")
            rate = self._options.get("sample_rate", DEFAULT_RATES.get(encoding, 24000))
            self._local.put_nowait(Control({"type": "configured", **self._options, "sample_rate": rate}))
        elif kind == "speak":
            request = _Request(str(message["id"]))
            self._requests.append(request)
            body = {"text": message["text"], **self._options}
            body.update({k: v for k, v in message.items() if k not in ("type", "id", "text")})
            loop = asyncio.get_running_loop()
            threading.Thread(target=self._invoke, args=(loop, request, body), daemon=True).start()
            self._local.put_nowait(_WAKE)  # a receive waiting for work takes this request now
        elif kind == "cancel":
            for request in self._requests:
                if message.get("id") in (None, request.id):
                    request.cancel.set()
                    request.events.put_nowait(_WAKE)  # a receive waiting on it moves on
            self._requests = deque(r for r in self._requests if not r.cancel.is_set())
        elif kind == "close":
            self._closing = True
            self._local.put_nowait(None)

    async def receive(self) -> Event:
        while True:
            if not self._requests or not self._local.empty():
                if not self._requests and self._local.empty() and self._closing:
                    raise TransportClosed("closed")
                event = await self._local.get()
                if event is None:
                    self._closing = True
                elif event is not _WAKE:
                    return event
                continue
            request = self._requests[0]
            item = await request.events.get()
            if request.cancel.is_set() or item is _WAKE:
                continue
            if item is None:
                self._requests.popleft()
                return Control({"type": "done", "id": request.id})
            if isinstance(item, BaseException):
                self._requests.popleft()
                raise item
            return item

    def _invoke(self, loop: asyncio.AbstractEventLoop, request: _Request, body: dict[str, Any]) -> None:
        """Run one streamed request on a thread; hand its events to the event loop."""

        def put(item: Event | BaseException | None) -> None:
            try:
                loop.call_soon_threadsafe(request.events.put_nowait, item)
            except RuntimeError:
                request.cancel.set()  # the event loop is gone: nobody is listening any more

        encoding = str(body.get("format", "pcm16"))
        rebuffer = PayloadRebuffer(AudioFormat(encoding, DEFAULT_RATES.get(encoding, 24000)).sample_bytes)
        arguments = {"EndpointName": self.endpoint_name, "Body": json.dumps(body), "ContentType": "application/json"}
        if self.target_variant:
            arguments["TargetVariant"] = self.target_variant
        try:
            response = self._client.invoke_endpoint_with_response_stream(**arguments)
            put(Control({"type": "start", "id": request.id}))
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


def stream_events(event: dict[str, Any], rebuffer: PayloadRebuffer) -> list[Event]:
    """One event of a boto3 response stream as protocol events."""
    if "PayloadPart" in event:
        data = rebuffer.feed(event["PayloadPart"].get("Bytes", b""))
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
    return Control({"type": "error", "id": utterance_id, "code": code, "message": message})
