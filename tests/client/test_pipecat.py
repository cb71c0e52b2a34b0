"""KokoroTTSService in Pipecat's own pipeline classes (Pipeline, PipelineWorker, WorkerRunner) against a
real server on the fake engine: frame order and sample rate, word timestamps as text frames, an
interruption after the first audio (no further audio of that turn), a second turn on the same session,
and a bad voice as Pipecat's ErrorFrame. The engine holds every synthesis after the first until the test
lets it, so "after the first audio" is a fact of the test, not of the machine's speed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pipecat.frames.frames import (
    EndFrame,
    ErrorFrame,
    Frame,
    InterruptionFrame,
    StartFrame,
    TTSAudioRawFrame,
    TTSSpeakFrame,
    TTSStartedFrame,
    TTSStoppedFrame,
    TTSTextFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.workers.runner import WorkerRunner

from kokoro_stream import WebSocketTransport
from kokoro_stream.pipecat import KokoroTTSService
from tests.speech import run
from tests.waiting import await_until

FIRST = "Your refund of forty two dollars is on its way. It should reach your account within five days."
SECOND = "Anything else I can help with?"


@dataclass
class Seen:
    down: list[Frame] = field(default_factory=list)
    up: list[Frame] = field(default_factory=list)
    first_audio: asyncio.Event = field(default_factory=asyncio.Event)
    stopped: asyncio.Event = field(default_factory=asyncio.Event)


class Recorder(FrameProcessor):
    """Records what passes in one direction and lets it through."""

    def __init__(self, seen: Seen, direction: FrameDirection) -> None:
        super().__init__()
        self._seen, self._direction = seen, direction

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if direction == self._direction and not isinstance(frame, StartFrame):
            (self._seen.down if direction == FrameDirection.DOWNSTREAM else self._seen.up).append(frame)
            if isinstance(frame, TTSAudioRawFrame):
                self._seen.first_audio.set()
            if isinstance(frame, TTSStoppedFrame):
                self._seen.stopped.set()
        await self.push_frame(frame, direction)


async def in_pipeline(
    tts: KokoroTTSService, script: Callable[[PipelineWorker, Seen], Awaitable[None]], sample_rate: int = 24000
) -> Seen:
    seen = Seen()
    pipeline = Pipeline([Recorder(seen, FrameDirection.UPSTREAM), tts, Recorder(seen, FrameDirection.DOWNSTREAM)])
    params = PipelineParams(audio_out_sample_rate=sample_rate)
    worker = PipelineWorker(pipeline, params=params, cancel_on_idle_timeout=False)
    started = asyncio.Event()

    @worker.event_handler("on_pipeline_started")
    async def on_started(worker: PipelineWorker, frame: Frame) -> None:
        started.set()

    async def drive() -> None:
        try:
            await asyncio.wait_for(started.wait(), 30)
            await asyncio.wait_for(script(worker, seen), 60)
        except BaseException:
            await worker.cancel(reason="the test failed")  # so the failure is reported, not a hang
            raise
        await worker.queue_frame(EndFrame())

    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    await asyncio.gather(runner.run(), drive())
    return seen


def kinds(frames: list[Frame]) -> list[type]:
    """Frame types in order, runs of audio collapsed to one."""
    out: list[type] = []
    for frame in frames:
        if not (out and out[-1] is TTSAudioRawFrame and isinstance(frame, TTSAudioRawFrame)):
            out.append(type(frame))
    return out


def test_a_turn_comes_out_in_order_at_the_pipelines_rate_with_its_words(engine_and_url) -> None:
    engine, url = engine_and_url
    engine.held.set()  # nothing held: the whole turn plays

    async def speak(worker: PipelineWorker, seen: Seen) -> None:
        await worker.queue_frame(TTSSpeakFrame(FIRST))
        await seen.stopped.wait()

    seen = run(in_pipeline(KokoroTTSService(transport=WebSocketTransport(url)), speak, sample_rate=16000))
    spoken = [f for f in seen.down if isinstance(f, TTSStartedFrame | TTSAudioRawFrame | TTSStoppedFrame)]
    assert kinds(spoken) == [TTSStartedFrame, TTSAudioRawFrame, TTSStoppedFrame]
    audio = [f for f in seen.down if isinstance(f, TTSAudioRawFrame)]
    assert {(f.sample_rate, f.num_channels) for f in audio} == {(16000, 1)}  # the server resampled to it
    assert len({f.context_id for f in spoken}) == 1
    words = [f.text for f in seen.down if isinstance(f, TTSTextFrame)]
    assert " ".join(words) == FIRST  # the transcript is the words as they were said


def test_an_interruption_after_the_first_audio_cancels_and_the_next_turn_speaks(engine_and_url) -> None:
    engine, url = engine_and_url

    async def barge_in(worker: PipelineWorker, seen: Seen) -> None:
        await worker.queue_frame(TTSSpeakFrame(FIRST))
        await seen.first_audio.wait()  # the first chunk is out; the engine holds the rest
        await worker.queue_frame(InterruptionFrame())
        await await_until(lambda: engine.interrupted_calls, "the server to stop the turn's held synthesis: it was told")
        seen.stopped.clear()
        seen.down.append(InterruptionFrame())  # a marker: what follows came after the interruption
        engine.held.set()
        await worker.queue_frame(TTSSpeakFrame(SECOND))
        await seen.stopped.wait()

    tts = KokoroTTSService(transport=WebSocketTransport(url))
    sessions = []

    async def barge_in_on_one_session(worker: PipelineWorker, seen: Seen) -> None:
        sessions.append(tts._speaker)
        await barge_in(worker, seen)
        sessions.append(tts._speaker)

    seen = run(in_pipeline(tts, barge_in_on_one_session))
    assert sessions[0] is sessions[1] and sessions[0] is not None and sessions[0].reconnects == 0
    marker = max(i for i, f in enumerate(seen.down) if isinstance(f, InterruptionFrame))
    before, after = seen.down[:marker], seen.down[marker:]
    first_context = next(f.context_id for f in before if isinstance(f, TTSAudioRawFrame))
    assert not [f for f in after if isinstance(f, TTSAudioRawFrame) and f.context_id == first_context]
    second = [f for f in after if isinstance(f, TTSAudioRawFrame)]
    assert second and {f.context_id for f in second} != {first_context}
    assert " ".join(f.text for f in after if isinstance(f, TTSTextFrame)) == SECOND
    assert not [f for f in seen.up if isinstance(f, ErrorFrame)]
    assert engine.interrupted_calls == 1 and engine.calls[-1] == SECOND


def test_a_bad_voice_is_pipecats_error_frame(engine_and_url) -> None:
    _, url = engine_and_url

    async def speak(worker: PipelineWorker, seen: Seen) -> None:
        await worker.queue_frame(TTSSpeakFrame(SECOND))
        await await_until(lambda: any(isinstance(f, ErrorFrame) for f in seen.up), "an ErrorFrame upstream")

    seen = run(in_pipeline(KokoroTTSService(transport=WebSocketTransport(url), voice="xx_nobody"), speak))
    errors = [f.error for f in seen.up if isinstance(f, ErrorFrame)]
    assert any("xx_nobody" in error for error in errors), errors
    assert not [f for f in seen.down if isinstance(f, TTSAudioRawFrame)]


def test_the_example_speaks_a_reply_into_a_wav(engine_and_url, tmp_path) -> None:
    import subprocess
    import sys
    import wave
    from pathlib import Path

    engine, url = engine_and_url
    engine.held.set()
    out = tmp_path / "pipecat.wav"
    example = Path(__file__).resolve().parents[2] / "examples" / "pipecat_speak.py"
    done = subprocess.run(
        [sys.executable, str(example), "--url", url, "--out", str(out)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    with wave.open(str(out)) as audio:
        assert audio.getframerate() == 24000 and audio.getnframes() > 24000  # more than a second of speech
