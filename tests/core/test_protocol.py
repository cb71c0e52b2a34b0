"""The typed protocol: each refusal has its code and a message saying what is allowed; messages
round-trip through their wire form; a client reads server messages it partly does not know."""

from __future__ import annotations

import json

import pytest

from kokoro_core.errors import ERROR_CODES, ProtocolError
from kokoro_core.protocol import Cancel, Close, Configure, Speak, parse_client_message, parse_speak_request
from kokoro_core.server_messages import Done, Error, Ready, Start, UnexpectedMessage, parse_server_message

LIMIT = 10_000


def refusal(payload: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(payload, LIMIT)
    assert caught.value.code in ERROR_CODES
    return caught.value


@pytest.mark.parametrize(
    ("message", "code", "says"),
    [
        ({"type": "speak", "text": "Hi.", "speed": 3}, "invalid_speed", "from 0.5 to 2.0"),
        ({"type": "speak", "text": "Hi.", "speed": True}, "invalid_speed", "True"),
        ({"type": "configure", "format": "mp3"}, "unknown_format", "pcm16, wav, mulaw"),
        ({"type": "configure", "sample_rate": 44100}, "invalid_sample_rate", "8000, 16000, 22050, 24000"),
        ({"type": "configure", "normalize": "yes"}, "invalid_normalize", "true or false"),
        ({"type": "configure", "voice": 7}, "unknown_voice", "7"),
        ({"type": "configure", "lexicon": ["Nguyen"]}, "invalid_lexicon", "must be an object"),
        ({"type": "configure", "lexicon": {"Nguyen": 1}}, "invalid_lexicon", "'Nguyen'"),
        ({"type": "speak", "text": 5}, "invalid_text", "not int"),
        ({"type": "speak", "text": "   "}, "invalid_text", "empty"),
        ({"type": "speak"}, "invalid_text", "missing"),
        ({"type": "speak", "text": "Hi.", "id": ""}, "invalid_id", "1 to 128"),
        ({"type": "cancel", "id": "x" * 129}, "invalid_id", "1 to 128"),
        ({"type": "speak", "text": "Hi.", "first_chunk_chars": 1.5}, "invalid_first_chunk_chars", "whole number"),
        ({"type": "speak", "text": "Hi.", "pitch": 2}, "invalid_message", "pitch"),
        ({"type": "close", "now": True}, "invalid_message", "its fields are: type"),
        ({"type": "shout"}, "unknown_type", "configure, speak, cancel, close"),
        ({"text": "no type"}, "unknown_type", "no type"),
        ({"type": [[["speak"]]]}, "unknown_type", "a string, not list"),
    ],
)
def test_each_refusal_names_what_was_wrong_and_what_is_allowed(message: dict, code: str, says: str) -> None:
    error = refusal(json.dumps(message))
    assert (error.code, says in error.message) == (code, True), error.message


def test_unreadable_frames_are_refused_with_their_own_codes() -> None:
    assert refusal(b"\xff\xfe").code == "invalid_utf8"
    assert refusal("{not json").code == "invalid_json"
    assert refusal("[1, 2]").code == "invalid_json"
    assert refusal("x" * (LIMIT + 1)).code == "message_too_large"


def test_a_value_with_braces_is_quoted_not_formatted() -> None:
    error = refusal(json.dumps({"type": "configure", "speed": {"fast": "{0}"}}))
    assert error.code == "invalid_speed" and "{'fast': '{0}'}" in error.message


def test_plain_text_is_a_speak_with_the_session_defaults() -> None:
    assert parse_client_message("Hello there.", LIMIT) == Speak(text="Hello there.")
    assert parse_client_message(b"Hello there.", LIMIT) == Speak(text="Hello there.")


def test_client_messages_round_trip_through_their_wire_form() -> None:
    messages = [
        Configure(voice="am_michael", speed=1.25, format="mulaw", sample_rate=8000, lexicon={"Nguyen": "/wˈɪn/"}),
        Speak(id="u1", text="Sure.", first_chunk_chars=40, normalize=False),
        Cancel(id="u1"),
        Cancel(),
        Close(),
    ]
    for message in messages:
        wire = message.wire()
        assert wire["type"] == message.type
        assert parse_client_message(json.dumps(wire), LIMIT) == message
    assert Cancel().wire() == {"type": "cancel"}  # only what was given goes on the wire


def test_a_post_body_takes_options_but_no_session_fields() -> None:
    assert parse_speak_request({"text": "Hi.", "voice": "bf_emma"}).voice == "bf_emma"
    with pytest.raises(ProtocolError) as caught:
        parse_speak_request({"text": "Hi.", "id": "u1"})
    assert caught.value.code == "invalid_request" and "id" in caught.value.message


def test_server_messages_are_typed_and_unknown_fields_or_types_are_tolerated() -> None:
    start = parse_server_message(
        {
            "type": "start",
            "id": "u1",
            "voice": "af_heart",
            "speed": 1.0,
            "format": "pcm16",
            "sample_rate": 24000,
            "normalize": True,
            "lexicon_entries": 0,
            "added_later": 1,
        }  # fmt: skip
    )
    assert isinstance(start, Start) and start.first_chunk_chars is None and start.id == "u1"
    assert parse_server_message({"type": "visemes", "id": "u1", "shapes": []}) is None  # a newer server's message
    error = parse_server_message({"type": "error", "id": None, "code": "a_new_code", "message": "m"})
    assert error == Error(code="a_new_code", message="m")
    with pytest.raises(UnexpectedMessage, match="done"):
        parse_server_message({"type": "done"})  # no id: unreadable


def test_server_messages_wire_form_matches_the_documented_fields() -> None:
    assert Error(code="busy", message="m").wire() == {"type": "error", "id": None, "code": "busy", "message": "m"}
    assert Done(id="u1", audio_ms=700.0, ttfa_ms=None).wire() == {
        "type": "done", "id": "u1", "audio_ms": 700.0, "ttfa_ms": None,
    }  # fmt: skip
    ready = Ready(
        session="s-1", sample_rate=24000, voices=["af_heart"], languages=["en-us"], default_voice="af_heart",
        max_text_chars=9,
    )  # fmt: skip
    assert set(ready.wire()) == {
        "type", "session", "sample_rate", "voices", "languages", "default_voice", "formats", "sample_rates",
        "max_text_chars",
    }  # fmt: skip
    assert "first_chunk_chars" not in Start(id="u", voice="v", sample_rate=8000).wire()


def test_post_ndjson_lines_are_typed_both_ways_and_a_bad_one_is_refused() -> None:
    from kokoro_core.server_messages import (
        Bookmark,
        ChunkLine,
        DoneLine,
        Phoneme,
        UnexpectedMessage,
        Word,
        ndjson_line,
        parse_ndjson_line,
    )

    words = [Word(text="Hi.", start_ms=0.0, end_ms=210.5)]
    phonemes = [Phoneme(phoneme="h", viseme=12, start_ms=0.0, end_ms=80.0)]
    line = ChunkLine.of(b"\x01\x02", words, [Bookmark(id="u1", name="m", at_ms=0.0)], phonemes)
    sent = ndjson_line(line)
    assert sent.endswith(b"\n") and b'"id"' not in sent  # a POST line names no utterance
    parsed = parse_ndjson_line(sent)
    assert parsed == line and isinstance(parsed, ChunkLine) and parsed.audio_bytes() == b"\x01\x02"
    plain = ndjson_line(ChunkLine.of(b"", words, []))
    assert b"phonemes" not in plain and b"bookmarks" not in plain  # absent unless there is something to say
    assert parse_ndjson_line(ndjson_line(DoneLine(audio_ms=5.0))) == DoneLine(audio_ms=5.0, ttfa_ms=None)
    assert parse_ndjson_line(b'{"type": "progress", "at": 1}') is None  # a newer server's line type
    for bad in (b'{"type": "chunk", "audio": "not base64!"}', b"{", b'{"type": "chunk", "words": [{}]}'):
        with pytest.raises(UnexpectedMessage):
            parse_ndjson_line(bad)
