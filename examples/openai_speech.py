"""The official OpenAI SDK speaking through Kokoro: streamed mp3 (or any format) into a file.

    uv run kokoro-stream serve &                                   # the API at http://127.0.0.1:8080/v1
    uv run python examples/openai_speech.py --out reply.mp3
    # a deployed endpoint: uv run kokoro-stream proxy --endpoint NAME --region R, then --base-url http://127.0.0.1:8000/v1

Only base_url differs from code written for OpenAI's own speech endpoint.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from openai import AsyncOpenAI

REPLY = "Sure, I can help with that. Your order shipped this morning and arrives on Thursday."


async def main(arguments: argparse.Namespace) -> None:
    client = AsyncOpenAI(base_url=arguments.base_url, api_key="unused")
    started, first = time.perf_counter(), None
    async with client.audio.speech.with_streaming_response.create(
        model="tts-1", voice=arguments.voice, input=arguments.text, response_format=arguments.format
    ) as response:
        with open(arguments.out, "wb") as out:
            async for audio in response.iter_bytes():
                first = first or time.perf_counter() - started
                out.write(audio)
    print(f"first audio after {first * 1000:.0f} ms; wrote {arguments.out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8080/v1")
    parser.add_argument("--voice", default="coral", help="an OpenAI voice name, or a Kokoro one (af_heart)")
    parser.add_argument("--format", default="mp3", choices=["mp3", "opus", "aac", "flac", "wav", "pcm"])
    parser.add_argument("--text", default=REPLY)
    parser.add_argument("--out", default="reply.mp3")
    asyncio.run(main(parser.parse_args()))
