"""The LiveKit Agents plugin with LiveKit's own TTS classes (the streaming SynthesizeStream an
AgentSession drives, its AudioEmitter, and ChunkedStream) against a real server on the fake engine:
frames at the plugin's rate with aligned words, a stream closed after its first audio cancels on the
server and yields nothing more, a second stream on the same session, and a bad voice as LiveKit's
non-retryable APIStatusError. The engine holds every synthesis after the first until the test lets it."""

from __future__ import annotations

import asyncio

import pytest
from livekit.agents import APIStatusError
from livekit.agents.types import USERDATA_TIMED_TRANSCRIPT, APIConnectOptions

from kokoro_stream import WebSocketTransport
from kokoro_stream.livekit import TTS
from tests.speech import run
from tests.waiting import await_until

FIRST = "Your refund of forty two dollars is on its way. It should reach your account within five days."
SECOND = "Anything else I can help with?"


def plugin(url: str, **options: object) -> TTS:
    return TTS(transport=lambda: WebSocketTransport(url), **options)  # type: ignore[arg-type]


def tokens(text: str) -> list[str]:
    words = text.split(" ")
    return [word + " " for word in words[:-1]] + [words[-1]]


def test_a_streamed_reply_comes_out_at_the_plugins_rate_with_aligned_words(engine_and_url) -> None:
    engine, url = engine_and_url
    engine.held.set()

    async def scenario() -> tuple[list, list[str]]:
        tts = plugin(url, sample_rate=16000)
        stream = tts.stream()
        for token in tokens(FIRST):  # the LLM's tokens, as AgentSession pushes them
            stream.push_text(token)
        stream.end_input()
        frames = [audio async for audio in stream]
        await stream.aclose()
        await tts.aclose()
        words = [str(w).strip() for a in frames for w in a.frame.userdata.get(USERDATA_TIMED_TRANSCRIPT, [])]
        return frames, words

    frames, words = run(scenario())
    assert frames and {(a.frame.sample_rate, a.frame.num_channels) for a in frames} == {(16000, 1)}
    assert frames[-1].is_final and len({a.request_id for a in frames}) == 1
    assert " ".join(words) == FIRST


def test_closing_a_stream_after_its_first_audio_cancels_and_the_session_serves_the_next(engine_and_url) -> None:
    engine, url = engine_and_url

    async def scenario() -> tuple[int, list, bool, object]:
        tts = plugin(url)
        stream = tts.stream()
        for token in tokens(FIRST):
            stream.push_text(token)
        stream.end_input()
        first = await anext(aiter(stream))  # the first chunk is out
        await await_until(lambda: len(engine.calls) >= 2, "the engine to hold the next chunk")
        session = tts._speaker
        await stream.aclose()  # an interruption: the agent stops speaking
        await await_until(lambda: engine.interrupted_calls, "the server to stop the held synthesis: it was told")
        engine.held.set()
        after = [audio async for audio in stream]  # nothing more of the closed stream
        second = tts.stream()
        second.push_text(SECOND)
        second.end_input()
        again = [audio async for audio in second]
        same_session = tts._speaker is session and session is not None and not session.failed
        await second.aclose()
        await tts.aclose()
        return len(after), again, same_session, first

    after, again, same_session, first = run(asyncio.wait_for(scenario(), 60))
    assert first.frame.samples_per_channel > 0 and after == 0
    assert again and again[-1].is_final and same_session


def test_synthesize_speaks_a_whole_text(engine_and_url) -> None:
    engine, url = engine_and_url
    engine.held.set()

    async def scenario() -> float:
        tts = plugin(url)
        async with tts.synthesize(SECOND) as chunked:
            frame = await chunked.collect()
        await tts.aclose()
        return frame.duration

    assert run(scenario()) > 0.5


def test_a_bad_voice_is_livekits_non_retryable_status_error(engine_and_url) -> None:
    _, url = engine_and_url

    async def scenario() -> tuple[APIStatusError, list]:
        tts = plugin(url, voice="xx_nobody")
        errors: list = []
        tts.on("error", errors.append)
        stream = tts.stream(conn_options=APIConnectOptions(max_retry=2, retry_interval=0.01))
        stream.push_text(SECOND)
        stream.end_input()
        with pytest.raises(APIStatusError) as refused:
            async for _ in stream:
                pass
        await stream.aclose()
        return refused.value, errors

    error, events = run(scenario())
    assert error.status_code == 400 and not error.retryable and "xx_nobody" in str(error)
    assert len(events) == 1 and events[0].recoverable is False  # refused once, not retried


def test_the_example_speaks_a_streamed_reply_into_a_wav(engine_and_url, tmp_path) -> None:
    import subprocess
    import sys
    import wave
    from pathlib import Path

    engine, url = engine_and_url
    engine.held.set()
    out = tmp_path / "livekit.wav"
    example = Path(__file__).resolve().parents[2] / "examples" / "livekit_speak.py"
    arguments = [sys.executable, str(example), "--url", url, "--out", str(out), "--tokens-per-second", "200"]
    done = subprocess.run(arguments, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    with wave.open(str(out)) as audio:
        assert audio.getframerate() == 24000 and audio.getnframes() > 24000  # more than a second of speech
