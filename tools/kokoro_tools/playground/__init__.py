"""`kokoro-stream playground`: a browser page to hear the speech stream as a voice agent would.

Type or paste text, speak it at once or replay it as an LLM token stream at a chosen rate, pick voice
and speed; audio plays as it streams (Web Audio), the time to first audio is shown, captions follow the
word marks, and Stop is barge-in. The page holds no speech logic: this process speaks for it with the
client library (the segmenter cuts the replayed tokens into sentences, the ``Speaker`` keeps the
session, cancels, and knows what was heard), against a local server or a SageMaker endpoint.

The page and this process talk over one WebSocket (``/session``), one speech session per page:

- page → ``{"type": "speak", "text", "tokens_per_second" (0: all at once), "voice", "speed", "marks"}``,
  ``{"type": "stop", "played_ms"}``;
- process → ``{"type": "ready", "voices", "sample_rate"}``, then per reply ``{"type": "words", "words":
  [[text, start_s, end_s], …]}`` before the binary 16-bit PCM of each chunk, ``{"type": "done"}``,
  ``{"type": "stopped", "heard_text", "heard_ms"}``, ``{"type": "error", "message"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from importlib.resources import files
from typing import Any

from aiohttp import WSMsgType, web

from kokoro_core.errors import ProtocolError
from kokoro_core.model_cache import SAMPLE_RATE  # the model's: the page plays it as made
from kokoro_core.protocol import parse_json_object
from kokoro_stream.say import simulated_llm
from kokoro_stream.speaker import Speaker
from kokoro_stream.transport import SpeechError, Transport

from ..local_guard import local_guard

PAGE = files(__package__)
TRANSPORT = web.AppKey("transport", Callable[[], Transport])


class PageSession:
    """One page's speech: a Speaker (re-opened when voice, speed or marks change) and its current reply."""

    def __init__(self, ws: web.WebSocketResponse, transport: Callable[[], Transport]) -> None:
        self._ws = ws
        self._transport = transport
        self._speaker: Speaker | None = None
        self._settings: tuple[Any, ...] | None = None
        self._turn: asyncio.Task[None] | None = None

    async def open(self) -> None:
        speaker = await self._session(None, None, True)
        voices = list(speaker.ready.voices or []) if speaker.ready else []
        await self._ws.send_json({"type": "ready", "voices": voices, "sample_rate": SAMPLE_RATE})

    async def _session(self, voice: str | None, speed: float | None, marks: bool) -> Speaker:
        # The settings as the server applies them, so the page's explicit defaults keep the open session.
        default_voice = self._speaker.ready.default_voice if self._speaker and self._speaker.ready else None
        settings = (voice or default_voice, float(speed or 1.0), marks)
        if self._speaker is None or self._speaker.failed or settings != self._settings:
            if self._speaker is not None:
                await self._speaker.abort()
            self._speaker = None
            speaker = Speaker(self._transport(), voice=voice, speed=speed, sample_rate=SAMPLE_RATE, marks=marks)
            await speaker.open()
            ready = speaker.ready
            self._speaker = speaker
            self._settings = (voice or (ready.default_voice if ready else None), float(speed or 1.0), marks)
        return self._speaker

    async def handle(self, message: dict[str, Any]) -> None:
        match message.get("type"):
            case "speak":
                await self.stop(None, report=False)
                self._turn = asyncio.create_task(self._speak(message), name="kokoro-playground-turn")
            case "stop":
                await self.stop(message.get("played_ms"))
            case other:
                await self._ws.send_json({"type": "error", "message": f"unknown message type {other!r}"})

    async def _speak(self, message: dict[str, Any]) -> None:
        try:
            voice, speed, marks = message.get("voice") or None, message.get("speed"), bool(message.get("marks"))
            speaker = await self._session(voice, speed, marks)
            rate = float(message.get("tokens_per_second") or 0)
            text = str(message.get("text", ""))
            chunks = speaker.speak(simulated_llm(text, rate) if rate > 0 else text)
            async for chunk in chunks:
                if chunk.words:
                    await self._ws.send_json({"type": "words", "words": chunk.reply_times()})
                await self._ws.send_bytes(chunk.audio)
            await self._ws.send_json({"type": "done"})
        except (SpeechError, ValueError) as error:
            await self._ws.send_json({"type": "error", "message": str(error)})

    async def stop(self, played_ms: float | None, report: bool = True) -> None:
        """Barge-in: cancel on the server, end the turn; say what the listener heard."""
        turn, self._turn = self._turn, None
        if turn is None or turn.done():
            return
        speaker = self._speaker
        heard = None
        if speaker is not None:
            if played_ms is not None:
                speaker.played(float(played_ms))
            heard = await speaker.cancel()
        turn.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await turn
        if report and heard is not None:
            await self._ws.send_json({"type": "stopped", "heard_text": heard.text, "heard_ms": heard.heard_ms})

    async def close(self) -> None:
        await self.stop(None, report=False)
        if self._speaker is not None:
            await self._speaker.abort()


async def session(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    page = PageSession(ws, request.app[TRANSPORT])
    try:
        await page.open()
    except SpeechError as error:
        await ws.send_json({"type": "error", "message": f"no speech session: {error}"})
        await ws.close()
        return ws
    try:
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            try:
                message = parse_json_object(frame.data)
            except ProtocolError as error:
                await ws.send_json({"type": "error", "message": error.message})
                continue
            await page.handle(message)
    finally:
        await page.close()
    return ws


async def static(request: web.Request) -> web.Response:
    name = request.match_info.get("name") or "index.html"
    kinds = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
    kind = next((value for suffix, value in kinds.items() if name.endswith(suffix)), None)
    resource = PAGE / name
    if kind is None or "/" in name or not resource.is_file():
        raise web.HTTPNotFound(text=f"no {name} here")
    return web.Response(text=resource.read_text(), content_type=kind)


def playground_app(transport: Callable[[], Transport], listening_on: str = "127.0.0.1") -> web.Application:
    """The page and its session; only the page itself may open one (``local_guard``): the session speaks
    with whatever the transport holds, the user's AWS credentials included."""
    app = web.Application(middlewares=[local_guard(listening_on)])
    app[TRANSPORT] = transport
    app.router.add_get("/", static)
    app.router.add_get("/session", session)
    app.router.add_get("/{name}", static)
    return app
