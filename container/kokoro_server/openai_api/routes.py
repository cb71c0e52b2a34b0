"""An OpenAI-compatible speech API over this project's speech, so any app written for OpenAI's speech
endpoint speaks with Kokoro unchanged (``base_url`` pointed here):

- ``POST /v1/audio/speech``: ``model``, ``input``, ``voice`` (OpenAI's names, Kokoro's, or a blend of
  either, ``nova:0.5+af_bella:0.5``, which the speech source checks), ``response_format`` (mp3, opus,
  aac, flac, wav, pcm: ``formats``), ``speed`` (OpenAI's 0.25 to 4.0: ``speed``), ``stream_format``
  (``audio``: the encoded bytes as they are made; ``sse``: server-sent events ``speech.audio.delta``
  with base64 audio, then ``speech.audio.done``), ``instructions`` (accepted, and ignored: Kokoro takes
  no style prompt);
- ``GET /v1/models``: the model names it answers to;
- ``GET /v1/audio/voices``: OpenAI's voice names with the Kokoro voice each maps to, and Kokoro's own.

The speech comes from a ``SpeechSource``: the local server's engine (``kokoro-stream serve``), or a
SageMaker endpoint (``kokoro-stream proxy``). Errors answer in OpenAI's shape
(``{"error": {"message", "type", "param", "code"}}``), naming what was wrong and what is allowed.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import AsyncGenerator
from typing import Any, Literal, Protocol

from aiohttp import web
from pydantic import BaseModel, ConfigDict, StrictFloat, ValidationError

from kokoro_core.errors import ProtocolError
from kokoro_core.model_cache import SAMPLE_RATE
from kokoro_core.protocol import parse_json_object
from kokoro_core.validation import problems, shown

from .formats import CONTENT_TYPES, Encoder, Unavailable, encoder_for
from .speed import OPENAI_SPEED_RANGE, split_speed

# OpenAI's voices, each given the Kokoro voice nearest in register and accent.
OPENAI_VOICES = {
    "alloy": "af_alloy",
    "ash": "am_michael",
    "ballad": "bm_george",
    "cedar": "am_liam",
    "coral": "af_heart",
    "echo": "am_echo",
    "fable": "bm_fable",
    "marin": "af_river",
    "nova": "af_nova",
    "onyx": "am_onyx",
    "sage": "af_sarah",
    "shimmer": "af_bella",
    "verse": "am_puck",
}
MODELS = ("kokoro", "tts-1", "tts-1-hd", "gpt-4o-mini-tts")
OWNER = "kokoro-sagemaker-streaming"
BLEND_SIGNS = ("+", ":", "(")  # a voice string with any of these is a blend: "af_heart:0.7+af_bella:0.3"
# Which request field a speech source's refusal is about, by its error code.
PARAM_OF_CODE = {"invalid_text": "input", "unknown_voice": "voice", "invalid_voice": "voice", "invalid_speed": "speed"}


class SourceRefused(Exception):
    """The speech source would not speak: an HTTP status, a code and a message for the caller."""

    def __init__(self, status: int, code: str, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.param = param or PARAM_OF_CODE.get(code)  # the request field it is about, where one is


class SpeechSource(Protocol):
    def voices(self) -> tuple[str, ...] | None:
        """The Kokoro voices it has, or None when it cannot say (then the source itself refuses one)."""

    def stream(self, text: str, voice: str, speed: float) -> AsyncGenerator[bytes, None]:
        """16-bit mono PCM at 24 kHz, chunk by chunk; raises ``SourceRefused`` before the first chunk."""


class SpeechBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str
    input: str
    voice: str
    response_format: str = "mp3"
    speed: StrictFloat = 1.0  # a number: "1.5" or true is refused, not read as one
    stream_format: Literal["audio", "sse"] = "audio"
    instructions: str | None = None


SOURCE = web.AppKey("openai_speech_source", SpeechSource)


def openai_error(status: int, message: str, param: str | None = None, code: str | None = None) -> web.Response:
    kind = "invalid_request_error" if status < 500 else "server_error"
    document = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return web.json_response(document, status=status)


def speak_fields(text: str, voice: str, speed: float) -> dict[str, object]:
    """The speech request a source makes of this project's server (a POST body): 16-bit PCM at the
    model's rate, which the API then encodes as the caller asked."""
    return {"text": text, "voice": voice, "speed": speed, "format": "pcm16", "sample_rate": SAMPLE_RATE}


def resolve_voice(name: str, available: tuple[str, ...] | None) -> str:
    """The Kokoro voice for ``name``: OpenAI's names mapped, checked against ``available`` where the source
    says what it has. A blend has each voice it names mapped, its weights kept, and is left to the source
    to check (which blends it accepts is the source's to say)."""
    if any(sign in name for sign in BLEND_SIGNS):
        return "+".join(_blend_part(part) for part in name.split("+"))
    voice = OPENAI_VOICES.get(name, name)
    if available is None or voice in available:
        return voice
    here = ", ".join(available)
    if name in OPENAI_VOICES:
        message = f"voice {name!r} is Kokoro's {voice}, which this server does not have; its voices: {here}"
    else:
        message = f"voice {name!r} is not one of OpenAI's ({', '.join(OPENAI_VOICES)}) nor a Kokoro voice here ({here})"
    raise SourceRefused(400, "unknown_voice", message)


