"""The ways a voice agent can turn a streamed reply into speech, each timed from the first token.

- ``wait_full``: wait for the last token, then one POST with the whole reply;
- ``sentence_post``: one POST per sentence, each started as soon as its sentence is complete;
- ``bidi``: one persistent session, sentences pipelined as they complete (this project);
- ``engine``: the floor — the same sentences synthesized in-process by a bare engine call as they
  complete, no server, no network;
- the physical limit of a reply: when its first sentence's last token arrives, plus the engine's
  time for that sentence's first chunk.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kokoro_capacity.timeline import Timeline
from kokoro_core.chunker import chunk_text
from kokoro_core.speakable import language_of
from kokoro_core.speech_text import SpeechText
from kokoro_server.engine.kokoro import Engine
from kokoro_server.text.reading import VoiceReading
from kokoro_stream.sagemaker_post_transport import PayloadRebuffer, SageMakerPostTransport
from kokoro_stream.say import llm_tokens, simulated_llm
from kokoro_stream.speaker import Speaker
from kokoro_stream.transport import Transport

STRATEGIES = ("wait_full", "sentence_post", "bidi", "engine")


@dataclass
class Target:
    """Where speech comes from: a session transport and a boto3-like runtime client for POSTs."""

    transport: Callable[[], Transport]
    runtime: Any
    endpoint_name: str
    engine: Engine
    voice: str


async def timed_session(
    target: Target,
    transport: Transport,
    text: str,
    tokens_per_second: float,
    start: asyncio.Event | None = None,
    timeout: float = 30.0,
) -> Timeline:
    """One reply over an open session, timed from its first token (after ``start``, if given)."""
    timeline = Timeline()
    async with Speaker(transport, voice=target.voice, timeout=timeout) as speaker:
        if start is not None:
            await start.wait()
        started = time.perf_counter()  # the session is open already: it persists across turns
        async for chunk in speaker.speak(simulated_llm(text, tokens_per_second, started)):
            timeline.add(time.perf_counter() - started, len(chunk.audio))
    return timeline


async def bidi(target: Target, text: str, tokens_per_second: float) -> Timeline:
    return await timed_session(target, target.transport(), text, tokens_per_second)


async def sentence_post(target: Target, text: str, tokens_per_second: float) -> Timeline:
    transport = SageMakerPostTransport(target.endpoint_name, target.runtime)
    return await timed_session(target, transport, text, tokens_per_second)


async def wait_full(target: Target, text: str, tokens_per_second: float) -> Timeline:
    started = time.perf_counter()
    await asyncio.sleep(max(0.0, started + (len(llm_tokens(text)) - 1) / tokens_per_second - time.perf_counter()))

    def post() -> list[tuple[float, int]]:
        body = json.dumps({"text": text, "voice": target.voice})
        response = target.runtime.invoke_endpoint_with_response_stream(
            EndpointName=target.endpoint_name, Body=body, ContentType="application/json"
        )
        rebuffer, arrivals = PayloadRebuffer(2), []
        for event in response["Body"]:
            data = rebuffer.feed(event.get("PayloadPart", {}).get("Bytes", b""))
            arrivals.append((time.perf_counter() - started, len(data)))
        return arrivals

    timeline = Timeline()
    for at, size in await asyncio.to_thread(post):
        timeline.add(at, size)
    return timeline


async def engine(target: Target, text: str, tokens_per_second: float) -> Timeline:
    """Sentences synthesized one after another, each as soon as it is complete and the engine is free."""
    timeline, sentences = Timeline(), asyncio.Queue()
    started = time.perf_counter()

    async def produce() -> None:
        speech = SpeechText()
        async for token in simulated_llm(text, tokens_per_second, started):
            for sentence in speech.push(token):
                sentences.put_nowait(sentence)
        for sentence in speech.flush():
            sentences.put_nowait(sentence)
        sentences.put_nowait(None)

    producer = asyncio.create_task(produce())
    while (sentence := await sentences.get()) is not None:
        for chunk in chunk_text(sentence, reading=VoiceReading(language_of(target.voice))):
            speech = await asyncio.to_thread(target.engine.synthesize, chunk, target.voice)
            timeline.add(time.perf_counter() - started, 2 * len(speech.audio))
    await producer
    return timeline


def first_chunk_seconds(target: Target, sentence: str) -> float:
    """The bare engine's time for the first chunk the server would synthesize for ``sentence``."""
    chunk = chunk_text(sentence, reading=VoiceReading(language_of(target.voice)))[0]
    begun = time.perf_counter()
    target.engine.synthesize(chunk, target.voice)
    return time.perf_counter() - begun


async def server_first_audio(target: Target, sentence: str) -> float:
    """Time to first audio for ``sentence`` sent whole over an open session."""
    async with Speaker(target.transport(), voice=target.voice) as speaker:
        begun = time.perf_counter()
        reply = speaker.reply()
        await reply.feed(sentence)
        await reply.end()
        await anext(reply)
        first = time.perf_counter() - begun
        await speaker.cancel()
    return first


RUNNERS = {"wait_full": wait_full, "sentence_post": sentence_post, "bidi": bidi, "engine": engine}
