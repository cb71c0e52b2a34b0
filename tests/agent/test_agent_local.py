"""The agent end to end, locally: a Strands agent on a scripted model, the real speech server, real HTTP."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import aiohttp
import pytest

from kokoro_agent.app import app_from_settings, build_app
from kokoro_agent.background import BackgroundAgent
from kokoro_agent.invoke import SESSION_HEADER, TurnResult, invoke, run_turn
from kokoro_agent.local import local_settings
from kokoro_agent.scripted_model import ScriptedModel
from kokoro_core.segmenter import split_sentences
from kokoro_stream.websocket_transport import WebSocketTransport
from tests.local_server import RunningServer, wait_until_idle
from tests.pacing import synthesis_seconds, tokens_per_second_to_outlast
from tests.speech import plausible_duration, run

BYTES_PER_SECOND = 24_000 * 2  # pcm16 at 24 kHz
HOLD_SECONDS = 120  # how long a held answer waits for the first audio before it goes on anyway
# Short enough to keep the suite quick on a CPU, long enough that streaming has something to overlap.
SCRIPTED_ANSWER = (
    "Sure. Streaming speech starts with the first sentence. "
    "The rest follows while the model is still writing, so nobody waits for the whole answer."
)


FIRST_SENTENCE, REST_OF_ANSWER = SCRIPTED_ANSWER.split(" ", 1)


@pytest.fixture(scope="module")
def agent(server: RunningServer) -> Iterator[BackgroundAgent]:
    # Paced from this machine: the answer after its first sentence outlasts that sentence's synthesis.
    rate = tokens_per_second_to_outlast(synthesis_seconds(server.ws_url, FIRST_SENTENCE), REST_OF_ANSWER, 20)
    settings = local_settings(server.ws_url, tokens_per_second=rate, script=SCRIPTED_ANSWER)
    with BackgroundAgent(app_from_settings(settings)) as running:
        yield running


def turn(agent: BackgroundAgent, payload: dict, session: str) -> TurnResult:
    async def go() -> TurnResult:
        async with aiohttp.ClientSession() as http:
            return await run_turn(http, agent.url, payload, session)

    return run(go())


class HeldModel(ScriptedModel):
    """Writes the first sentence and a few words more, then holds the rest until ``release`` is set."""

    def __init__(self, reply: str, release: threading.Event) -> None:
        super().__init__(reply, tokens_per_second=40, first_token_ms=100)
        self.release = release

    async def stream(self, *args, **kwargs):
        written = ""
        async for event in super().stream(*args, **kwargs):
            if len(written) > len(FIRST_SENTENCE) + 8 and not self.release.is_set():
                await asyncio.to_thread(self.release.wait, HOLD_SECONDS)
            yield event
            written += event.get("contentBlockDelta", {}).get("delta", {}).get("text", "")


def test_streamed_turn_sends_text_timing_and_audio_in_order(server) -> None:
    """Audio starts while the text is still arriving: the model holds its answer until the first audio.

    Were the agent to wait for the whole answer, no audio would come until the hold timed out, and the
    first audio would follow the last text.
    """
    release = threading.Event()
    settings = local_settings(server.ws_url, tokens_per_second=40, script=SCRIPTED_ANSWER)
    app = build_app(settings, lambda: HeldModel(SCRIPTED_ANSWER, release), lambda: WebSocketTransport(server.ws_url))
    with BackgroundAgent(app) as agent:

        async def scenario() -> TurnResult:
            result = TurnResult()
            async with aiohttp.ClientSession() as http:
                async for event in invoke(http, agent.url, {"prompt": "Why stream speech?"}, "order"):
                    result.add(event)
                    if event["type"] == "audio":
                        release.set()
            return result

        result = run(scenario())
    kinds = [event["type"] for event in result.events]
    assert kinds[0] == "timing" and result.events[0]["mark"] == "first_text"
    assert kinds[-1] == "done" and set(kinds) == {"timing", "text", "audio", "done"}
    assert result.text == SCRIPTED_ANSWER == result.summary["text"]
    audio = [event for event in result.events if event["type"] == "audio"]
    assert [event["seq"] for event in audio] == list(range(len(audio)))
    # The first-audio mark comes right before the first audio; audio starts while text is still arriving.
    first_audio = kinds.index("audio")
    assert result.events[first_audio - 1] == {
        "type": "timing",
        "mark": "first_audio",
        "ms": result.summary["first_audio_ms"],
    }
    last_text = len(kinds) - 1 - kinds[::-1].index("text")
    assert first_audio < last_text
    # Complete: every sentence of the answer is spoken, in order, and the audio is as long as the text needs.
    spoken = list(dict.fromkeys(event["sentence"] for event in audio))
    assert spoken == [sentence.strip() for sentence in split_sentences(SCRIPTED_ANSWER)]
    assert len(result.audio) == result.summary["audio_bytes"] and len(result.audio) % 2 == 0
    assert (result.summary["format"], result.summary["sample_rate"]) == ("pcm16", 24_000)
    assert plausible_duration(SCRIPTED_ANSWER, len(result.audio) / BYTES_PER_SECOND)
    assert wait_until_idle(server)["active_utterances"] == 0


def test_streaming_speaks_sooner_than_batch_on_the_same_answer(agent) -> None:
    streamed = turn(agent, {"prompt": "Compare", "mode": "stream"}, "compare-stream")
    batched = turn(agent, {"prompt": "Compare", "mode": "batch"}, "compare-batch")
    assert streamed.text == batched.text == SCRIPTED_ANSWER
    assert streamed.summary["first_audio_ms"] < batched.summary["first_audio_ms"]
    # Batch waits for the whole answer: its first audio comes after its last text.
    kinds = [event["type"] for event in batched.events]
    assert kinds.index("audio") > len(kinds) - 1 - kinds[::-1].index("text")
    assert abs(len(streamed.audio) - len(batched.audio)) < 0.25 * len(batched.audio)


def test_barge_in_stops_the_audio_and_the_session_goes_on(agent, server) -> None:
    async def scenario():
        async with aiohttp.ClientSession() as http:
            result = TurnResult()
            cancel_answer = None
            async for event in invoke(http, agent.url, {"prompt": "Talk for a while"}, "barge-in"):
                result.add(event)
                if event["type"] == "audio" and cancel_answer is None:
                    async for answer in invoke(http, agent.url, {"action": "cancel"}, "barge-in"):
                        cancel_answer = answer
            again = await run_turn(http, agent.url, {"prompt": "And now?"}, "barge-in")
            idle = [answer async for answer in invoke(http, agent.url, {"action": "cancel"}, "barge-in")]
            return result, cancel_answer, again, idle

    result, cancel_answer, again, idle = run(scenario())
    assert cancel_answer["type"] == "canceled"
    assert result.summary["type"] == "canceled"
    audio_events = [event for event in result.events if event["type"] == "audio"]
    assert len(audio_events) == cancel_answer["audio_events"]  # nothing of it arrived after the cancel
    assert len(result.audio) < 0.5 * len(again.audio)
    assert again.summary["type"] == "done" and again.text == SCRIPTED_ANSWER
    assert idle == [{"status": 200, "type": "idle"}]  # nothing to cancel any more
    assert wait_until_idle(server)["active_utterances"] == 0


def test_a_second_turn_while_one_speaks_is_refused_and_the_first_finishes(server) -> None:
    """The first turn is held mid-answer (its model waits) while the second is sent: the order is the test's."""
    release = threading.Event()
    settings = local_settings(server.ws_url, tokens_per_second=40, script=SCRIPTED_ANSWER)
    app = build_app(settings, lambda: HeldModel(SCRIPTED_ANSWER, release), lambda: WebSocketTransport(server.ws_url))
    with BackgroundAgent(app) as agent:

        async def scenario() -> tuple[TurnResult, list[dict]]:
            first, refused = TurnResult(), []
            async with aiohttp.ClientSession() as http:
                async for event in invoke(http, agent.url, {"prompt": "First"}, "busy"):
                    first.add(event)
                    if not refused:  # the first turn has begun and its model is not done: it is in progress
                        refused = [answer async for answer in invoke(http, agent.url, {"prompt": "Second"}, "busy")]
                        release.set()
            return first, refused

        try:
            first, refused = run(scenario())
        finally:
            release.set()
    assert refused[0]["status"] == 409 and refused[0]["code"] == "turn_in_progress"
    assert "cancel" in refused[0]["message"]
    assert first.summary["type"] == "done" and first.text == SCRIPTED_ANSWER


