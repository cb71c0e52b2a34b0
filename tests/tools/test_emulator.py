"""The real clients through `kokoro-stream emulate`: the pinned bidirectional SDK (HTTP/2, TLS, SigV4,
event streams both ways) and boto3 (event-stream responses), against a real server on the fake engine.
Nothing is stood in for on the client side; the emulator speaks SageMaker's runtime wire formats.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import threading
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import numpy as np
import pytest
from botocore.exceptions import ClientError
from typer.testing import CliRunner

from kokoro_bench.corpus import AGENT_REPLIES
from kokoro_core.protocol import Close, Configure, Speak
from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.settings import ServerSettings
from kokoro_stream import (
    SageMakerPostTransport,
    ServerError,
    Speaker,
    SpeechError,
    WebSocketTransport,
)
from kokoro_stream.cli import app
from kokoro_stream.reply import AudioChunk
from kokoro_stream.transport import Audio, Control
from kokoro_tools.emulator_host import RunningEmulator, emulating
from kokoro_tools.ports import free_port
from tests.fake_server import FirstChunkOnly, fake_server
from tests.local_server import RunningServer
from tests.speech import run
from tests.tcp_proxy import TcpProxy
from tests.tools.emulated import ENDPOINT, REGION, any_credentials, bidi, by_sentence, runtime, spoken

REPLIES = [json.loads(line)["text"] for line in AGENT_REPLIES.read_text().splitlines()]


@pytest.fixture(autouse=True)
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    any_credentials(monkeypatch)


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[RunningServer, RunningEmulator]]:
    # Parts of at most 999 bytes: most audio frames come as PARTIAL parts and a COMPLETE one, and the
    # response streams' parts end inside 16-bit samples, for the POST transport to re-buffer.
    with fake_server() as (server, _), emulating(server.url, ENDPOINT, REGION, max_part_bytes=999) as emulator:
        yield server, emulator


def made_by_the_engine(chunks: list[str], sentences: list[str]) -> list[tuple[str, bytes]]:
    """Each sentence's audio as the fake engine made it for the chunks the server cut (in order): where a
    sentence is cut depends on how much audio is ahead of it when it starts, so on timing; what reaches the
    client must be exactly what was made."""
    made, chunks = [], list(chunks)
    for sentence in sentences:
        audio, said = b"", ""
        while " ".join(said.split()) != " ".join(sentence.split()):
            chunk = chunks.pop(0)
            said = f"{said} {chunk}"
            samples = FakeEngine().synthesize(chunk, "af_heart").audio
            audio += (np.clip(samples, -1, 1) * 32767).round().astype("<i2").tobytes()
        made.append((sentence, audio))
    return made


def test_the_bidirectional_sdk_speaks_the_corpus_as_the_websocket_does(stack) -> None:
    server, emulator = stack
    engine = server.server.runtime.engine
    for text in REPLIES:
        before = len(engine.calls)
        via_sdk = run(spoken(bidi(emulator), text))
        between = len(engine.calls)
        direct = run(spoken(WebSocketTransport(server.ws_url), text))
        sentences = [sentence for sentence, _ in by_sentence(direct)]
        assert [sentence for sentence, _ in by_sentence(via_sdk)] == sentences
        assert by_sentence(via_sdk) == made_by_the_engine(engine.calls[before:between], sentences)
        assert by_sentence(direct) == made_by_the_engine(engine.calls[between:], sentences)
        # Marks cross the stream too (their times follow the chunks, so only their words are compared).
        assert [w.text for c in via_sdk for w in c.words] == [w.text for c in direct for w in c.words]


async def posted(url: str, sentence: str) -> bytes:
    async with aiohttp.ClientSession() as http, http.post(f"{url}/invocations", json={"text": sentence}) as response:
        return await response.read()


def test_boto3_streams_the_corpus_as_the_container_answers_it(stack) -> None:
    server, emulator = stack
    client = runtime(emulator)
    for text in REPLIES:
        via_post = by_sentence(run(spoken(SageMakerPostTransport(ENDPOINT, client), text)))
        # Each sentence is one POST, laid out as one request is: the same bytes as the route gives directly.
        assert via_post == [(sentence, run(posted(server.url, sentence))) for sentence, _ in via_post]
        assert " ".join(sentence for sentence, _ in via_post).split() == text.split()


def test_invoke_endpoint_returns_the_containers_answer(stack) -> None:
    server, emulator = stack
    body = json.dumps({"text": "Your table is booked for seven.", "format": "wav"})
    answer = runtime(emulator).invoke_endpoint(EndpointName=ENDPOINT, Body=body, ContentType="application/json")

    async def direct() -> bytes:
        json_body = {"Content-Type": "application/json"}
        async with (
            aiohttp.ClientSession() as http,
            http.post(f"{server.url}/invocations", data=body, headers=json_body) as response,
        ):
            return await response.read()

    assert answer["ContentType"] == "audio/wav" and answer["Body"].read() == run(direct())


def test_a_container_refusal_is_the_typed_error_on_both_routes(stack) -> None:
    _, emulator = stack
    with pytest.raises(ServerError) as over_sdk:
        run(spoken(bidi(emulator), "Nobody says this.", voice="xx_nobody"))
    with pytest.raises(ServerError) as over_post:
        run(spoken(SageMakerPostTransport(ENDPOINT, runtime(emulator)), "Nobody says this.", voice="xx_nobody"))
    assert over_sdk.value.code == over_post.value.code == "unknown_voice"
    with pytest.raises(ClientError) as unary:
        runtime(emulator).invoke_endpoint(EndpointName=ENDPOINT, Body=b'{"text": ""}', ContentType="application/json")
    assert unary.value.response["Error"]["Code"] == "ModelError"
    assert (
        unary.value.response["OriginalStatusCode"] == 400 and "invalid_text" in unary.value.response["OriginalMessage"]
    )


def test_a_wrong_region_an_unsigned_request_or_an_unknown_endpoint_is_refused_as_sagemaker_does(stack) -> None:
    _, emulator = stack
    with pytest.raises(ClientError) as wrong_region:
        runtime(emulator, region="eu-west-1").invoke_endpoint(EndpointName=ENDPOINT, Body=b"Hi.")
    assert wrong_region.value.response["Error"]["Code"] == "InvalidSignatureException"
    assert "eu-west-1" in wrong_region.value.response["Error"]["Message"]
    with pytest.raises(ClientError) as unknown:
        runtime(emulator).invoke_endpoint(EndpointName="nobody", Body=b"Hi.")
    assert unknown.value.response["Error"]["Code"] == "ValidationError"
    with pytest.raises(SpeechError, match="kokoro-tts"):
        run(spoken(bidi(emulator, region="eu-west-1"), "Hi."))

    async def unsigned() -> tuple[int, str]:
        async with aiohttp.ClientSession() as http:
            url = f"{emulator.url}/endpoints/{ENDPOINT}/invocations"
            async with http.post(url, data=b"Hi.", ssl=_trusting(emulator)) as response:
                return response.status, response.headers["x-amzn-ErrorType"]

    assert run(unsigned()) == (403, "MissingAuthenticationTokenException")


def _trusting(emulator: RunningEmulator) -> Any:
    import ssl

    return ssl.create_default_context(cafile=str(emulator.ca_file))


def test_cancel_over_the_bidirectional_stream_stops_the_audio_and_the_session_goes_on(stack) -> None:
    _, emulator = stack

    async def scenario() -> tuple[int, list[AudioChunk]]:
        async with Speaker(bidi(emulator), timeout=20) as speaker:
            reply = speaker.reply()
            await reply.feed(REPLIES[1])
            await reply.end()
            first = await anext(aiter(reply))
            await speaker.cancel()
            after = [chunk async for chunk in reply]  # nothing of the canceled reply follows
            again = [chunk async for chunk in speaker.speak("And now something short.")]
            return len(first.audio) + sum(len(c.audio) for c in after), again

    heard, again = run(scenario())
    assert heard > 0 and again and again[0].text == "And now something short."


# Every chunk at most 40 said characters, so each sentence's audio is laid out the same in every run,
# however the time left to hear falls.
CHUNKS = {"first_chunk_chars": 40, "max_chunk_chars": 40}


def test_a_dropped_container_connection_mid_audio_reconnects_without_loss_or_repeat() -> None:
    text = REPLIES[1]
    with fake_server(**CHUNKS) as (reference, _):
        direct = run(spoken(WebSocketTransport(reference.ws_url), text))
    engine = FirstChunkOnly()
    server = RunningServer(ServerSettings(host="127.0.0.1", port=0, **CHUNKS), engine=engine).start(timeout=30)

    async def scenario() -> tuple[list[AudioChunk], int]:
        async with TcpProxy(server.server.port) as proxy:
            with emulating(f"http://127.0.0.1:{proxy.port}", ENDPOINT, REGION) as emulator:
                async with Speaker(bidi(emulator), timeout=20, reconnect_delay=0.05) as speaker:
                    reply = speaker.reply()
                    await reply.feed(text)
                    await reply.end()
                    chunks = [await anext(aiter(reply))]  # the first chunk is out, the next one held
                    proxy.drop()  # the container's connection fails mid-reply
                    engine.held.set()
                    chunks += [chunk async for chunk in reply]
                    return chunks, speaker.reconnects

    try:
        chunks, reconnects = run(scenario())
    finally:
        engine.held.set()
        server.stop()
    assert reconnects == 1
    # Nothing lost, nothing twice: every sentence's audio is as long as without the drop, and its words
    # (each chunk's marks) say it exactly once. The bytes may differ: the chunks after the drop are laid
    # out for a listener with nothing left to hear.
    lengths = [(sentence, len(audio)) for sentence, audio in by_sentence(chunks)]
    assert lengths == [(sentence, len(audio)) for sentence, audio in by_sentence(direct)]
    for sentence, _ in lengths:
        assert " ".join(w.text for c in chunks if c.text == sentence for w in c.words) == sentence


@pytest.mark.parametrize("kind", ["bidi", "post"])
def test_say_reaches_an_endpoint_through_the_emulator(stack, tmp_path: Path, kind: str) -> None:
    _, emulator = stack
    out = tmp_path / "say.wav"
    endpoint = ["--endpoint", ENDPOINT, "--region", REGION, "--endpoint-url", emulator.url]
    arguments = ["say", "Hello from the endpoint.", *endpoint, "--ca-file", str(emulator.ca_file), "--transport", kind]
    result = CliRunner().invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 0, result.output
    with wave.open(str(out)) as audio:
        assert audio.getnframes() > 0.5 * audio.getframerate()


def test_the_emulate_command_serves_until_interrupted(tmp_path: Path) -> None:
    port, ca_file = free_port(), tmp_path / "ca.pem"
    with fake_server() as (server, _):
        command = "from kokoro_stream.cli import main; main()"
        arguments = ["emulate", "--url", server.url, "--port", str(port), "--ca-out", str(ca_file)]
        process = subprocess.Popen([sys.executable, "-c", command, *arguments], stdout=subprocess.PIPE, text=True)
        try:
            first_line = process.stdout.readline() if process.stdout else ""
            assert f"https://127.0.0.1:{port}" in first_line and ca_file.exists()
            emulator = RunningEmulator(f"https://127.0.0.1:{port}", ca_file)
            assert run(spoken(bidi(emulator), "Through the command."))
        finally:
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=20) == 0


def test_the_agent_speaks_through_the_bidirectional_stream_as_it_would_on_aws(stack) -> None:
    """The agent's deployed speech path (SageMakerBidiTransport from its settings), here through the emulator."""
    from kokoro_agent.app import app_from_settings
    from kokoro_agent.background import BackgroundAgent
    from kokoro_agent.invoke import run_turn
    from kokoro_agent.settings import AgentSettings

    _, emulator = stack
    answer = "Sure. Your refund of $42.97 is on its way."
    settings = AgentSettings(
        script=answer,
        tokens_per_second=200,
        first_token_ms=10,
        tts_endpoint=ENDPOINT,
        region=REGION,
        tts_endpoint_url=emulator.url,
        tts_ca_file=str(emulator.ca_file),
    )

    async def turn(url: str) -> Any:
        async with aiohttp.ClientSession() as http:
            return await run_turn(http, url, {"prompt": "Where is my refund?"}, "through-emulator")

    with BackgroundAgent(app_from_settings(settings)) as agent:
        result = run(turn(agent.url))
    assert result.summary["type"] == "done" and result.text == answer
    assert len(result.audio) > 24000  # more than half a second of speech came back through the stream
    words = [word["text"] for event in result.events if event["type"] == "audio" for word in event.get("words", [])]
    assert " ".join(words) == answer


