"""`kokoro-stream proxy`: the OpenAI speech API in front of a SageMaker endpoint, here the emulator (which
speaks SageMaker's response-stream wire format) in front of a real server on the fake engine. The
official OpenAI SDK gets the same audio through the proxy as from the local server's own API, in both
stream formats, and a container's refusal as an OpenAI error. The proxy runs with an API key, as one
reachable from other machines would, and refuses what a web page could send it."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections.abc import Iterator

import aiohttp
import openai
import pytest

from kokoro_tools.emulator_host import emulating
from kokoro_tools.ports import free_port
from tests.fake_server import fake_server
from tests.server.openai_api.test_openai_api import TEXT, spoken, sse_events
from tests.speech import run
from tests.tools.emulated import ENDPOINT, REGION, any_credentials

API_KEY = "proxy-key-for-these-tests"


@pytest.fixture(scope="module")
def proxied() -> Iterator[tuple[str, str]]:
    """The local server's URL and the proxy's, the proxy started as a user starts it."""
    with pytest.MonkeyPatch.context() as patch:
        any_credentials(patch)
        with fake_server() as (server, _), emulating(server.url, ENDPOINT, REGION, max_part_bytes=999) as emulator:
            port = free_port()
            arguments = ["proxy", "--endpoint", ENDPOINT, "--region", REGION, "--port", str(port)]
            arguments += ["--endpoint-url", emulator.url, "--ca-file", str(emulator.ca_file)]
            command = [sys.executable, "-c", "from kokoro_stream.cli import main; main()", *arguments]
            environment = {**os.environ, "KOKORO_PROXY_API_KEY": API_KEY}  # as a user keeps it off the command line
            process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=environment)
            try:
                ready = process.stdout.readline() if process.stdout else ""
                assert f"http://127.0.0.1:{port}/v1" in ready, ready
                yield server.url, f"http://127.0.0.1:{port}"
            finally:
                process.terminate()
                process.wait(timeout=20)


def sse_audio(data: bytes) -> bytes:
    events = sse_events(data)
    assert events[-1]["type"] == "speech.audio.done"
    return b"".join(base64.b64decode(event["audio"]) for event in events[:-1])


@pytest.mark.parametrize(("response_format", "stream_format"), [("pcm", "audio"), ("wav", "sse"), ("mp3", "audio")])
def test_the_proxy_answers_as_the_local_api_does(proxied, response_format: str, stream_format: str) -> None:
    local, proxy = proxied
    request = {"response_format": response_format, "stream_format": stream_format, "voice": "ballad"}
    through = run(spoken(proxy, API_KEY, **request))
    (proxy_type, through_proxy), (local_type, from_local) = through, run(spoken(local, **request))
    assert proxy_type == local_type
    if stream_format == "sse":  # the same audio, though the endpoint's parts cut it into other events
        through_proxy, from_local = sse_audio(through_proxy), sse_audio(from_local)
    assert through_proxy == from_local


def test_a_container_refusal_is_an_openai_error_through_the_proxy(proxied) -> None:
    _, proxy = proxied
    with pytest.raises(openai.BadRequestError) as refused:
        run(spoken(proxy, API_KEY, voice="xx_nobody"))
    error = refused.value.body
    assert error["code"] == "unknown_voice" and error["param"] == "voice" and "xx_nobody" in error["message"]
    assert run(spoken(proxy, API_KEY, response_format="pcm"))[1]  # the proxy goes on


def test_a_caller_without_the_api_key_is_refused(proxied) -> None:
    _, proxy = proxied
    for key in ("not-needed", API_KEY[:-1]):
        with pytest.raises(openai.AuthenticationError) as refused:
            run(spoken(proxy, key))
        assert refused.value.body["code"] == "invalid_api_key"


async def _posted(url: str, headers: dict[str, str], body: bytes) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.post(url, data=body, headers=headers) as response:
        return response.status, (await response.json())["error"]


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        # What any web page may send without asking first: a plain-text body.
        ({"Content-Type": "text/plain"}, 415, "unsupported_media_type"),
        # A page of another site, its own name rebound to 127.0.0.1: its requests still name that site.
        ({"Host": "attacker.example:8000"}, 403, "host_not_allowed"),
        ({"Origin": "https://attacker.example"}, 403, "cross_origin"),
    ],
)
def test_what_a_web_page_could_send_is_refused_before_the_endpoint(proxied, headers, status, code) -> None:
    _, proxy = proxied
    body = f'{{"model": "tts-1", "voice": "coral", "input": "{TEXT}"}}'.encode()
    sent = {"Content-Type": "application/json", "Authorization": f"Bearer {API_KEY}"} | headers
    got_status, error = run(_posted(f"{proxy}/v1/audio/speech", sent, body))
    assert (got_status, error["code"]) == (status, code)
    assert len(error["message"]) > 40  # says what was wrong and what to do instead
