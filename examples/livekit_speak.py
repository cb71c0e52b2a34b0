"""LiveKit Agents speaking through Kokoro: an LLM-style token stream in, a WAV file out.

    uv run kokoro-stream serve &                       # or an endpoint: --endpoint NAME --region R
    uv run python examples/livekit_speak.py --out livekit.wav

In an agent the plugin goes where any TTS goes, and AgentSession streams the LLM's tokens into it:

    session = AgentSession(stt=..., llm=..., tts=kokoro_stream.livekit.TTS(transport=...), vad=...)

Here the stream is driven by hand, as AgentSession drives it, so it runs without a LiveKit room.
"""

from __future__ import annotations

import argparse
import asyncio
import wave

from kokoro_stream import Endpoint, WebSocketTransport
from kokoro_stream.livekit import TTS

REPLY = "Sure, I can help with that. Your order shipped this morning and arrives on Thursday."


async def main(arguments: argparse.Namespace) -> None:
    if arguments.endpoint:
        endpoint = Endpoint(arguments.endpoint, arguments.region)
        tts = TTS(transport=endpoint.bidi, voice=arguments.voice)
    else:
        tts = TTS(transport=lambda: WebSocketTransport(arguments.url), voice=arguments.voice)
    stream = tts.stream()
    for word in arguments.text.split(" "):  # the LLM's tokens, one by one
        stream.push_text(word + " ")
        await asyncio.sleep(1 / arguments.tokens_per_second)
    stream.end_input()
    with wave.open(arguments.out, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(tts.sample_rate)
        async for audio in stream:
            out.writeframes(audio.frame.data.tobytes())
    await stream.aclose()
    await tts.aclose()
    print(f"wrote {arguments.out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="ws://127.0.0.1:8080/invocations-bidirectional-stream")
    parser.add_argument("--endpoint", help="a SageMaker endpoint instead of --url")
    parser.add_argument("--region", default="us-east-1")
    parser.add_argument("--voice", default="af_heart")
    parser.add_argument("--tokens-per-second", type=float, default=30.0)
    parser.add_argument("--text", default=REPLY)
    parser.add_argument("--out", default="livekit.wav")
    asyncio.run(main(parser.parse_args()))
