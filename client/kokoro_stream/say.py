"""Speaking a text, or a simulated LLM stream of it, and timing the first audio."""

from __future__ import annotations

import asyncio
import re
import time
import wave
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from kokoro_core.audio_format import AudioFormat

from .captions import TimedText, reply_words
from .reply import AudioChunk
from .speaker import Speaker

# LLM tokens average about four characters of English; this cuts text the same way.
_TOKEN = re.compile(r"\s*\S{1,4}|\s+")


def llm_tokens(text: str) -> list[str]:
    """``text`` cut into token-sized pieces that join back to exactly ``text``."""
    return _TOKEN.findall(text)


async def simulated_llm(text: str, tokens_per_second: float, started: float | None = None) -> AsyncIterator[str]:
    """Yield ``text`` as an LLM would stream it, ``tokens_per_second`` pieces a second from ``started``."""
    started = time.perf_counter() if started is None else started
    for index, token in enumerate(llm_tokens(text)):
        delay = started + index / tokens_per_second - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        yield token


@dataclass(frozen=True)
class Spoken:
    audio: bytes
    sample_rate: int
    format: str
    first_audio_s: float
    total_s: float
    sentences: int
    words: tuple[TimedText, ...] = ()  # with marks: each word, timed from the first sample

    @property
    def audio_s(self) -> float:
        return AudioFormat(self.format, self.sample_rate).duration_ms(len(self.audio)) / 1000


async def speak(
    speaker: Speaker, text: str, tokens_per_second: float | None = None, wait_for_full_text: bool = False
) -> Spoken:
    """Speak ``text`` (streamed at ``tokens_per_second`` if given) and time it from the first token.

    ``wait_for_full_text`` is the baseline a streaming client beats: the whole reply is generated
    first (at the same rate), then sent as one input.
    """
    started = time.perf_counter()
    if tokens_per_second and wait_for_full_text:
        await asyncio.sleep(len(llm_tokens(text)) / tokens_per_second)
        source: str | AsyncIterator[str] = text
    else:
        source = simulated_llm(text, tokens_per_second) if tokens_per_second else text
    first_audio = None
    audio = bytearray()
    chunks: list[AudioChunk] = []
    async for chunk in speaker.speak(source):
        if first_audio is None:
            first_audio = time.perf_counter() - started
        audio += chunk.audio
        chunks.append(chunk)
    return Spoken(
        bytes(audio),
        speaker.sample_rate,
        speaker.format,
        first_audio if first_audio is not None else float("nan"),
        time.perf_counter() - started,
        len({chunk.utterance_id for chunk in chunks}),
        tuple(reply_words(chunks)),
    )


def write_audio(audio: bytes, format: str, sample_rate: int, path: Path) -> None:
    """16-bit PCM as a WAV file; µ-law as raw G.711 bytes."""
    if format == "mulaw":
        path.write_bytes(audio)
        return
    with wave.open(str(path), "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(sample_rate)
        writer.writeframes(audio)