BAD_PAYLOADS = [
    ([1, 2], "invalid_payload", "must be a JSON object"),
    ({}, "invalid_payload", 'a turn needs a "prompt"'),
    ({"prompt": ""}, "invalid_payload", "prompt: String should have at least 1 character"),
    ({"prompt": "Hi", "mode": "shout"}, "invalid_payload", "mode: Input should be 'stream' or 'batch'"),
    ({"prompt": "Hi", "voice": "af_heart"}, "invalid_payload", "voice: Extra inputs are not permitted"),
    ({"action": "sing"}, "invalid_payload", "action: Input should be 'speak' or 'cancel'"),
    ({"prompt": "x" * 4001}, "prompt_too_long", "4001 characters; at most 4000"),
]


def test_bad_payloads_get_clear_errors_and_the_session_goes_on(agent) -> None:
    async def scenario():
        answers = []
        async with aiohttp.ClientSession() as http:
            for body, _, _ in BAD_PAYLOADS:
                async with http.post(f"{agent.url}/invocations", json=body, headers={SESSION_HEADER: "bad"}) as r:
                    answers.append((r.status, await r.json()))
            ok = await run_turn(http, agent.url, {"prompt": "Still there?"}, "bad")
        return answers, ok

    answers, ok = run(scenario())
    for (body, code, expected), (status, answer) in zip(BAD_PAYLOADS, answers, strict=True):
        assert status == 400 and answer["code"] == code and expected in answer["message"], (body, answer)
    assert ok.summary["type"] == "done" and ok.text == SCRIPTED_ANSWER


