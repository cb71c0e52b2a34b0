"""A Pipecat pipeline speaking through Kokoro: an LLM-style reply in, a WAV file out.

    uv run kokoro-stream serve &                       # or an endpoint: --endpoint NAME --region R
    uv run python examples/pipecat_speak.py --out pipecat.wav

In a real bot the pipeline is transport.input() → STT → LLM → KokoroTTSService → transport.output();
here a recorder stands in for the output transport, so it runs anywhere.
"""

from __future__ import annotations

import argparse
import asyncio
import wave

from pipecat.frames.frames import EndFrame, Frame, TTSAudioRawFrame, TTSSpeakFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.workers.runner import WorkerRunner

from kokoro_stream import Endpoint, WebSocketTransport
from kokoro_stream.pipecat import KokoroTTSService

REPLY = "Sure, I can help with that. Your order shipped this morning and arrives on Thursday."


class WavRecorder(FrameProcessor):
    """Writes the audio frames that reach it to a WAV file (an output transport would play them)."""

    def __init__(self, path: str, sample_rate: int) -> None:
        super().__init__()
        self._wav = wave.open(path, "wb")
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(sample_rate)

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, TTSAudioRawFrame):
            self._wav.writeframes(frame.audio)
        if isinstance(frame, EndFrame):
            self._wav.close()
        await self.push_frame(frame, direction)


async def main(arguments: argparse.Namespace) -> None:
    if arguments.endpoint:
        transport = Endpoint(arguments.endpoint, arguments.region).bidi()
    else:
        transport = WebSocketTransport(arguments.url)
    tts = KokoroTTSService(transport=transport, voice=arguments.voice)
    pipeline = Pipeline([tts, WavRecorder(arguments.out, arguments.sample_rate)])
    worker = PipelineWorker(pipeline, params=PipelineParams(audio_out_sample_rate=arguments.sample_rate))
    await worker.queue_frames([TTSSpeakFrame(arguments.text), EndFrame()])
    await WorkerRunner(handle_sigint=False).run(worker)
    print(f"wrote {arguments.out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="ws://127.0.0.1:8080/invocations-bidirectional-stream")
    parser.add_argument("--endpoint", help="a SageMaker endpoint instead of --url")
    parser.add_argument("--region", default="us-east-1")
    parser.add_argument("--voice", default="af_heart")
    parser.add_argument("--sample-rate", type=int, default=24000)
    parser.add_argument("--text", default=REPLY)
    parser.add_argument("--out", default="pipecat.wav")
    asyncio.run(main(parser.parse_args()))
