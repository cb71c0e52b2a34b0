"""`kokoro-agent local`: the agent with a scripted LLM and the local speech server, nothing from AWS."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from kokoro_server.serving.background import BackgroundServer
from kokoro_server.settings import settings_from_env
from kokoro_stream.say import write_audio

from .app import app_from_settings
from .background import BackgroundAgent
from .invoke import TurnResult, run_turn
from .settings import AgentSettings

QUIET_LOGGERS = ("bedrock_agentcore.app",)  # one line per request: noise in a terminal demo
EMULATED_ENDPOINT, EMULATED_REGION = "kokoro-tts", "us-east-1"

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
    tts_url: str | None,
    tokens_per_second: float,
    first_token_ms: float = 400.0,
    script: str = SCRIPTED_ANSWER,
    **speech: Any,
) -> AgentSettings:
    """The agent's settings for a local run: speech from ``tts_url``, or from an endpoint named in ``speech``."""
    return AgentSettings(
        script=script, tokens_per_second=tokens_per_second, first_token_ms=first_token_ms, tts_url=tts_url, **speech
    )


async def compare(agent_url: str, prompt: str) -> LocalComparison:
    async with aiohttp.ClientSession() as http:
        stream = await run_turn(http, agent_url, {"prompt": prompt, "mode": "stream"}, "local-stream")
        batch = await run_turn(http, agent_url, {"prompt": prompt, "mode": "batch"}, "local-batch")
    return LocalComparison(stream, batch)


def quiet() -> None:
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


@contextmanager
def local_speech(through_emulator: bool) -> Iterator[dict[str, Any]]:
    """A local speech server, and the agent settings that reach it: its WebSocket directly, or, through
    ``kokoro-stream emulate``, SageMaker's bidirectional stream with the pinned SDK as on AWS."""
    with BackgroundServer(settings_from_env(host="127.0.0.1", port=0)) as speech:
        if not through_emulator:
            yield {"tts_url": speech.ws_url}
            return
        from kokoro_tools.emulator_host import emulating

        # The emulator checks a signature's scope, never its secret: any credentials sign.
        os.environ.setdefault("AWS_ACCESS_KEY_ID", "local-emulator")
        os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local-emulator")
        with emulating(speech.url, EMULATED_ENDPOINT, EMULATED_REGION) as emulator:
            yield {
                "tts_url": None,
                "tts_endpoint": EMULATED_ENDPOINT,
                "region": EMULATED_REGION,
                "tts_endpoint_url": emulator.url,
                "tts_ca_file": str(emulator.ca_file),
            }


def run_local(
    prompt: str, out: Path, tokens_per_second: float, answer: str = SCRIPTED_ANSWER, through_emulator: bool = False
) -> LocalComparison:
    """Ask once streaming and once in batch mode (separate sessions); write the streamed audio."""
    with local_speech(through_emulator) as speech:
        app = app_from_settings(local_settings(tokens_per_second=tokens_per_second, script=answer, **speech))
        quiet()  # after the app exists: it sets its logger's level when it is made
        with BackgroundAgent(app) as agent:
            comparison = asyncio.run(compare(agent.url, prompt))
    summary = comparison.stream.summary
    write_audio(bytes(comparison.stream.audio), summary["format"], summary["sample_rate"], out)
    return comparison


def serve_local(
    tokens_per_second: float, answer: str, on_ready: Callable[[str], None], through_emulator: bool = False
) -> None:
    with local_speech(through_emulator) as speech:
        app = app_from_settings(local_settings(tokens_per_second=tokens_per_second, script=answer, **speech))
        quiet()
        with BackgroundAgent(app) as agent:
            on_ready(agent.url)
            try:
                threading.Event().wait()
            except KeyboardInterrupt:
                pass
