"""The SageMaker container routes: /ping, POST /invocations, WS /invocations-bidirectional-stream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from aiohttp import web

from kokoro_core.errors import ErrorCode, ProtocolError
from kokoro_core.protocol import SpeakRequest, decode_utf8, parse_json_object, parse_speak_request
from kokoro_core.server_messages import ChunkLine, DoneLine, ndjson_line
from kokoro_server.openai_api.routes import SourceRefused, speak_fields

from .admission import Outcome
from .rendering import Rendered
from .runtime import Runtime
from .session import Session
from .utterance import Utterance

RUNTIME = web.AppKey("runtime", Runtime)
NDJSON = "application/x-ndjson"  # the POST response with marks: one JSON line per chunk, then ``done``
RETRY_AFTER_SECONDS = "1"
ROUTES = (
    "GET|POST /ping, POST /invocations, GET /invocations-bidirectional-stream (WebSocket), "
    "POST /v1/audio/speech, GET /v1/models, GET /v1/audio/voices"
)


def _error(status: int, code: ErrorCode, message: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status, headers=headers)


def _unavailable_reason(runtime: Runtime) -> tuple[ErrorCode, str] | None:
    if runtime.state == "draining":
        return "shutting_down", "this instance is shutting down; retry"
    if not runtime.ready:
        return "not_ready", "the model is still loading; retry"
    return None


def _unavailable(runtime: Runtime) -> web.Response | None:
    if (reason := _unavailable_reason(runtime)) is None:
        return None
    return _error(503, *reason, {"Retry-After": RETRY_AFTER_SECONDS})


async def ping(request: web.Request) -> web.Response:
    runtime = request.app[RUNTIME]
    if runtime.ready:
        return web.json_response({"status": "ready", "device": runtime.engine.device if runtime.engine else None})
    return web.json_response({"status": runtime.state}, status=503)


def _parse_request(body: bytes, content_type: str) -> SpeakRequest:
    """A JSON body with options, or plain text spoken with the defaults."""
    text = decode_utf8(body)
    if "json" in content_type or (content_type in ("", "application/octet-stream") and text.lstrip()[:1] == "{"):
        return parse_speak_request(parse_json_object(text))
    return parse_speak_request({"text": text})


async def invocations(request: web.Request) -> web.StreamResponse:
    runtime = request.app[RUNTIME]
    if (unavailable := _unavailable(runtime)) is not None:
        return unavailable
    assert runtime.engine is not None
    try:
        utterance = await admitted_alone(runtime, _parse_request(await request.read(), request.content_type), "http")
    except ProtocolError as error:
        if error.code == "busy":
            return _error(503, "busy", error.message, {"Retry-After": RETRY_AFTER_SECONDS})
        return _error(400, error.code, error.message)
    options = utterance.options
    ndjson = options.marks or options.phonemes  # audio with its times, as JSON lines
    response = web.StreamResponse(
        headers={
            "Content-Type": NDJSON if ndjson else options.format.content_type,
            "X-Audio-Format": options.format.encoding,
            "X-Sample-Rate": str(options.format.sample_rate),
            "X-Channels": "1",
            "X-Voice": options.voice,
        }
    )
    response.enable_chunked_encoding()
    deadline = runtime.settings.send_timeout_seconds
    outcome: Outcome = "failed"
    try:
        await response.prepare(request)
        header = utterance.header
        if header and not ndjson:
            await _write(request, response, header, deadline)
        async for rendered in rendered_alone(runtime, utterance):
            if ndjson:
                words = rendered.words if options.marks else []
                phonemes = rendered.phonemes if options.phonemes else None
                line = ChunkLine.of(header + rendered.audio, words, rendered.bookmarks, phonemes)
                await _write(request, response, ndjson_line(line), deadline)
                header = b""
            elif rendered.audio:  # without marks the body is audio alone: SSML marks need ``marks``
                await _write(request, response, rendered.audio, deadline)
        outcome = "done"
        if ndjson:
            done = DoneLine(audio_ms=utterance.audio_ms, ttfa_ms=utterance.ttfa_ms)
            await _write(request, response, ndjson_line(done), deadline)
        await response.write_eof()
    except (ConnectionError, asyncio.CancelledError):
        if outcome != "done":
            outcome = "disconnected"  # the client went away: its remaining chunks are withdrawn
        raise
    finally:
        utterance.admission.settle(outcome)
    return response


async def _write(request: web.Request, response: web.StreamResponse, data: bytes, deadline: float) -> None:
    """Write within ``deadline`` seconds, else drop the connection: a client that stops reading must not
    hold its admission slot (and the audio synthesized for it) for as long as it likes."""
    try:
        async with asyncio.timeout(deadline):
            await response.write(data)
    except TimeoutError:
        if request.transport is not None:
            request.transport.abort()
        raise ConnectionResetError(f"the client accepted no audio for {deadline:g} s") from None


async def admitted_alone(runtime: Runtime, speech: SpeakRequest, prefix: str) -> Utterance:
    """An utterance of its own (a request's: no session, nothing plays before it), admitted and its SSML parsed.
    Its handler owns it from here and settles it once; a document refused is settled here, before the error."""
    utterance = runtime.admit(speech, runtime.new_id("r"), runtime.new_id(prefix), runtime.default_options())
    try:
        await runtime.parsed(utterance)
    except ProtocolError:
        utterance.admission.settle("refused")
        raise
    except BaseException as error:
        utterance.admission.settle("disconnected" if isinstance(error, asyncio.CancelledError) else "failed")
        raise
    return utterance


async def rendered_alone(runtime: Runtime, utterance: Utterance) -> AsyncIterator[Rendered]:
    """An utterance of its own, chunk by chunk (its handler settles it)."""
    with runtime.requests.tracking():  # the request's handler: a stop past its drain deadline cancels it
        async for rendered in runtime.render(utterance, (runtime.settings.first_chunk_chars, False)):
            yield rendered
            utterance.sent(len(rendered.audio))


class EngineSpeech:
    """The OpenAI API's speech on this server: each request one utterance, as a POST to /invocations."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    def voices(self) -> tuple[str, ...] | None:
        return self._runtime.engine.voices if self._runtime.engine is not None else None

    async def stream(self, text: str, voice: str, speed: float) -> AsyncGenerator[bytes, None]:
        runtime = self._runtime
        if (reason := _unavailable_reason(runtime)) is not None:
            raise SourceRefused(503, *reason)
        try:
            utterance = await admitted_alone(runtime, parse_speak_request(speak_fields(text, voice, speed)), "openai")
        except ProtocolError as error:
            raise SourceRefused(503 if error.code == "busy" else 400, error.code, error.message) from None
        outcome: Outcome = "failed"
        try:
            async for rendered in rendered_alone(runtime, utterance):
                if rendered.audio:
                    yield rendered.audio
            outcome = "done"
        except (ConnectionError, asyncio.CancelledError, GeneratorExit):
            outcome = "disconnected"  # the client went away: its remaining chunks are withdrawn
            raise
        finally:
            utterance.admission.settle(outcome)


async def bidirectional(request: web.Request) -> web.StreamResponse:
    runtime = request.app[RUNTIME]
    if (unavailable := _unavailable(runtime)) is not None:
        return unavailable
    settings = runtime.settings
    ws = web.WebSocketResponse(
        max_msg_size=settings.max_message_bytes * 4, autoping=True, heartbeat=settings.heartbeat_seconds or None
    )
    await ws.prepare(request)
    transport = request.transport
    session = Session(ws, runtime, transport.abort if transport is not None else lambda: None)
    runtime.sessions.add(session)
    try:
        await session.run()
    finally:
        runtime.sessions.discard(session)
    return ws


def add_routes(app: web.Application) -> None:
    app.router.add_route("GET", "/ping", ping)
    app.router.add_route("POST", "/ping", ping)
    app.router.add_route("POST", "/invocations", invocations)
    app.router.add_route("GET", "/invocations-bidirectional-stream", bidirectional)


def json_error_middleware() -> Any:
    """Errors aiohttp raises itself (body too large, wrong method) as JSON like ours."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response: web.StreamResponse = await handler(request)
            return response
        except web.HTTPException as error:
            if error.status < 400:
                raise
            code = error.reason.lower().replace(" ", "_")
            message = error.text or error.reason
            if error.status in (404, 405):
                message = f"{request.method} {request.path} is not a route here; routes: {ROUTES}"
            return web.json_response({"error": code, "message": message}, status=error.status, headers=_plain(error))

    return middleware


def _plain(error: web.HTTPException) -> dict[str, str]:
    return {key: value for key, value in error.headers.items() if key.lower() in ("allow", "retry-after")}
