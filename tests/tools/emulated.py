"""What the tests that go through `kokoro-stream emulate` share: the endpoint, the real clients pointed
at an emulator, and any credentials (the emulator checks a signature's scope, never its secret)."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from kokoro_stream import SageMakerBidiTransport, Speaker
from kokoro_stream.reply import AudioChunk
from kokoro_tools.emulator_host import RunningEmulator

ENDPOINT, REGION = "kokoro-tts", "us-east-1"


def any_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "not-a-secret")
    monkeypatch.delenv("AWS_PROFILE", raising=False)


def bidi(emulator: RunningEmulator, region: str = REGION) -> SageMakerBidiTransport:
    return SageMakerBidiTransport(ENDPOINT, region, endpoint_uri=emulator.url, ca_file=emulator.ca_file)


def runtime(emulator: RunningEmulator, region: str = REGION) -> Any:
    return boto3.client(
        "sagemaker-runtime", region_name=region, endpoint_url=emulator.url, verify=str(emulator.ca_file)
    )


async def spoken(transport: Any, text: str, **options: Any) -> list[AudioChunk]:
    async with Speaker(transport, timeout=20, reconnect_delay=0.05, **options) as speaker:
        return [chunk async for chunk in speaker.speak(text)]


def by_sentence(chunks: list[AudioChunk]) -> list[tuple[str, bytes]]:
    sentences: dict[str, bytes] = {}
    for chunk in chunks:
        sentences[chunk.text] = sentences.get(chunk.text, b"") + chunk.audio
    return list(sentences.items())
