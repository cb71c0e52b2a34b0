"""One agent turn: the LLM's text deltas in, a stream of events out (text, audio, timing), in order.

In ``stream`` mode every delta goes into the speaker's sentence streamer as it arrives, so the first
sentence is being spoken while the LLM is still writing the rest. ``batch`` mode waits for the whole
answer and then speaks it: the baseline the streaming mode is measured against.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from kokoro_core.audio_format import AudioFormat
from kokoro_stream.reply import Heard
from kokoro_stream.speaker import Speaker

Mode = Literal["stream", "batch"]
STOP_GRACE_SECONDS = 5.0
AUDIO_EVENT_MS = 200
_END = object()


@dataclass(frozen=True)
class _Failure:
    source: Literal["llm", "speech"]
    error: BaseException


@dataclass
class Timing:
    started: float = field(default_factory=time.perf_counter)
    first_text_ms: float | None = None
    first_audio_ms: float | None = None

    def since_start_ms(self) -> float:
        return round((time.perf_counter() - self.started) * 1000, 1)


class VoiceTurn:
    """Run with ``events()``; ``cancel()`` (barge-in) stops the text and the speech at once."""

    def __init__(
        self, text: AsyncIterator[str], speaker: Speaker, mode: Mode, stop_text: Callable[[], None] | None = None
    ) -> None:
        self.text = text
        self.stop_text = stop_text
        self.speaker = speaker
        self.mode = mode
        self.timing = Timing()
        self.canceled = False
        self.heard = Heard()  # after a cancel: what the listener heard of the answer
        self.audio_events = 0  # audio events handed to the caller so far
        self._out: asyncio.Queue[Any] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    async def events(self) -> AsyncIterator[dict[str, Any]]:
        reply = self.speaker.reply()
        self._tasks = [
            asyncio.create_task(self._pump_text(reply), name="turn-text"),
            asyncio.create_task(self._pump_audio(reply), name="turn-audio"),
        ]
        pumps_left = len(self._tasks)
        spoken_text: list[str] = []
        audio_bytes = 0
        completed = False
        try:
            while pumps_left:
                item = await self._out.get()
                if self.canceled:
                    break  # whatever was queued behind the barge-in is dropped
                if item is _END:
                    pumps_left -= 1
                    continue
                if isinstance(item, _Failure):
                    code = "llm_failed" if item.source == "llm" else "speech_failed"
                    yield {"type": "error", "code": code, "message": f"{type(item.error).__name__}: {item.error}"}
                    await self.cancel()  # stop the other half; the turn ends here
                    return
                if item["type"] == "text":
                    spoken_text.append(item["text"])
                elif item["type"] == "audio":
                    audio_bytes += item["bytes"]
                    self.audio_events += 1
                yield item
            completed = True
        finally:
            if not completed and not self.canceled:
                await self.cancel()  # the caller went away mid-turn: stop speaking for nobody
            await self._stop()
        summary = {
            "mode": self.mode,
            "first_text_ms": self.timing.first_text_ms,
            "first_audio_ms": self.timing.first_audio_ms,
            "total_ms": self.timing.since_start_ms(),
            "audio_bytes": audio_bytes,
            "format": self.speaker.format,
            "sample_rate": self.speaker.sample_rate,
            "text": "".join(spoken_text),
        }
        if self.canceled:
            summary |= {"heard_text": self.heard.text, "heard_ms": round(self.heard.heard_ms, 1)}
        yield {"type": "canceled" if self.canceled else "done", **summary}

    async def cancel(self, played_ms: float | None = None) -> None:
        """Barge-in: stop reading the LLM, drop queued and playing speech, end the event stream.

        ``played_ms``: how much of the turn's audio the caller had played; without it, all audio
        handed out counts as heard."""
        if self.canceled:
            return
        self.canceled = True
        if self.stop_text is not None:
            self.stop_text()  # the text source stops itself, leaving its state consistent
        if played_ms is not None:
            self.speaker.played(played_ms)
        self.heard = await self.speaker.cancel()
        self._out.put_nowait(_END)  # wakes events(), which sees the cancel and stops

    async def _stop(self) -> None:
        """Let a stopped text source wind down for a moment, then cancel whatever still runs."""
        text_pump = self._tasks[:1]
        if text_pump and self.stop_text is not None:
            await asyncio.wait(text_pump, timeout=STOP_GRACE_SECONDS)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _pump_text(self, reply: Any) -> None:
        try:
            collected: list[str] = []
            async for delta in self.text:
                if self.timing.first_text_ms is None:
                    self.timing.first_text_ms = self.timing.since_start_ms()
                    self._out.put_nowait({"type": "timing", "mark": "first_text", "ms": self.timing.first_text_ms})
                self._out.put_nowait({"type": "text", "text": delta})
                if self.mode == "stream":
                    await reply.feed(delta)
                else:
                    collected.append(delta)
            if self.mode == "batch":
                await reply.feed("".join(collected))
            await reply.end()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the LLM failed: report it in order, after what was said
            self._out.put_nowait(_Failure("llm", error))
        self._out.put_nowait(_END)

    async def _pump_audio(self, reply: Any) -> None:
        try:
            seq = 0
            async for chunk in reply:
                if self.timing.first_audio_ms is None:
                    self.timing.first_audio_ms = self.timing.since_start_ms()
                    self._out.put_nowait({"type": "timing", "mark": "first_audio", "ms": self.timing.first_audio_ms})
                audio_format = AudioFormat(chunk.format, chunk.sample_rate)
                # Small events: a caller can start playing each one, and no line of the stream is huge.
                step = audio_format.bytes_per_second * AUDIO_EVENT_MS // 1000
                for start in range(0, len(chunk.audio), step):
                    piece = chunk.audio[start : start + step]
                    event = {
                        "type": "audio",
                        "seq": seq,
                        "sentence": chunk.text,
                        "bytes": len(piece),
                        "audio": base64.b64encode(piece).decode("ascii"),
                    }
                    if start == 0 and chunk.words:  # the chunk's word marks, with its first piece
                        event["words"] = [word.model_dump() for word in chunk.words]
                    self._out.put_nowait(event)
                    seq += 1
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._out.put_nowait(_Failure("speech", error))
        self._out.put_nowait(_END)
