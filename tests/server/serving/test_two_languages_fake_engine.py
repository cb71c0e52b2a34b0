"""A reply in two languages through the real server on the fake engine: a span in another language is read in
its sentence's one model call and named as written, in documents and in streamed text; refusals of a
language no reader reads and of a bad ``foreign_script`` leave the session going."""

from __future__ import annotations

import aiohttp

from kokoro_server.text.foreign import marked
from tests.fake_server import fake_server
from tests.local_server import RunningServer
from tests.speech import Event, audio_of, connect, run, until


def words_of(events: list[Event]) -> list[str]:
    return [word["text"] for event in events if event.type == "marks" for word in event.message["words"]]


def test_a_lang_span_is_one_model_call_and_its_words_are_named_as_written() -> None:
    document = (
        '<speak>Your booking at <lang xml:lang="fr-FR">Hôtel Le Meurice, rue de Rivoli</lang> is confirmed.</speak>'
    )

    async def scenario(server: RunningServer) -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "speak", "id": "u1", "text": document, "marks": True})
            return await until(ws, "done", "u1")

    with fake_server() as (server, engine):
        events = run(scenario(server))
    assert len(engine.calls) == 1, engine.calls
    assert marked("Hôtel Le Meurice, rue de Rivoli", "fr-fr") in engine.said[0]
    assert engine.said[0].startswith("Your booking at") and engine.said[0].endswith("is confirmed.")
    assert words_of(events) == "Your booking at Hôtel Le Meurice, rue de Rivoli is confirmed.".split()
    assert audio_of(events)


def test_a_chinese_name_in_streamed_text_is_read_and_named_as_written_and_skip_leaves_it_unsaid() -> None:
    tokens = ["I noted ", "the name ", "王", "小明", " on the booking. ", "Thank you."]

    async def scenario(server: RunningServer) -> tuple[list[Event], list[Event]]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "open", "context": "c1", "marks": True})
            for token in tokens:
                await ws.send_json({"type": "append", "context": "c1", "text": token})
            await ws.send_json({"type": "end", "context": "c1"})
            read = await until(ws, "context_ended")
            await ws.send_json({"type": "configure", "foreign_script": "skip"})
            configured = (await until(ws, "configured"))[-1]
            await ws.send_json({"type": "speak", "id": "s1", "text": "I noted the name 王小明.", "marks": True})
            return read, [configured, *await until(ws, "done", "s1")]

    with fake_server() as (server, engine):
        read, skipped = run(scenario(server))
    assert " ".join(words_of(read)) == "I noted the name 王小明 on the booking. Thank you."
    assert marked("王小明", "cmn") in engine.said[0]
    assert skipped[0].message["foreign_script"] == "skip"
    assert engine.said[-1] == "I noted the name ." and " ".join(words_of(skipped)) == "I noted the name 王小明."


def test_a_language_no_reader_reads_and_a_bad_foreign_script_are_refused_and_the_session_goes_on() -> None:
    async def scenario(server: RunningServer) -> tuple[dict, dict, list[Event]]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            document = '<speak>Danke, <lang xml:lang="de-DE">Frau Müller</lang>.</speak>'
            await ws.send_json({"type": "speak", "id": "bad", "text": document})
            language = (await until(ws, "error"))[-1].message
            await ws.send_json({"type": "speak", "id": "bad2", "text": "Hello.", "foreign_script": "spell-ish"})
            option = (await until(ws, "error"))[-1].message
            await ws.send_json(
                {"type": "speak", "id": "good", "text": '<speak>Merci, <lang xml:lang="fr">Madame</lang>.</speak>'}
            )
            return language, option, await until(ws, "done", "good")

    with fake_server() as (server, _):
        language, option, events = run(scenario(server))
    assert (language["id"], language["code"]) == ("bad", "invalid_ssml")
    assert "de-DE" in language["message"] and "fr-FR" in language["message"] and "zh" in language["message"]
    assert option["code"] == "invalid_foreign_script"
    assert "read" in option["message"] and "skip" in option["message"]
    assert events[0].type == "start" and audio_of(events)
