"""What a WebSocket session's sender writes, in order: one typed item per frame or message.

The producer and the reader post items; the sender writes them. Each item knows the utterance it
belongs to (a cancel withdraws that utterance's items still queued) and about how many bytes it takes on
the wire (the outbox is bounded in bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

from kokoro_core.server_messages import Bookmark, Configured, ContextEnded, Error, Flushed, Marks, Phonemes

from .utterance import Utterance

CONTROL_BYTES = 256  # about what a control message takes on the wire (marks: per four words)


@dataclass(frozen=True)
class AudioFrame:
    utterance: Utterance
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class Started:
    """``start`` (and a ``wav`` header after it)."""

    utterance: Utterance
    size: int = CONTROL_BYTES


@dataclass(frozen=True)
class Finished:
    """``done``: the utterance's audio is all sent."""

    utterance: Utterance
    size: int = CONTROL_BYTES


@dataclass(frozen=True)
class CanceledReply:
    """``canceled``: posted ahead of queued audio, so it belongs to no utterance the cancel withdraws."""

    canceled: Utterance
    utterance: None = None
    size: int = CONTROL_BYTES


@dataclass(frozen=True)
class Timing:
    """Word marks, phoneme marks or an SSML mark reached, for the audio that follows."""

    utterance: Utterance
    message: Marks | Phonemes | Bookmark

    @property
    def size(self) -> int:
        message = self.message
        count = len(message.words) if isinstance(message, Marks) else 0
        count = len(message.phonemes) if isinstance(message, Phonemes) else count
        return CONTROL_BYTES * (1 + count // 4)


@dataclass(frozen=True)
class Reply:
    """A reply to a message (``configured``, an ``error``, ``flushed``, ``context_ended``), of no utterance the
    session speaks."""

    message: Configured | Error | Flushed | ContextEnded
    utterance: None = None
    size: int = CONTROL_BYTES


@dataclass(frozen=True)
class CloseSocket:
    code: int
    utterance: None = None
    size: int = CONTROL_BYTES


Item = AudioFrame | Started | Finished | CanceledReply | Timing | Reply | CloseSocket