def test_a_canceled_receive_loses_nothing_and_leaves_awscrt_nothing_to_fail() -> None:
    """A receive canceled while nothing has arrived (a timeout, a barge-in) leaves the stream's read running:
    the next receive gets every event, in order, and awscrt never resolves a future the transport canceled
    (that would surface as an unraisable exception, which fails the suite)."""
    gate = threading.Event()
    with fake_server(gate=gate) as (server, engine), emulating(server.url, ENDPOINT, REGION) as emulator:
        transport = bidi(emulator)

        async def scenario() -> list[Any]:
            await transport.connect(Configure())
            await transport.send(Speak(id="held", text="Held until the receives were canceled."))
            events: list[Any] = [await transport.receive(), await transport.receive()]  # configured, start
            for _ in range(5):  # no audio can arrive while the engine holds the sentence
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(transport.receive(), 0.05)
            gate.set()
            while not (isinstance(event := await transport.receive(), Control) and event.message.type == "done"):
                events.append(event)
            await transport.send(Close())
            await transport.close()
            return [*events, event]

        events = run(scenario())
    kinds = [event.message.type if isinstance(event, Control) else "audio" for event in events]
    assert kinds[0] == "configured" and kinds[1] == "start" and kinds[-1] == "done" and "audio" in kinds
    audio = sum(len(event.data) for event in events if isinstance(event, Audio))
    # 16-bit samples at 24 kHz, against the server's count (to a tenth of a millisecond): nothing went missing.
    assert abs(audio - events[-1].message.audio_ms * 48) < 5
