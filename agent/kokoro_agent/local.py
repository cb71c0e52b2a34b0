"""`kokoro-agent local`: the agent with a scripted LLM and the local speech server, nothing from AWS."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from kokoro_server.background import BackgroundServer
from kokoro_server.settings import settings_from_env
from kokoro_stream.say import write_audio

from .app import app_from_settings
from .background import BackgroundAgent
from .invoke import TurnResult, run_turn
from .settings import AgentSettings

QUIET_LOGGERS = ("bedrock_agentcore.app",)  # one line per request: noise in a terminal demo

SCRIPTED_ANSWER = (
    "Great question! A voice agent feels slow when speech waits for the whole answer. Here, each "
    "sentence goes to the speech server the moment the model finishes writing it, so you hear the "
    "first one while the rest is still being written. On a GPU, a sentence takes a few milliseconds to "
    "synthesize, so the listener mostly waits for the model's first sentence, and nothing else."
)


@dataclass(frozen=True)
class LocalComparison:
    stream: TurnResult
    batch: TurnResult


def local_settings(
    tts_url: str, tokens_per_second: float, first_token_ms: float = 400.0, script: str = SCRIPTED_ANSWER
) -> AgentSettings:
    return AgentSettings(
        script=script, tokens_per_second=tokens_per_second, first_token_ms=first_token_ms, tts_url=tts_url
    )


async def compare(agent_url: str, prompt: str) -> LocalComparison:
    async with aiohttp.ClientSession() as http:
        stream = await run_turn(http, agent_url, {"prompt": prompt, "mode": "stream"}, "local-stream")
        batch = await run_turn(http, agent_url, {"prompt": prompt, "mode": "batch"}, "local-batch")
    return LocalComparison(stream, batch)


def quiet() -> None:
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def run_local(prompt: str, out: Path, tokens_per_second: float, answer: str = SCRIPTED_ANSWER) -> LocalComparison:
    """Ask once streaming and once in batch mode (separate sessions); write the streamed audio."""
    with BackgroundServer(settings_from_env(host="127.0.0.1", port=0)) as speech:
        app = app_from_settings(local_settings(speech.ws_url, tokens_per_second, script=answer))
        quiet()  # after the app exists: it sets its logger's level when it is made
        with BackgroundAgent(app) as agent:
            comparison = asyncio.run(compare(agent.url, prompt))
    summary = comparison.stream.summary
    write_audio(bytes(comparison.stream.audio), summary["format"], summary["sample_rate"], out)
    return comparison


def serve_local(tokens_per_second: float, answer: str, on_ready: Callable[[str], None]) -> None:
    with BackgroundServer(settings_from_env(host="127.0.0.1", port=0)) as speech:
        app = app_from_settings(local_settings(speech.ws_url, tokens_per_second, script=answer))
        quiet()
        with BackgroundAgent(app) as agent:
            on_ready(agent.url)
            try:
                threading.Event().wait()
            except KeyboardInterrupt:
                pass
