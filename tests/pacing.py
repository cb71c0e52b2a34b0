"""Text paced from this machine's engine, so that claims about order hold on a machine of any speed.

A test that claims "speech starts while the text is still arriving" depends on how long the first
sentence takes to synthesize. Rather than a fixed token rate that a slower machine cannot keep up
with, such a test measures that time on the running server and slows the text to outlast it by a
wide margin.
"""

from __future__ import annotations

import time

import aiohttp

from kokoro_stream.say import llm_tokens
from tests.speech import connect, run, until

MARGIN = 4  # the text outlasts the measured synthesis this many times over: room for a wandering machine
MEASURES = 3


def synthesis_seconds(ws_url: str, text: str) -> float:
    """How long the server takes from a ``speak`` of ``text`` to its ``done``: the slowest of a few tries."""

    async def measure() -> float:
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, ws_url)
            slowest = 0.0
            for attempt in range(MEASURES):
                started = time.perf_counter()
                await ws.send_json({"type": "speak", "id": f"pace-{attempt}", "text": text})
                await until(ws, "done", f"pace-{attempt}")
                slowest = max(slowest, time.perf_counter() - started)
            await ws.close()
            return slowest

    return run(measure())


def tokens_per_second_to_outlast(seconds: float, text: str, ceiling: float) -> float:
    """A token rate at which ``text`` takes at least MARGIN × ``seconds`` to arrive; at most ``ceiling``."""
    return min(ceiling, len(llm_tokens(text)) / (MARGIN * seconds))
