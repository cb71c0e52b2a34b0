"""Kokoro speech for LiveKit Agents (``pip install 'kokoro-stream[livekit]'``).

``TTS`` is a streaming ``livekit.agents.tts.TTS`` over this project's own session: a local server's
WebSocket (``WebSocketTransport``) or a SageMaker endpoint's bidirectional stream (``Endpoint(...).bidi()``),
given as a factory so a new session can be opened when one fails. One session is shared by every
stream. A stream's text (the LLM's tokens) goes in through its input channel and is cut into sentences
by this project's segmenter, each sent the moment it is complete; its audio goes out through the output
emitter with each word's time (aligned transcripts) when word marks are on. A stream closed before it
ends (an interruption) sends ``cancel`` in its cleanup. Errors map to LiveKit's: a refusal (an unknown
voice, bad text) is a non-retryable ``APIStatusError`` 400, the server at capacity a retryable 503, a
lost connection a retryable ``APIConnectionError``, silence past the timeout an ``APITimeoutError``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Literal

from livekit.agents import APIConnectionError, APIStatusError, APITimeoutError, tts, utils
from livekit.agents.types import DEFAULT_API_CONNECT_OPTIONS, APIConnectOptions, TimedString

from .speaker import Speaker
from .transport import ServerError, SpeechError, SpeechTimeout, Transport, TransportClosed

RETRYABLE_CODES = {"busy": 503, "not_ready": 503, "shutting_down": 503}


class TTS(tts.TTS[Literal["metrics_collected", "error"]]):
    def __init__(
        self,
        *,
        transport: Callable[[], Transport],
        voice: str | None = None,
        speed: float | None = None,
        normalize: bool | None = None,
        sample_rate: int = 24000,
        word_timestamps: bool = True,
    ) -> None:
        """``transport`` makes a new transport for each session, e.g. ``lambda: WebSocketTransport(url)``."""
        super().__init__(
            capabilities=tts.TTSCapabilities(streaming=True, aligned_transcript=word_timestamps),
            sample_rate=sample_rate,
            num_channels=1,
        )
        self._transport = transport
        self._voice, self._speed, self._normalize = voice, speed, normalize
        self._word_timestamps = word_timestamps
        self._speaker: Speaker | None = None
        self._opening = asyncio.Lock()

    @property
    def model(self) -> str:
        return "kokoro-82m"

    @property
    def provider(self) -> str:
        return "kokoro-stream"

    async def session(self) -> Speaker:
        """The shared session, opened on first use and again after one has failed."""
        async with self._opening:
            if self._speaker is None or self._speaker.failed:
                if self._speaker is not None:
                    await self._speaker.abort()
                speaker = Speaker(
                    self._transport(),
                    voice=self._voice,
                    speed=self._speed,
                    normalize=self._normalize,
                    sample_rate=self.sample_rate,
                    marks=self._word_timestamps,
                )
                await speaker.open()
                self._speaker = speaker
            return self._speaker

    def synthesize(
        self, text: str, *, conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS
    ) -> tts.ChunkedStream:
        return self._synthesize_with_stream(text, conn_options=conn_options)

    def stream(self, *, conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS) -> SynthesizeStream:
        return SynthesizeStream(tts=self, conn_options=conn_options)

    async def aclose(self) -> None:
        speaker, self._speaker = self._speaker, None
        if speaker is not None:
            await speaker.close()


class SynthesizeStream(tts.SynthesizeStream):
    def __init__(self, *, tts: TTS, conn_options: APIConnectOptions) -> None:
        super().__init__(tts=tts, conn_options=conn_options)
        self._kokoro = tts

    async def _run(self, output_emitter: tts.AudioEmitter) -> None:
        request_id = utils.shortuuid()
        output_emitter.initialize(
            request_id=request_id,
            sample_rate=self._kokoro.sample_rate,
            num_channels=1,
            mime_type="audio/pcm",
            stream=True,
        )
        output_emitter.start_segment(segment_id=request_id)
        try:
            speaker = await self._kokoro.session()
            reply = speaker.reply()
        except SpeechError as error:
            raise _livekit_error(error) from error

        async def feed() -> None:
            async for data in self._input_ch:
                if isinstance(data, self._FlushSentinel):
                    await reply.say("")  # send what the segmenter still holds
                    continue
                self._mark_started()
                await reply.feed(data)
            await reply.end()

        feeder = asyncio.create_task(feed(), name="kokoro-livekit-feed")
        finished = False
        try:
            async for chunk in reply:
                times = chunk.reply_times()
                timed = [TimedString(f"{text} ", start_time=start, end_time=end) for text, start, end in times]
                if timed:
                    output_emitter.push_timed_transcript(timed)
                output_emitter.push(chunk.audio)
            await feeder
            finished = True
        except SpeechError as error:
            raise _livekit_error(error) from error
        finally:
            feeder.cancel()
            if not finished:
                await speaker.cancel()  # closed early (an interruption) or failed: stop it on the server too
            await asyncio.gather(feeder, return_exceptions=True)


def _livekit_error(error: SpeechError) -> Exception:
    if isinstance(error, ServerError):
        status = RETRYABLE_CODES.get(error.code, 400)
        return APIStatusError(f"Kokoro refused: {error}", status_code=status, body=error.code, retryable=status >= 500)
    if isinstance(error, SpeechTimeout):
        return APITimeoutError(f"Kokoro: {error}")
    if isinstance(error, TransportClosed):
        return APIConnectionError(f"Kokoro: {error}")
    return APIConnectionError(f"Kokoro: {error}", retryable=False)
