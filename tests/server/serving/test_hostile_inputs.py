"""Hostile and malformed input over HTTP and WebSocket: a clear error, and nothing else breaks.

After each bad input the same session (where it still exists) and a fresh one both still
synthesize correctly, and the server holds nothing for the failed request.
"""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.speech import connect, plausible_duration, receive, run, speak_and_collect
from tests.waiting import await_until

PROBE = "Fine."
MAX_TEXT = 20_000


async def _probe_http(url: str) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{url}/invocations", json={"text": PROBE}) as response:
            assert response.status == 200
            assert plausible_duration(PROBE, len(await response.read()) / 48000)


# -- HTTP -------------------------------------------------------------------------------------

HTTP_CASES = {
    "empty_text": ({"text": ""}, "application/json", 400, "invalid_text"),
    "whitespace_text": ({"text": " \n\t "}, "application/json", 400, "invalid_text"),
    "missing_text": ({"voice": "af_heart"}, "application/json", 400, "invalid_text"),
    "text_not_a_string": ({"text": 42}, "application/json", 400, "invalid_text"),
    "text_too_long": ({"text": "a" * (MAX_TEXT + 1)}, "application/json", 400, "text_too_long"),
    "one_megabyte_body": (b"x" * 1_048_576, "text/plain", 413, "request_entity_too_large"),
    "plain_text_too_long": (b"x" * (MAX_TEXT + 1), "text/plain", 400, "text_too_long"),
    "invalid_utf8": (b"caf\xe9 \xff\xfe", "text/plain", 400, "invalid_utf8"),
    "invalid_json": (b'{"text": "hi",', "application/json", 400, "invalid_json"),
    "json_array": (b'["hi"]', "application/json", 400, "invalid_json"),
    "json_nested_too_deeply": (b"[" * 5000, "application/json", 400, "invalid_json"),
    "json_number_too_long": (b'{"text": "hi", "speed": ' + b"9" * 5000 + b"}", "application/json", 400, "invalid_json"),
    "unknown_field": ({"text": "hi", "vioce": "af_heart"}, "application/json", 400, "invalid_request"),
    "unknown_voice": ({"text": "hi", "voice": "xx_nobody"}, "application/json", 400, "unknown_voice"),
    "voice_wrong_type": ({"text": "hi", "voice": ["af_heart"]}, "application/json", 400, "unknown_voice"),
    "unknown_format": ({"text": "hi", "format": "mp3"}, "application/json", 400, "unknown_format"),
    "unsupported_rate": ({"text": "hi", "sample_rate": 44100}, "application/json", 400, "invalid_sample_rate"),
    "rate_as_string": ({"text": "hi", "sample_rate": "16000"}, "application/json", 400, "invalid_sample_rate"),
    "mulaw_not_8k": (
        {"text": "hi", "format": "mulaw", "sample_rate": 16000},
        "application/json",
        400,
        "invalid_sample_rate",
    ),
    "speed_too_high": ({"text": "hi", "speed": 2.5}, "application/json", 400, "invalid_speed"),
    "speed_too_low": ({"text": "hi", "speed": 0.1}, "application/json", 400, "invalid_speed"),
    "speed_boolean": ({"text": "hi", "speed": True}, "application/json", 400, "invalid_speed"),
    "foreign_script_unknown": (
        {"text": "hi", "foreign_script": "spell"},
        "application/json",
        400,
        "invalid_foreign_script",
    ),
    "speed_nan": (b'{"text": "hi", "speed": NaN}', "application/json", 400, "invalid_speed"),
    "normalize_not_boolean": ({"text": "hi", "normalize": "no"}, "application/json", 400, "invalid_normalize"),
    "lexicon_not_an_object": ({"text": "hi", "lexicon": ["hi"]}, "application/json", 400, "invalid_lexicon"),
    "lexicon_unknown_phoneme": ({"text": "hi", "lexicon": {"hi": "/h€/"}}, "application/json", 400, "invalid_lexicon"),
    "only_emoji": ({"text": "🎉👋🔥"}, "application/json", 400, "nothing_to_speak"),
    "only_hangul_for_english_voice": ({"text": "안녕하세요"}, "application/json", 400, "nothing_to_speak"),
    "only_cjk_skipped_for_english_voice": (
        {"text": "你好世界", "foreign_script": "skip"},
        "application/json",
        400,
        "nothing_to_speak",
    ),
    "only_control_characters": ({"text": "\x00\x07\x1b"}, "application/json", 400, "nothing_to_speak"),
}


