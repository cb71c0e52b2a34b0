"""What every transport offers the speaker: one session, JSON control messages out, events in.

A transport speaks the bidirectional protocol (docs/protocol.md) over some wire: a local
WebSocket, SageMaker's bidirectional stream, or one SageMaker POST per sentence. Events come
back as ``Control`` (a JSON message) or ``Audio`` (bytes of the current utterance).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class SpeechError(Exception):
    """Base of every error the client raises."""


class TransportClosed(SpeechError):
    """The session ended without the client closing it (network, server restart, lifetime limit)."""


class ServerError(SpeechError):
    """The server refused or failed a message; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, utterance_id: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.utterance_id = utterance_id


class SpeechTimeout(SpeechError):
    """Nothing arrived from the server for too long."""


@dataclass(frozen=True)
class Control:
    message: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.message.get("type"))


@dataclass(frozen=True)
class Audio:
    data: bytes


Event = Control | Audio


def ready_message(event: Event, source: str) -> dict[str, Any]:
    """The first event of a session must be ``ready``; return its message."""
    if not isinstance(event, Control) or event.type != "ready":
        raise SpeechError(f"{source} did not start with a ready message: {event!r}")
    return event.message


class Transport(Protocol):
    async def connect(self) -> dict[str, Any]:
        """Open a session; return the server's ``ready`` message."""

    async def send(self, message: dict[str, Any]) -> None:
        """Send one control message."""

    async def receive(self) -> Event:
        """The next event; raises ``TransportClosed`` when the session ends."""

    async def close(self) -> None:
        """Close the session (idempotent)."""
