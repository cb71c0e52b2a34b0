"""Markdown is read as words on every route: an agent's ``**bold**`` is never read aloud, whether the text
comes through the client, a raw WebSocket speak, a POST or the OpenAI-compatible API.

On the fake engine (every chunk it says is recorded) each route is checked for what reaches the engine and
what the word marks name; on the real model, a markdown text and its plain words give the same audio.
"""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.fake_server import fake_server
from tests.speech import connect, run, until

MARKDOWN = (
    "## Your order\n\n"
    "Your **refund** of *$42* is on [its way](https://example.com/refunds/42).\n"
    "- Check `snake_case` names at https://www.example.com/help today.\n\n"
    "```python\nprint('never read')\n```\n"
    "| Plan | Price |\n|---|---|\n| Basic | 10 |\n"
)
SAID = [
    "Your order",
    "Your refund of $42 is on its way.",
    "Check snake_case names at example.com today.",
    "Plan, Price",
    "Basic, 10",
]


def said_words() -> list[str]:
    return " ".join(SAID).split()


async def over_websocket(url: str) -> list[str]:
    async with aiohttp.ClientSession() as http:
        ws = await connect(http, url)
        await ws.send_json({"type": "configure", "marks": True})
        await until(ws, "configured")
        await ws.send_json({"type": "speak", "id": "u1", "text": MARKDOWN})
        events = await until(ws, "done", "u1")
    return [word["text"] for event in events if event.type == "marks" for word in event.message["words"]]


async def over_post(url: str) -> list[str]:
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{url}/invocations", json={"text": MARKDOWN, "marks": True}) as response:
            assert response.status == 200, await response.text()
            lines = [json.loads(line) for line in (await response.read()).splitlines() if line.strip()]
    return [word["text"] for line in lines for word in line.get("words", [])]


async def over_openai(url: str) -> int:
    async with aiohttp.ClientSession() as http:
        body = {"model": "kokoro", "input": MARKDOWN, "voice": "af_heart", "response_format": "pcm"}
        async with http.post(f"{url}/v1/audio/speech", json=body) as response:
            assert response.status == 200, await response.text()
            return len(await response.read())


@pytest.mark.parametrize("route", ["websocket", "post", "openai"])
def test_every_route_says_the_words_of_a_markdown_text_and_none_of_its_marks(route: str) -> None:
    with fake_server() as (server, engine):
        if route == "websocket":
            marked = run(over_websocket(server.ws_url))
        elif route == "post":
            marked = run(over_post(server.url))
        else:
            assert run(over_openai(server.url)) > 0
            marked = None
        spoken = " ".join(engine.calls).split()
    assert spoken == said_words()
    assert not any(mark in word for word in spoken for mark in ("**", "`", "#", "](", "http", "|", "never"))
    if marked is not None:  # the word marks name the words heard, not the marks
        assert marked == said_words()


def test_a_text_of_only_markdown_and_code_is_refused_with_what_is_skipped() -> None:
    async def scenario(url: str) -> dict:
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{url}/invocations", json={"text": "**\n```\nx = 1\n```"}) as response:
                return {"status": response.status, **(await response.json())}

    with fake_server() as (server, engine):
        refused = run(scenario(server.url))
        assert engine.calls == []
    assert refused["status"] == 400 and refused["error"] == "nothing_to_speak"
    assert "markdown marks, code blocks" in refused["message"]


@pytest.mark.usefixtures("idle_after")
def test_the_real_model_says_a_markdown_text_exactly_as_its_plain_words(server) -> None:
    async def pcm(text: str) -> bytes:
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{server.url}/invocations", json={"text": text, "format": "pcm16"}) as response:
                assert response.status == 200, await response.text()
                return await response.read()

    plain = run(pcm("Your refund is on its way. Check the help page today."))
    marked = run(pcm("Your **refund** is on [its way](https://example.com/r/1). Check the `help` page *today*."))
    assert plain and marked == plain
