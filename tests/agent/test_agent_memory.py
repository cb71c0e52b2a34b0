"""After a barge-in the agent remembers only what the user heard: checked through the real Strands agent
loop (the next turn's model call receives the conversation), over real HTTP, against a real speech
server on the deterministic fake engine, whose word marks are exact."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import aiohttp

from kokoro_agent.app import build_app
from kokoro_agent.background import BackgroundAgent
from kokoro_agent.invoke import TurnResult, invoke, run_turn
from kokoro_agent.local import local_settings
from kokoro_agent.memory import INTERRUPTED, keep_heard
from kokoro_agent.scripted_model import ScriptedModel
from kokoro_stream.websocket_transport import WebSocketTransport
from tests.fake_server import fake_server
from tests.speech import run

ANSWER = "Your refund of $42.97 went out this morning. It should reach your card within 3 to 5 business days."
FIRST_SENTENCE = ANSWER.split(". ")[0] + "."
MS_PER_BYTE = 1000 / (24000 * 2)


class HeldRecordingModel(ScriptedModel):
    """Writes the first sentence and a few words more, holds the rest until ``release``, and keeps the
    conversation each model call receives."""

    def __init__(self, release: threading.Event, calls: list[list[dict[str, Any]]]) -> None:
        super().__init__(ANSWER, tokens_per_second=200, first_token_ms=10)
        self.release = release
        self.calls = calls

    async def stream(self, messages: Any, *args: Any, **kwargs: Any):  # type: ignore[no-untyped-def]
        self.calls.append([dict(message) for message in messages])
        written = ""
        async for event in super().stream(messages, *args, **kwargs):
            if len(written) > len(FIRST_SENTENCE) + 8 and not self.release.is_set():
                await asyncio.to_thread(self.release.wait, 60)
            yield event
            written += event.get("contentBlockDelta", {}).get("delta", {}).get("text", "")


def texts(message: dict[str, Any]) -> str:
    return " ".join(block["text"] for block in message["content"] if "text" in block)


def test_after_barge_in_the_conversation_holds_only_the_words_heard() -> None:
    release, calls = threading.Event(), []

    async def scenario(url: str) -> tuple[TurnResult, dict, TurnResult]:
        # A connection per request: none is reused just as the agent's server closes it.
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as http:
            first, answer = TurnResult(), None
            async for event in invoke(http, url, {"prompt": "Where is my refund?"}, "memory"):
                first.add(event)
                words = [word for e in first.events if e["type"] == "audio" for word in e.get("words", [])]
                if answer is None and " ".join(word["text"] for word in words) == FIRST_SENTENCE:
                    # The user has heard the first sentence up to the end of "$42.97", and barges in.
                    played = next(word for word in words if word["text"] == "$42.97")["end_ms"] + 1
                    async for reply in invoke(http, url, {"action": "cancel", "played_ms": played}, "memory"):
                        answer = reply
                    release.set()  # the model may go on writing: none of it is spoken or remembered
            second = await run_turn(http, url, {"prompt": "Sorry, what did you say?"}, "memory")
            return first, answer, second

    with fake_server() as (speech, _):
        settings = local_settings(speech.ws_url, tokens_per_second=200, script=ANSWER)
        app = build_app(settings, lambda: HeldRecordingModel(release, calls), lambda: WebSocketTransport(speech.ws_url))
        with BackgroundAgent(app) as agent:
            first, answer, second = run(scenario(agent.url))
    heard = "Your refund of $42.97"
    assert answer is not None and answer["type"] == "canceled" and answer["heard_text"] == heard
    assert first.summary["type"] == "canceled" and first.summary["heard_text"] == heard
    assert first.summary["text"].startswith(FIRST_SENTENCE)  # the model wrote more than was heard
    assert second.summary["type"] == "done"
    # The second model call received the conversation: the first answer cut to what was heard.
    conversation = calls[-1]
    assert [message["role"] for message in conversation] == ["user", "assistant", "user"]
    assert texts(conversation[0]) == "Where is my refund?"
    assert texts(conversation[1]) == f"{heard} {INTERRUPTED}"
    assert texts(conversation[2]) == "Sorry, what did you say?"


def test_keep_heard_keeps_the_roles_alternating() -> None:
    user = {"role": "user", "content": [{"text": "Hi"}]}
    messages = [user, {"role": "assistant", "content": [{"text": "Cancelled by user"}]}]
    keep_heard(messages, 0, "")
    assert messages == [user, {"role": "assistant", "content": [{"text": INTERRUPTED}]}]
    earlier = [user, {"role": "assistant", "content": [{"text": "Hello."}]}]
    keep_heard(earlier, 2, "Never said")  # the turn's prompt never reached the conversation
    assert len(earlier) == 2
