"""`kokoro-stream demo`: streaming speech vs. waiting for the whole reply, on this machine."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from kokoro_server.serving.background import BackgroundServer
from kokoro_server.settings import settings_from_env
from kokoro_stream.say import Spoken, speak, write_audio
from kokoro_stream.speaker import Speaker
from kokoro_stream.websocket_transport import WebSocketTransport

DEMO_REPLY = (
    "Hi! I'm the voice of this project, and I'm speaking while the text is still being written. "
    "Each sentence goes to the speech server the moment it is complete, so you hear me before the "
    "reply is finished. The model has 82 million parameters, speaks at 24 kHz, and on a GPU it takes "
    "a few milliseconds a sentence. That's the whole trick: no waiting for the full answer."
)
TOKENS_PER_SECOND = 40.0  # a typical hosted LLM streams 30 to 100 tokens a second


@dataclass(frozen=True)
class DemoResult:
    streaming: Spoken
    waiting: Spoken


async def compare(ws_url: str, text: str, tokens_per_second: float) -> DemoResult:
    """Speak ``text`` streamed as an LLM writes it, then again after waiting for all of it.

    Each on its own session, as two replies a listener has finished hearing: the server sizes a reply's
    first chunk by the audio still to be heard, which would favour the second.
    """
    async with Speaker(WebSocketTransport(ws_url)) as speaker:
        streaming = await speak(speaker, text, tokens_per_second)
    async with Speaker(WebSocketTransport(ws_url)) as speaker:
        waiting = await speak(speaker, text, tokens_per_second, wait_for_full_text=True)
    return DemoResult(streaming, waiting)


def run_demo(
    out: Path, tokens_per_second: float = TOKENS_PER_SECOND, text: str = DEMO_REPLY, model_dir: Path | None = None
) -> DemoResult:
    """Start a local server on the embedded model, speak the reply both ways, write the streamed one."""
    settings = settings_from_env(host="127.0.0.1", port=0, model_dir=model_dir)  # KOKORO_* apply here too
    with BackgroundServer(settings) as server:
        result = asyncio.run(compare(server.ws_url, text, tokens_per_second))
    write_audio(result.streaming.audio, result.streaming.format, result.streaming.sample_rate, out)
    return result
