"""Kokoro speech for Pipecat pipelines (``pip install 'kokoro-stream[pipecat]'``).

``KokoroTTSService`` is a Pipecat ``TTSService`` over this project's own session: a local server's
WebSocket (``WebSocketTransport``) or a SageMaker endpoint's bidirectional stream
(``Endpoint(...).bidi()``). One session serves the whole conversation. Each sentence Pipecat hands to
``run_tts`` is sent at once as a ``speak`` of the turn it belongs to (its context id), and a reader turns
that turn's audio into ``TTSAudioRawFrame``s, with each word's time to ``add_word_timestamps`` (word
marks), then ends the turn with ``TTSStoppedFrame``. An interruption cancels on the server, and no audio
of the interrupted turn is pushed after it; a refusal (an unknown voice, say) becomes an ``ErrorFrame``.
Reconnects after a dropped connection are the session's own, without loss or repeat.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

from pipecat.frames.frames import (
    CancelFrame,
    EndFrame,
    ErrorFrame,
    Frame,
    StartFrame,
    TTSAudioRawFrame,
    TTSStoppedFrame,
)
from pipecat.services.settings import TTSSettings
from pipecat.services.tts_service import TTSService

from .reply import Reply
from .speaker import Speaker
from .transport import SpeechError, Transport


class KokoroTTSService(TTSService):
    def __init__(
        self,
        *,
        transport: Transport,
        voice: str | None = None,
        speed: float | None = None,
        normalize: bool | None = None,
        word_timestamps: bool = True,
        sample_rate: int | None = None,
        **kwargs: Any,
    ) -> None:
        """``voice`` and ``speed`` hold for the session (default: the server's); ``word_timestamps`` asks
        for word marks, so Pipecat's transcript follows what was actually said."""
        super().__init__(
            push_text_frames=not word_timestamps,  # with word times, the words become the text frames
            push_start_frame=True,
            sample_rate=sample_rate,
            settings=TTSSettings(model=None, voice=voice, language=None),
            **kwargs,
        )
        self._transport = transport
        self._options: dict[str, Any] = {"voice": voice, "speed": speed, "normalize": normalize}
        self._word_timestamps = word_timestamps
        self._speaker: Speaker | None = None
        self._replies: dict[str, Reply] = {}
        self._readers: dict[str, asyncio.Task[None]] = {}
        self._interrupted: set[str] = set()

    def can_generate_metrics(self) -> bool:
        return True

    async def start(self, frame: StartFrame) -> None:
        await super().start(frame)
        speaker = Speaker(self._transport, sample_rate=self.sample_rate, marks=self._word_timestamps, **self._options)
        try:
            await speaker.open()
        except (SpeechError, OSError) as error:
            await self.push_error(error_msg=f"Kokoro speech session refused: {error}", exception=error)
            return
        self._speaker = speaker

    async def stop(self, frame: EndFrame) -> None:
        await super().stop(frame)
        await self._close(graceful=True)

    async def cancel(self, frame: CancelFrame) -> None:
        await super().cancel(frame)
        await self._close(graceful=False)

    async def _close(self, graceful: bool) -> None:
        speaker, self._speaker = self._speaker, None
        if speaker is not None:
            await (speaker.close() if graceful else speaker.abort())
        for reader in self._readers.values():
            reader.cancel()
        await asyncio.gather(*self._readers.values(), return_exceptions=True)

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
        if self._speaker is None:
            yield ErrorFrame(error="Kokoro speech session is not open (see the error at start)")
            return
        reply = self._replies.get(context_id)
        if reply is None:  # the turn's first sentence: its audio is read as it comes
            reply = self._replies[context_id] = self._speaker.reply()
            self._readers[context_id] = self.create_task(self._read(context_id, reply), f"kokoro-{context_id}")
        await self.start_tts_usage_metrics(text)
        try:
            await reply.say(text)
        except SpeechError as error:
            yield ErrorFrame(error=f"Kokoro could not speak: {error}")
        yield None  # the audio arrives through the reader

    async def flush_audio(self, context_id: str | None = None) -> None:
        """The turn has no more text: its reply ends once the audio of what was sent is out."""
        reply = self._replies.get(context_id or self.get_active_audio_context_id() or "")
        if reply is not None:
            await reply.end()

    async def on_audio_context_interrupted(self, context_id: str) -> None:
        self._interrupted.add(context_id)
        if self._speaker is not None and context_id in self._replies:
            await self._speaker.cancel()  # nothing of the turn is delivered after this returns
        await super().on_audio_context_interrupted(context_id)

    async def _read(self, context_id: str, reply: Reply) -> None:
        try:
            async for chunk in reply:
                if context_id in self._interrupted or not self.audio_context_available(context_id):
                    continue
                await self.stop_ttfb_metrics()
                if chunk.words:
                    times = [(text, start) for text, start, _ in chunk.reply_times()]
                    await self.add_word_timestamps(times, context_id)
                frame = TTSAudioRawFrame(chunk.audio, chunk.sample_rate, 1, context_id=context_id)
                await self.append_to_audio_context(context_id, frame)
        except SpeechError as error:
            await self.push_error(error_msg=f"Kokoro could not speak: {error}", exception=error)
        finally:
            self._replies.pop(context_id, None)
            self._readers.pop(context_id, None)
            if context_id not in self._interrupted and self.audio_context_available(context_id):
                await self.append_to_audio_context(context_id, TTSStoppedFrame(context_id=context_id))
                await self.remove_audio_context(context_id)
            self._interrupted.discard(context_id)
