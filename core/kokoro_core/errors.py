"""The protocol's error codes, and the error every refusal raises: a stable ``code`` to branch on and a message
that says what was wrong and what is allowed (docs/protocol.md lists them)."""

from __future__ import annotations

from typing import Literal, get_args

from .server_messages import Error

ErrorCode = Literal[
    # a message or body that cannot be read
    "invalid_json",
    "invalid_utf8",
    "message_too_large",
    "request_entity_too_large",
    # a message of the wrong shape
    "unknown_type",
    "invalid_message",
    "invalid_request",
    "invalid_id",
    # what to say, and how
    "invalid_text",
    "invalid_ssml",
    "text_too_long",
    "nothing_to_speak",
    "unknown_voice",
    "invalid_speed",
    "unknown_format",
    "invalid_sample_rate",
    "invalid_normalize",
    "invalid_foreign_script",
    "invalid_marks",
    "invalid_phonemes",
    "invalid_lexicon",
    "invalid_first_chunk_chars",
    "invalid_context",
    "invalid_buffer_delay",
    # the session's state
    "duplicate_id",
    "unknown_id",
    "unknown_context",
    "duplicate_context",
    "too_many_contexts",
    "closing",
    # the server's state
    "busy",
    "synthesis_failed",
    "not_ready",
    "shutting_down",
    "not_found",
    "method_not_allowed",
]
ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)


class ProtocolError(ValueError):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message

    def reply(self, utterance_id: str | None = None, context: str | None = None) -> Error:
        return Error(id=utterance_id, context=context, code=self.code, message=self.message)