@pytest.mark.parametrize("case", list(HTTP_CASES))
def test_bad_http_request_gets_a_clear_4xx_and_the_server_goes_on(server, idle_after, case):
    body, content_type, status, code = HTTP_CASES[case]

    async def scenario():
        async with aiohttp.ClientSession() as session:
            kwargs = {"data": body, "headers": {"Content-Type": content_type}}
            if isinstance(body, dict):
                kwargs = {"json": body}
            async with session.post(f"{server.url}/invocations", **kwargs) as response:
                answer = (response.status, response.content_type, await response.json())
        await _probe_http(server.url)
        return answer

    got_status, got_type, answer = run(scenario())
    assert (got_status, got_type, answer["error"]) == (status, "application/json", code)
    assert len(answer["message"]) > 20  # says what was wrong and what is allowed


def test_control_characters_and_emoji_inside_text_are_skipped(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            payload = {"text": "Hello\x00 there 🎉, 你好 friend.\x1b"}
            async with session.post(f"{server.url}/invocations", json=payload) as response:
                return response.status, await response.read()

    status, body = run(scenario())
    assert status == 200 and plausible_duration("Hello there, friend.", len(body) / 48000)


def test_wrong_method_is_a_json_405(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session, session.get(f"{server.url}/invocations") as response:
            return response.status, await response.json()

    status, answer = run(scenario())
    assert status == 405 and answer["error"] == "method_not_allowed"


def test_client_that_disconnects_mid_response_cancels_its_work(server, idle_after):
    text = " ".join(f"Sentence {i} is here to keep the engine busy." for i in range(10))
    engine = server.server.runtime.engine

    async def scenario():
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{server.url}/invocations", json={"text": text}) as response:
                await response.content.readany()  # first audio arrived; the next chunk goes to a worker
                await await_until(
                    lambda: server.stats()["running_jobs"], "the next chunk's synthesis to start", poll_seconds=0.001
                )
                interrupted_before = engine.interrupted_calls
                response.close()  # hang up
        await await_until(
            lambda: not server.stats()["running_jobs"], "the hung-up synthesis to stop", poll_seconds=0.001
        )
        interrupted = engine.interrupted_calls - interrupted_before
        await _probe_http(server.url)
        return interrupted

    assert run(scenario()) == 1  # the chunk on the worker was stopped, not finished for nobody


# -- WebSocket --------------------------------------------------------------------------------

WS_CASES = {
    "invalid_json": ('{"type": "speak", "text": ', "invalid_json"),
    "json_not_an_object": ("[1, 2, 3]", "invalid_json"),
    "json_nested_too_deeply": ("[" * 5000, "invalid_json"),
    "json_object_nested_too_deeply": ('{"type": "speak", "text": "hi", "x": ' + '{"a": ' * 3000, "invalid_json"),
    "json_number_too_long": ('{"type": "speak", "text": "hi", "speed": ' + "9" * 5000 + "}", "invalid_json"),
    "type_not_a_string": ('{"type": [[["speak"]]], "text": "hi"}', "unknown_type"),
    "unknown_type": ('{"type": "sing", "text": "la"}', "unknown_type"),
    "missing_type": ('{"text": "no type"}', "unknown_type"),
    "unknown_field": ('{"type": "speak", "text": "hi", "colour": "red"}', "invalid_message"),
    "empty_text": ('{"type": "speak", "text": ""}', "invalid_text"),
    "whitespace_text": ('{"type": "speak", "text": "   "}', "invalid_text"),
    "text_wrong_type": ('{"type": "speak", "text": {"a": 1}}', "invalid_text"),
    "text_too_long": (json.dumps({"type": "speak", "text": "b" * (MAX_TEXT + 1)}), "text_too_long"),
    "unknown_voice": ('{"type": "speak", "text": "hi", "voice": "nobody"}', "unknown_voice"),
    "unknown_format": ('{"type": "speak", "text": "hi", "format": "ogg"}', "unknown_format"),
    "bad_rate": ('{"type": "speak", "text": "hi", "sample_rate": 11025}', "invalid_sample_rate"),
    "speed_out_of_range": ('{"type": "speak", "text": "hi", "speed": 9}', "invalid_speed"),
    "speed_wrong_type": ('{"type": "configure", "speed": "fast"}', "invalid_speed"),
    "foreign_script_wrong_type": ('{"type": "configure", "foreign_script": true}', "invalid_foreign_script"),
    "normalize_wrong_type": ('{"type": "configure", "normalize": 0}', "invalid_normalize"),
    "normalize_null_in_speak": ('{"type": "speak", "text": "hi", "normalize": null}', "invalid_normalize"),
    "lexicon_empty_word": ('{"type": "configure", "lexicon": {"": "nothing"}}', "invalid_lexicon"),
    "lexicon_empty_entry": ('{"type": "configure", "lexicon": {"Kokoro": ""}}', "invalid_lexicon"),
    "lexicon_unclosed_phonemes": ('{"type": "configure", "lexicon": {"Kokoro": "/kəkˈɔːɹoʊ"}}', "invalid_lexicon"),
    "lexicon_unknown_phoneme": ('{"type": "speak", "text": "hi", "lexicon": {"hi": "/hī/"}}', "invalid_lexicon"),
    "lexicon_oversized": (
        json.dumps({"type": "configure", "lexicon": {f"word{i}": "word" for i in range(1001)}}),
        "invalid_lexicon",
    ),
    "first_chunk_too_short": ('{"type": "speak", "text": "hi", "first_chunk_chars": 3}', "invalid_first_chunk_chars"),
    "first_chunk_not_a_number": (
        '{"type": "speak", "text": "hi", "first_chunk_chars": "all"}',
        "invalid_first_chunk_chars",
    ),
    "first_chunk_in_configure": ('{"type": "configure", "first_chunk_chars": 40}', "invalid_message"),
    "configure_unknown_voice": ('{"type": "configure", "voice": 7}', "unknown_voice"),
    "id_wrong_type": ('{"type": "speak", "id": 5, "text": "hi"}', "invalid_id"),
    "id_too_long": (json.dumps({"type": "speak", "id": "i" * 500, "text": "hi"}), "invalid_id"),
    "cancel_unknown_id": ('{"type": "cancel", "id": "never-sent"}', "unknown_id"),
    "only_emoji": ('{"type": "speak", "text": "🙂🙂"}', "nothing_to_speak"),
    "hangul_for_english_voice": ('{"type": "speak", "text": "안녕하세요"}', "nothing_to_speak"),
    "cjk_skipped_for_english_voice": (
        '{"type": "speak", "text": "日本語のテキスト", "foreign_script": "skip"}',
        "nothing_to_speak",
    ),
    "invalid_utf8_binary": (b"\xc3\x28 not utf-8 \xff", "invalid_utf8"),
    "oversized_frame": (b"{" + b" " * (MAX_TEXT * 4 + 4096), "message_too_large"),
}


@pytest.mark.parametrize("case", list(WS_CASES))
def test_bad_message_gets_an_error_and_the_session_goes_on(server, idle_after, case):
    frame, code = WS_CASES[case]

    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await (ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_str(frame))
            error = await receive(ws)
            same_session = await speak_and_collect(ws, PROBE, "after")
            # Another user's session is served as well (its speech is the session's above, from the same
            # server: a cheap answer says enough, and spares a synthesis per case).
            fresh = await connect(session, server.ws_url)
            await fresh.send_json({"type": "cancel", "id": "never-sent"})
            fresh_answer = await receive(fresh)
            await fresh.close()
            await ws.close()
            return error.message, same_session, fresh_answer.message

    error, same_session, fresh_answer = run(scenario())
    assert error["type"] == "error" and error["code"] == code, error
    assert len(error["message"]) > 20
    assert plausible_duration(PROBE, len(same_session) / 48000)
    assert fresh_answer["code"] == "unknown_id", fresh_answer


def test_duplicate_id_of_a_queued_utterance_is_refused(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "dup", "text": "First of two."})
            await ws.send_json({"type": "speak", "id": "dup", "text": "Second of two."})
            events = []
            while not any(e.type == "done" for e in events):
                events.append(await receive(ws))
            await ws.close()
            return [e.message for e in events if e.message]

    messages = run(scenario())
    assert {"type": "error", "id": "dup", "code": "duplicate_id"}.items() <= next(
        m for m in messages if m["type"] == "error"
    ).items()
    assert [m["id"] for m in messages if m["type"] == "done"] == ["dup"]


def test_speak_after_close_is_refused_and_queued_audio_still_plays(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "before", "text": "Before closing."})
            await ws.send_json({"type": "close"})
            await ws.send_json({"type": "speak", "id": "after", "text": "Too late."})
            events = []
            while (event := await receive(ws)) is not None:
                events.append(event)
            return [e.message for e in events if e.message], ws.close_code

    messages, code = run(scenario())
    assert code == 1000
    assert any(m["type"] == "error" and m["code"] == "closing" and m["id"] == "after" for m in messages)
    assert [m["id"] for m in messages if m["type"] == "done"] == ["before"]


@pytest.mark.parametrize("when", ["queued", "mid_audio"])
def test_abrupt_disconnect_leaves_nothing_running(server, idle_after, when):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            for i in range(4):
                await ws.send_json({"type": "speak", "id": f"d{i}", "text": f"Sentence {i} will never be heard."})
            if when == "mid_audio":
                while (await receive(ws)).type != "audio":
                    pass
            ws._response.connection.transport.abort()  # drop the TCP connection, no close handshake
        async with aiohttp.ClientSession() as session:
            fresh = await connect(session, server.ws_url)
            audio = await speak_and_collect(fresh, PROBE, "fresh")
            await fresh.close()
            return audio

    assert plausible_duration(PROBE, len(run(scenario())) / 48000)
