"""The browser playground in headless Chromium (Debian's package, driven by Playwright through
``executable_path``; no browser download), against a real server on the fake engine: the page loads the
server's voices, replays text as a token stream, plays the audio as it arrives, shows the time to first
audio and captions from the word marks, and Stop is barge-in (canceled on the server, nothing more
arrives, the heard words are shown). The engine holds every synthesis after the first until the test
lets it, so "stop after the first audio" is a fact of the test, not of the machine's speed.

Where Chromium is not installed the tests skip, except under ``KOKORO_REQUIRE_BROWSER=1`` (``.ci/run``
sets it, having installed it).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiohttp import web

from kokoro_core.speech_text import SpeechText
from kokoro_stream import WebSocketTransport
from kokoro_tools.playground import playground_app
from kokoro_tools.ports import free_port
from tests.speech import run
from tests.waiting import await_until

TEXT = "Sure, I can help with that. Your order shipped this morning and should arrive on Thursday."
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def chromium() -> str:
    if CHROMIUM is None:
        if os.environ.get("KOKORO_REQUIRE_BROWSER") == "1":
            pytest.fail("KOKORO_REQUIRE_BROWSER=1 but no chromium on PATH (apt-get install chromium)")
        pytest.skip("no chromium on PATH (apt-get install chromium)")
    return CHROMIUM


@asynccontextmanager
async def opened_page(chromium: str, ws_url: str, path: str = "/", ready: str = "speak") -> AsyncIterator[Any]:
    """The playground's page at ``path``, once its ``ready`` button is enabled."""
    from playwright.async_api import async_playwright

    runner = web.AppRunner(playground_app(lambda: WebSocketTransport(ws_url)))
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=chromium, args=["--autoplay-policy=no-user-gesture-required", "--no-sandbox"]
            )
            page = await browser.new_page(viewport={"width": 960, "height": 720})
            await page.goto(f"http://127.0.0.1:{port}{path}")
            await page.wait_for_function(f"!document.getElementById('{ready}').disabled", timeout=30_000)
            try:
                yield page
            finally:
                await browser.close()
    finally:
        await runner.cleanup()


async def stats(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate("window.playground.stats")
    return result


def test_replayed_text_plays_as_it_streams_with_its_time_to_first_audio_and_captions(chromium, engine_and_url) -> None:
    engine, ws_url = engine_and_url
    engine.held.set()  # nothing held: the whole reply plays

    async def scenario() -> tuple[list[str], dict[str, Any], str, str]:
        async with opened_page(chromium, ws_url) as page:
            voices = await page.eval_on_selector_all("#voice option", "options => options.map(o => o.value)")
            await page.fill("#text", TEXT)
            await page.fill("#rate", "60")
            await page.select_option("#voice", "bf_emma")
            await page.click("#speak")
            await page.wait_for_function("window.playground.stats.done", timeout=30_000)
            # Captions follow the audio clock: the last word shows once its audio plays.
            await page.wait_for_function(
                "document.getElementById('captions').textContent.includes('Thursday.')", timeout=30_000
            )
            ttfa, captions = await page.text_content("#ttfa"), await page.text_content("#captions")
            return voices, await stats(page), ttfa or "", captions or ""

    voices, seen, ttfa, captions = run(scenario())
    assert {"af_heart", "bf_emma"} <= set(voices)
    assert seen["chunks"] >= 2 and seen["seconds"] > 2 and not seen["errors"]  # more than one chunk, played in turn
    assert int(ttfa) == seen["firstAudioMs"] > 0
    assert captions.split()[-3:] == TEXT.split()[-3:]
    assert {call for call in engine.calls} >= {"Sure, I can help with that."}


def test_stop_is_barge_in_and_the_next_reply_speaks(chromium, engine_and_url) -> None:
    engine, ws_url = engine_and_url

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with opened_page(chromium, ws_url) as page:
            await page.fill("#text", TEXT)
            await page.fill("#rate", "0")  # all at once
            await page.click("#speak")
            await page.wait_for_function("window.playground.stats.chunks >= 1", timeout=30_000)
            await await_until(lambda: len(engine.calls) >= 2, "the engine to hold the chunk after the first")
            await page.click("#stop")
            await page.wait_for_function("window.playground.stats.stopped !== null", timeout=30_000)
            await await_until(lambda: engine.interrupted_calls, "the held synthesis to be stopped on the server")
            engine.held.set()
            await asyncio.sleep(0.3)  # room for any audio that should not come
            stopped = await stats(page)
            await page.fill("#text", "And now something short.")
            await page.click("#speak")
            await page.wait_for_function("window.playground.stats.done", timeout=30_000)
            return stopped, await stats(page)

    stopped, again = run(asyncio.wait_for(scenario(), 90))
    assert stopped["late"] == 0 and stopped["chunks"] == 1  # nothing of the stopped reply after the stop
    assert isinstance(stopped["stopped"]["heard_ms"], float | int) and stopped["stopped"]["heard_ms"] >= 0
    assert again["chunks"] >= 1 and again["late"] == 0 and not again["errors"]


def test_a_voice_of_another_language_swaps_the_sample_but_never_the_users_text(chromium, engine_and_url) -> None:
    engine, ws_url = engine_and_url
    engine.held.set()

    async def scenario() -> tuple[str, str, str]:
        async with opened_page(chromium, ws_url) as page:
            american = await page.input_value("#text")
            await page.select_option("#voice", "bf_emma")
            british = await page.input_value("#text")
            await page.fill("#text", TEXT)
            await page.select_option("#voice", "af_heart")
            return american, british, await page.input_value("#text")

    american, british, written = run(scenario())
    assert american.startswith("Sure, I can help") and british.startswith("Certainly.") and written == TEXT


def test_the_browser_text_streaming_client_appends_a_fake_llms_tokens_and_plays_the_audio(
    chromium, engine_and_url
) -> None:
    """stream.html speaks the protocol itself, with no library: open, append per token, end."""
    engine, ws_url = engine_and_url
    engine.held.set()  # nothing held: the whole reply plays

    async def scenario() -> dict[str, Any]:
        async with opened_page(chromium, ws_url, f"/stream.html?server={ws_url}", ready="stream") as page:
            await page.fill("#text", TEXT)
            await page.fill("#rate", "80")
            await page.click("#stream")
            await page.wait_for_function("window.streaming.stats.ended", timeout=30_000)
            seen: dict[str, Any] = await page.evaluate("window.streaming.stats")
            return seen

    seen = run(scenario())
    cutter = SpeechText(language="en-us")
    assert seen["sentences"] == cutter.push(TEXT) + cutter.flush()  # cut on the server as the client cuts
    assert seen["ended"] == "ended" and not seen["errors"]
    assert seen["chunks"] >= 2 and seen["seconds"] > 2 and seen["firstAudioMs"] > 0
