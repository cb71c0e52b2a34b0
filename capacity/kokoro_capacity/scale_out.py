"""``capacity scale-out`` locally: a server started from nothing, timed stage by stage, as far as a
machine without SageMaker can show it (through the emulator, as an endpoint's first traffic comes)."""

from __future__ import annotations

import asyncio
import time
import urllib.request
from typing import Any

from kokoro_stream.endpoint import Endpoint
from kokoro_stream.speaker import Speaker

from .local import any_credentials

CANNOT_SHOW = {
    "policy_reaction": "no Application Auto Scaling or CloudWatch alarm here",
    "provisioning_and_image_pull": "no instance to provision and no image to pull: the server starts in this process",
}


def local_scale_out() -> dict[str, Any]:
    """One start of a server: model load and warm-up, healthy (/ping), and the first audio through the
    emulator (timed from the emulator's readiness: SageMaker's router is there before the instance)."""
    from kokoro_server.serving.background import BackgroundServer
    from kokoro_server.settings import settings_from_env
    from kokoro_tools.emulator_host import emulating

    any_credentials()
    begun = time.perf_counter()
    server = BackgroundServer(settings_from_env(host="127.0.0.1", port=0)).start()
    try:
        loaded = time.perf_counter()
        with urllib.request.urlopen(f"{server.url}/ping", timeout=10) as response:
            response.read()
        healthy = time.perf_counter()
        with emulating(server.url, "kokoro-tts", "us-east-1") as running:
            endpoint = Endpoint("kokoro-tts", "us-east-1", running.url, running.ca_file)
            routed = time.perf_counter()  # the emulator's own start is no part of the instance's
            asyncio.run(_first_audio(endpoint))
            served = time.perf_counter()
    finally:
        server.stop()
    return {
        "stages_s": {
            "policy_reaction": None,
            "provisioning_and_image_pull": None,
            "model_load": round(loaded - begun, 3),
            "healthy": round(healthy - loaded, 3),
            "first_traffic": round(served - routed, 3),
        },
        "total_s": round(served - routed + healthy - begun, 3),  # as the stages: never below one of them
        "not_shown": CANNOT_SHOW,
    }


async def _first_audio(endpoint: Endpoint) -> None:
    async with Speaker(endpoint.bidi(), marks=False) as speaker:
        async for _ in speaker.speak("Hello."):
            pass