def _blend_part(part: str) -> str:
    """One voice of a blend with its weight (``nova:0.5``, ``af_bella(2)``), its name mapped."""
    cut = min((at for sign in ":(" if (at := part.find(sign)) >= 0), default=len(part))
    name = part[:cut].strip()
    return OPENAI_VOICES.get(name, name) + part[cut:].strip()


def _body(raw: bytes) -> SpeechBody:
    try:
        document = parse_json_object(raw.decode())
    except UnicodeDecodeError:
        raise SourceRefused(400, "invalid_json", "the body must be a JSON object in UTF-8") from None
    except ProtocolError as error:  # not JSON, not an object, nested too deeply, a number too long to read
        raise SourceRefused(400, "invalid_json", error.message) from None
    try:
        body = SpeechBody.model_validate(document)
    except ValidationError as error:
        problem = problems(error)[0]
        allowed = ", ".join(SpeechBody.model_fields)
        detail = f"; the fields are {allowed}" if problem.kind == "extra_forbidden" else ""
        where = problem.where if problem.where in SpeechBody.model_fields else None
        raise SourceRefused(400, "invalid_value", f"{problem.where}: {problem.message}{detail}", where) from None
    if body.model not in MODELS:
        raise SourceRefused(400, "model_not_found", f"model {body.model!r} is not served here; use one of {MODELS}")
    low, high = OPENAI_SPEED_RANGE
    if not low <= body.speed <= high:  # NaN too
        message = f"speed {shown(body.speed)} is out of range; give a number from {low} to {high}"
        raise SourceRefused(400, "invalid_speed", message)
    return body


async def speech(request: web.Request) -> web.StreamResponse:
    source = request.app[SOURCE]
    # A browser sends another site's POST without asking this server first only as a form or plain text:
    # requiring JSON keeps web pages from speaking through it.
    if request.content_type != "application/json":
        return openai_error(
            415,
            f"the body must be JSON sent with Content-Type: application/json, not {shown(request.content_type)}",
            None,
            "unsupported_media_type",
        )
    try:
        body = _body(await request.read())
        model_speed, tempo = split_speed(body.speed)
        # Encoding is the CPU's work for as long as the audio: never on the event loop.
        encoder = await asyncio.to_thread(encoder_for, body.response_format, tempo)
        audio = source.stream(body.input, resolve_voice(body.voice, source.voices()), model_speed)
        first = await anext(audio, b"")  # a refusal comes before any byte: it can still be an HTTP error
    except Unavailable as error:
        return openai_error(400, str(error), error.param, error.code)
    except SourceRefused as refused:
        return openai_error(refused.status, refused.message, refused.param, refused.code)
    async with contextlib.aclosing(audio):  # a caller that leaves mid-answer frees the source at once
        return await _stream(request, body, encoder, first, audio)


async def _stream(
    request: web.Request, body: SpeechBody, encoder: Encoder, first: bytes, audio: AsyncGenerator[bytes, None]
) -> web.StreamResponse:
    sse = body.stream_format == "sse"
    content_type = "text/event-stream" if sse else CONTENT_TYPES[body.response_format]
    response = web.StreamResponse(headers={"Content-Type": content_type, "Cache-Control": "no-cache"})
    response.enable_chunked_encoding()
    await response.prepare(request)

    async def send(data: bytes) -> None:
        if data and sse:
            event = {"type": "speech.audio.delta", "audio": base64.b64encode(data).decode()}
            await response.write(f"data: {json.dumps(event)}\n\n".encode())
        elif data:
            await response.write(data)

    await send(await asyncio.to_thread(encoder.encode, first))
    async for pcm in audio:
        await send(await asyncio.to_thread(encoder.encode, pcm))
    await send(await asyncio.to_thread(encoder.finish))
    if sse:
        words = len(body.input.split())  # usage in words: Kokoro reads text, not tokens
        usage = {"input_tokens": words, "output_tokens": 0, "total_tokens": words}
        await response.write(f"data: {json.dumps({'type': 'speech.audio.done', 'usage': usage})}\n\n".encode())
    await response.write_eof()
    return response


async def models(request: web.Request) -> web.Response:
    data = [{"id": name, "object": "model", "created": 0, "owned_by": OWNER} for name in MODELS]
    return web.json_response({"object": "list", "data": data})


async def voices(request: web.Request) -> web.Response:
    available = request.app[SOURCE].voices()
    mapped = [
        {"id": name, "kokoro_voice": voice}
        for name, voice in OPENAI_VOICES.items()
        if available is None or voice in available
    ]
    own: list[dict[str, Any]] = [{"id": voice, "kokoro_voice": voice} for voice in available or ()]
    return web.json_response({"voices": mapped + own})


def add_openai_routes(app: web.Application, source: SpeechSource) -> None:
    app[SOURCE] = source
    app.router.add_route("POST", "/v1/audio/speech", speech)
    app.router.add_route("GET", "/v1/models", models)
    app.router.add_route("GET", "/v1/audio/voices", voices)
