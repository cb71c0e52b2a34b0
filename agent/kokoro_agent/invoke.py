"""Calling the agent: one turn's server-sent events, read as they arrive, and what they add up to."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp

SESSION_HEADER = "X-Amzn-Bedrock-AgentCore-Runtime-Session-Id"


async def invoke(
    http: aiohttp.ClientSession, url: str, payload: dict[str, Any], session_id: str | None = None
) -> AsyncIterator[dict[str, Any]]:
    """POST ``payload`` to the agent at ``url``; yield each event. A refused request yields its error."""
    headers = {SESSION_HEADER: session_id} if session_id else {}
    async with http.post(f"{url}/invocations", json=payload, headers=headers) as response:
        if response.content_type != "text/event-stream":
            yield {"status": response.status, **await response.json(content_type=None)}
            return
        async for line in response.content:
            if line.startswith(b"data: "):
                yield json.loads(line[len(b"data: ") :])


@dataclass
class TurnResult:
    """A turn's events in arrival order, its audio joined, and its closing summary."""

    events: list[dict[str, Any]] = field(default_factory=list)
    audio: bytearray = field(default_factory=bytearray)

    def add(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if event.get("type") == "audio":
            self.audio += base64.b64decode(event["audio"])

    @property
    def summary(self) -> dict[str, Any]:
        return self.events[-1] if self.events else {}

    @property
    def text(self) -> str:
        return "".join(event["text"] for event in self.events if event.get("type") == "text")


async def run_turn(
    http: aiohttp.ClientSession, url: str, payload: dict[str, Any], session_id: str | None = None
) -> TurnResult:
    result = TurnResult()
    async for event in invoke(http, url, payload, session_id):
        result.add(event)
    return result
