"""AWS event-stream messages as the SageMaker runtime writes and reads them (the emulator's framing).

Each message is a prelude (total and header lengths, CRC32), headers, a payload and a CRC32 of it
all; smithy's ``smithy-aws-event-stream`` encodes and decodes them, this module adds what a server
needs on top: messages cut at any byte, and a clear error for bytes that are not the format.
"""

from __future__ import annotations

import io
import json
from binascii import crc32
from typing import Any

from smithy_aws_event_stream.events import Event, EventMessage
from smithy_aws_event_stream.exceptions import EventError

CONTENT_TYPE = "application/vnd.amazon.eventstream"
PRELUDE_BYTES = 12  # total length, headers length, CRC32 of the two
MAX_MESSAGE_BYTES = 16 * 1024 * 1024  # the format's ceiling for one message


class FramingError(ValueError):
    """Bytes that are not a well-formed event-stream message."""


def payload_part(data: bytes, data_type: str | None = None, completion: str = "COMPLETE") -> bytes:
    headers: dict[str, Any] = {":message-type": "event", ":event-type": "PayloadPart"}
    headers[":content-type"] = "application/octet-stream"
    if data_type is not None:  # the bidirectional stream's parts say what they carry
        headers |= {"DataType": data_type, "CompletionState": completion}
    return EventMessage(headers=headers, payload=data).encode()


def exception_event(error_type: str, message: str, code: str | None = None) -> bytes:
    headers = {":message-type": "exception", ":exception-type": error_type, ":content-type": "application/json"}
    document = {"Message": message} | ({"ErrorCode": code} if code is not None else {})
    return EventMessage(headers=headers, payload=json.dumps(document).encode()).encode()


def decode(data: bytes) -> EventMessage:
    """One whole message, checked (lengths and both CRCs)."""
    try:
        event = Event.decode(io.BytesIO(data))
    except (EventError, ValueError) as error:
        raise FramingError(f"not an event-stream message ({type(error).__name__}: {error})") from None
    if event is None:
        raise FramingError("an empty event-stream message")
    return event.message


class EventReader:
    """Whole messages out of bytes that arrive in pieces. A prelude is checked as soon as it is
    complete, so a corrupt length fails at once instead of waiting for bytes that never come."""

    def __init__(self) -> None:
        self._data = b""

    def feed(self, data: bytes) -> list[EventMessage]:
        self._data += data
        messages = []
        while len(self._data) >= PRELUDE_BYTES:
            lengths, prelude_crc = self._data[:8], int.from_bytes(self._data[8:12], "big")
            if crc32(lengths) != prelude_crc:
                raise FramingError("an event-stream prelude whose CRC32 does not match")
            total = int.from_bytes(lengths[:4], "big")
            if not PRELUDE_BYTES + 4 <= total <= MAX_MESSAGE_BYTES:
                raise FramingError(f"an event-stream message of {total} bytes; the format allows 16 to 16 MiB")
            if len(self._data) < total:
                break
            messages.append(decode(self._data[:total]))
            self._data = self._data[total:]
        return messages
