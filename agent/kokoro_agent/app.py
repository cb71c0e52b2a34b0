"""The agent as Bedrock AgentCore Runtime serves it: POST /invocations streams events, GET /ping.

Payload: ``{"prompt": "...", "mode": "stream" | "batch"}`` starts a turn and streams its events
(server-sent events, one JSON object each: ``timing``, ``text``, ``audio``, then ``done``);
``{"action": "cancel", "played_ms": N}`` in the same runtime session is barge-in: the running turn
stops speaking at once and ends with ``canceled``, which says what the user heard (the audio up to
``played_ms``, or without it all audio sent); the conversation keeps only that of the answer.
AgentCore routes every request of a session to the same instance of this app, so a session's
conversation, speech connection and running turn live here.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bedrock_agentcore.runtime import BedrockAgentCoreApp
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.responses import JSONResponse
from strands import Agent
from strands.models.model import Model

from kokoro_core.validation import problems
from kokoro_stream.endpoint import Endpoint
from kokoro_stream.speaker import Speaker
from kokoro_stream.transport import Transport
from kokoro_stream.websocket_transport import WebSocketTransport

from .memory import keep_heard
from .scripted_model import ScriptedModel
from .settings import AgentSettings
from .turn import Mode, VoiceTurn

LOCAL_SESSION = "local"  # requests without a runtime session id (local runs) share one session
# On SIGTERM or Ctrl-C: how long turns still streaming get to end before the server cancels them. Without
# it, uvicorn waits for every open connection, and a caller holding a turn open would hold the stop.
GRACEFUL_SHUTDOWN_SECONDS = 2.0


class TurnRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["speak", "cancel"] = "speak"
    prompt: str | None = Field(None, min_length=1)
    mode: Mode = "stream"
    played_ms: float | None = Field(None, ge=0)  # with a cancel: how much of the turn's audio was played


@dataclass
class VoiceSession:
    """One runtime session: the agent's conversation, one speech connection, at most one running turn."""

    agent: Agent
    speaker: Speaker
    loop: asyncio.AbstractEventLoop  # where the speaker's connection lives
    turn: VoiceTurn | None = None


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


def build_app(
    settings: AgentSettings, make_model: Callable[[], Model], make_transport: Callable[[], Transport]
) -> BedrockAgentCoreApp:
    sessions: dict[str, VoiceSession] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_: Any) -> AsyncIterator[None]:
        yield
        # Shutting down: close every speech connection on the loop that owns it.
        for session in list(sessions.values()):
            closing = asyncio.run_coroutine_threadsafe(session.speaker.abort(), session.loop)
            await asyncio.wrap_future(closing)

    app = BedrockAgentCoreApp(lifespan=lifespan)

    async def session_for(session_id: str) -> VoiceSession:
        if session_id not in sessions:
            speaker = Speaker(make_transport(), voice=settings.voice, sample_rate=settings.sample_rate)
            await speaker.open()
            agent = Agent(model=make_model(), system_prompt=settings.system_prompt, callback_handler=None)
            sessions[session_id] = VoiceSession(agent, speaker, asyncio.get_running_loop())
        return sessions[session_id]

    @app.entrypoint
    async def invoke(payload: Any, context: Any) -> Any:
        if not isinstance(payload, dict):
            return error(400, "invalid_payload", 'the body must be a JSON object like {"prompt": "Hello"}')
        try:
            request = TurnRequest.model_validate(payload)
        except ValidationError as problem:
            details = "; ".join(f"{item.where or 'body'}: {item.message}" for item in problems(problem))
            allowed = '{"prompt": "...", "mode": "stream" | "batch"} or {"action": "cancel", "played_ms": 1200}'
            return error(400, "invalid_payload", f"{details}; send {allowed}")
        session_id = getattr(context, "session_id", None) or LOCAL_SESSION
        if request.action == "cancel":
            session = sessions.get(session_id)
            turn = session.turn if session is not None else None
            if turn is None:
                return {"type": "idle"}
            await turn.cancel(request.played_ms)
            # Every audio event of the turn was handed out before this answer: a caller can check
            # that nothing of the canceled speech reaches it after the cancel.
            return {"type": "canceled", "audio_events": turn.audio_events, "heard_text": turn.heard.text}
        if request.prompt is None:
            return error(400, "invalid_payload", 'a turn needs a "prompt": {"prompt": "Hello"}')
        if len(request.prompt) > settings.max_prompt_chars:
            return error(
                400,
                "prompt_too_long",
                f"the prompt has {len(request.prompt)} characters; at most {settings.max_prompt_chars}",
            )
        try:
            session = await session_for(session_id)
        except Exception as failure:  # the speech connection could not be opened; try again later
            return error(
                503, "speech_unavailable", f"cannot reach the speech server: {type(failure).__name__}: {failure}"
            )
        if session.turn is not None:
            return error(
                409, "turn_in_progress", 'this session is speaking a turn; send {"action": "cancel"} first (barge-in)'
            )
        stop = threading.Event()
        session.turn = VoiceTurn(llm_text(session.agent, request.prompt, stop), session.speaker, request.mode, stop.set)
        return stream_turn(session, session.turn, len(session.agent.messages))

    async def stream_turn(session: VoiceSession, turn: VoiceTurn, turn_start: int) -> AsyncIterator[dict[str, Any]]:
        try:
            async for event in turn.events():
                yield event
        finally:
            if turn.canceled:  # the conversation goes on from what the user heard
                keep_heard(session.agent.messages, turn_start, turn.heard.text)
            session.turn = None

    return app


async def llm_text(agent: Agent, prompt: str, stop: threading.Event) -> AsyncIterator[str]:
    """The agent's streamed answer as text deltas; setting ``stop`` ends it at the next chunk."""
    async for event in agent.stream_async(prompt, cancel_signal=stop):
        if "data" in event and event["data"]:
            yield event["data"]


def app_from_settings(settings: AgentSettings) -> BedrockAgentCoreApp:
    """The app with the LLM and the speech server the settings name."""

    def make_model() -> Model:
        if settings.script is not None:
            return ScriptedModel(settings.script, settings.tokens_per_second, settings.first_token_ms)
        from strands.models.bedrock import BedrockModel

        return BedrockModel(model_id=settings.model_id, region_name=settings.region, streaming=True)

    def make_transport() -> Transport:
        if settings.tts_url is not None:
            return WebSocketTransport(settings.tts_url)
        assert settings.tts_endpoint is not None and settings.region is not None  # validated
        ca_file = Path(settings.tts_ca_file) if settings.tts_ca_file else None
        return Endpoint(settings.tts_endpoint, settings.region, settings.tts_endpoint_url, ca_file).bidi()

    return build_app(settings, make_model, make_transport)