def test_body_that_is_not_json_is_refused(agent) -> None:
    async def scenario():
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{agent.url}/invocations", data=b"{not json") as response:
                return response.status, await response.json()

    status, answer = run(scenario())
    assert status == 400 and "Invalid JSON" in answer["error"]


def test_unreachable_speech_server_is_a_503_that_names_it(server) -> None:
    settings = local_settings("ws://127.0.0.1:9/invocations-bidirectional-stream", tokens_per_second=40)
    with BackgroundAgent(app_from_settings(settings)) as lonely:

        async def scenario():
            async with aiohttp.ClientSession() as http:
                return [answer async for answer in invoke(http, lonely.url, {"prompt": "Hello?"}, "lonely")]

        started = time.monotonic()
        (answer,) = run(scenario())
    assert answer["status"] == 503 and answer["code"] == "speech_unavailable"
    assert "cannot reach the speech server" in answer["message"]
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("through_emulator", [False, True], ids=["websocket", "sagemaker-stream"])
def test_local_command_runs_the_agent_end_to_end_and_compares_modes(
    embedded_model_dir, tmp_path, monkeypatch, through_emulator: bool
) -> None:
    """`kokoro-agent local`, the agent's one local command, with a short scripted answer; with
    `--through-emulator` its speech goes over SageMaker's bidirectional stream, as on AWS."""
    import wave

    from typer.testing import CliRunner

    from kokoro_agent.cli import app
    from tests.tools.emulated import any_credentials

    any_credentials(monkeypatch)  # what the command would set, undone after the test
    out = tmp_path / "agent.wav"
    args = ["local", "--answer", SCRIPTED_ANSWER, "--tokens-per-second", "20", "--out", str(out)]
    result = CliRunner().invoke(app, args + (["--through-emulator"] if through_emulator else []))
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines() if line.startswith(("  stream ", "  batch "))}
    assert set(lines) == {"stream", "batch"} and "first audio" in lines["stream"]
    assert "starts speaking" in result.output and "x sooner" in result.output
    with wave.open(str(out)) as reader:
        assert reader.getframerate() == 24_000
        assert plausible_duration(SCRIPTED_ANSWER, reader.getnframes() / 24_000)


class BrokenModel(ScriptedModel):
    """Writes a few tokens, then fails as a throttled or unreachable model would."""

    async def stream(self, *args, **kwargs):
        async for count, event in _numbered(super().stream(*args, **kwargs)):
            yield event
            if count == 8:
                raise RuntimeError("model throttled")


async def _numbered(events):
    count = 0
    async for event in events:
        yield count, event
        count += 1


def test_a_model_failure_mid_answer_ends_the_turn_with_an_error_and_the_session_stays_usable(server) -> None:
    settings = local_settings(server.ws_url, tokens_per_second=40, script=SCRIPTED_ANSWER)
    app = build_app(settings, lambda: BrokenModel(SCRIPTED_ANSWER, 40, 100), lambda: WebSocketTransport(server.ws_url))
    with BackgroundAgent(app) as broken:

        async def scenario():
            async with aiohttp.ClientSession() as http:
                failed = await run_turn(http, broken.url, {"prompt": "Hi"}, "broken")
                idle = [answer async for answer in invoke(http, broken.url, {"action": "cancel"}, "broken")]
                return failed, idle

        failed, idle = run(scenario())
    assert failed.summary["type"] == "error" and failed.summary["code"] == "llm_failed"
    assert "model throttled" in failed.summary["message"]
    assert SCRIPTED_ANSWER.startswith(failed.text) and 0 < len(failed.text) < len(SCRIPTED_ANSWER)
    assert idle == [{"status": 200, "type": "idle"}]  # the turn is over; the next one may start
    assert wait_until_idle(server)["active_utterances"] == 0
