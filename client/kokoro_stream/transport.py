"""What every transport offers the speaker: one session, JSON control messages out, events in.

A transport speaks the bidirectional protocol (docs/protocol.md, typed in ``kokoro_core.protocol``)
over some wire: a local WebSocket, SageMaker's bidirectional stream, or one SageMaker POST per
sentence. Events come back as ``Control`` (a server message) or ``Audio`` (bytes of the current
utterance).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from kokoro_core.protocol import ClientMessage
from kokoro_core.server_messages import Ready, ServerMessage, UnexpectedMessage, parse_server_message


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
    message: ServerMessage


@dataclass(frozen=True)
class Audio:
    data: bytes


Event = Control | Audio


def control(document: Any) -> Control | None:
    """A server's JSON message as an event; ``None`` for a type this client does not know (skip it)."""
    try:
        message = parse_server_message(document)
    except UnexpectedMessage as error:
        raise SpeechError(str(error)) from None
    return None if message is None else Control(message)


def ready_message(event: Event, source: str) -> Ready:
    """The first event of a session must be ``ready``; return its message."""
    if not isinstance(event, Control) or not isinstance(event.message, Ready):
        raise SpeechError(f"{source} did not start with a ready message: {event!r}")
    return event.message


class Transport(Protocol):
    async def connect(self, hello: ClientMessage) -> Ready:
        """Open a session with ``hello`` as its first message (the speaker's ``configure``); return the
        server's ``ready``. A transport may send ``hello`` before ``ready`` arrives (the bidirectional
        stream does: one round trip less)."""
        ...

    async def send(self, message: ClientMessage) -> None:
        """Send one control message."""
        ...

    async def receive(self) -> Event:
        """The next event; raises ``TransportClosed`` when the session ends."""
        ...

    async def close(self) -> None:
        """Close the session (idempotent)."""
        ...
