"""Client-side helpers for the server tests: real HTTP and WebSocket traffic, decoded audio."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import aiohttp

# Kokoro speaks English at roughly 12-20 characters a second; generous bounds catch silence,
# truncation or runaway audio without depending on the exact voice.
MIN_CHARS_PER_SECOND = 6
MAX_CHARS_PER_SECOND = 30


def plausible_duration(text: str, seconds: float) -> bool:
    return len(text) / MAX_CHARS_PER_SECOND <= seconds <= len(text) / MIN_CHARS_PER_SECOND + 0.5


def run(coroutine):
    return asyncio.run(coroutine)


@dataclass
class Event:
    """One server frame: a JSON control message or a binary audio frame."""

    message: dict[str, Any] | None = None
    audio: bytes | None = None

    @property
    def type(self) -> str:
        return "audio" if self.audio is not None else str(self.message["type"])


async def receive(ws: aiohttp.ClientWebSocketResponse, timeout: float = 60) -> Event | None:
    message = await ws.receive(timeout=timeout)
    if message.type == aiohttp.WSMsgType.TEXT:
        return Event(message=json.loads(message.data))
    if message.type == aiohttp.WSMsgType.BINARY:
        return Event(audio=message.data)
    return None  # closed


async def until(ws: aiohttp.ClientWebSocketResponse, kind: str, utterance_id: str | None = None) -> list[Event]:
    """Frames up to and including the first ``kind`` message (for ``utterance_id`` if given)."""
    events: list[Event] = []
    while True:
        event = await receive(ws)
        assert event is not None, f"socket closed while waiting for {kind}: {[e.type for e in events]}"
        events.append(event)
        if event.type == kind and (utterance_id is None or event.message.get("id") == utterance_id):
            return events


def audio_of(events: list[Event]) -> bytes:
    return b"".join(event.audio for event in events if event.audio is not None)


async def connect(session: aiohttp.ClientSession, url: str) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(url)
    ready = await receive(ws)
    assert ready is not None and ready.type == "ready", ready
    return ws


async def speak_and_collect(ws: aiohttp.ClientWebSocketResponse, text: str, utterance_id: str, **options) -> bytes:
    await ws.send_json({"type": "speak", "id": utterance_id, "text": text, **options})
    events = await until(ws, "done", utterance_id)
    assert events[0].type == "start" and events[0].message["id"] == utterance_id, [e.type for e in events]
    return audio_of(events)
