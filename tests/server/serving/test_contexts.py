"""Text streams (contexts) on the real model through the real server: interleaved contexts with one canceled
mid-sentence, and deltas cut anywhere spoken as the whole text is."""

from __future__ import annotations

import aiohttp

from tests.speech import Event, audio_of, connect, receive, run

REPLY_A = (
    "Let me check your order, which I can see here in our system, and it looks like the package left our "
    "warehouse on Monday morning, went through the regional sorting center on Tuesday, and is now with the "
    "local courier. It should arrive by Friday afternoon."
)
REPLY_B = "Your refund of $42.97 is on its way. You will see it within five business days."


def words(text: str) -> list[str]:
    return text.split()


async def collect_until_ended(ws: aiohttp.ClientWebSocketResponse, context: str) -> list[Event]:
    events: list[Event] = []
    while True:
        event = await receive(ws, timeout=120)
        assert event is not None, [e.type for e in events]
        events.append(event)
        if event.type == "context_ended" and event.message["context"] == context:
            return events


def test_two_interleaved_contexts_one_canceled_mid_sentence_the_other_whole_with_its_marks(server) -> None:
    async def scenario() -> list[Event]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "open", "context": "a", "marks": True})
            await ws.send_json({"type": "open", "context": "b", "marks": True, "voice": "am_michael"})
            tokens_a, tokens_b = REPLY_A.split(" "), REPLY_B.split(" ")
            for index in range(max(len(tokens_a), len(tokens_b))):  # an LLM's tokens, two streams at once
                for context, tokens in (("a", tokens_a), ("b", tokens_b)):
                    if index < len(tokens):
                        await ws.send_json({"type": "append", "context": context, "text": tokens[index] + " "})
            await ws.send_json({"type": "end", "context": "b"})
            await ws.send_json({"type": "end", "context": "a"})  # a's last sentence queues behind b's first
            events: list[Event] = []
            while not any(e.type == "audio" for e in events):  # a's first sentence is playing
                event = await receive(ws, timeout=120)
                assert event is not None
                events.append(event)
            await ws.send_json({"type": "cancel", "context": "a"})
            return events + await collect_until_ended(ws, "b")

    events = run(scenario())
    starts = {e.message["id"]: e.message for e in events if e.type == "start"}
    first = next(iter(starts.values()))
    assert first["context"] == "a" and first["text"].startswith("Let me check your order,")
    canceled = [e.message for e in events if e.type == "canceled"]
    assert canceled and all(c["context"] == "a" for c in canceled)
    assert {"type": "context_ended", "context": "a", "reason": "canceled"} in [e.message for e in events]
    done_b = [e.message for e in events if e.type == "done" and e.message["context"] == "b"]
    assert [starts[d["id"]]["text"] for d in done_b] == [
        "Your refund of $42.97 is on its way.",
        "You will see it within five business days.",
    ]
    after_cancel = events[next(i for i, e in enumerate(events) if e.type == "canceled") :]
    assert not [e for e in after_cancel if e.type == "start" and e.message["context"] == "a"]
    for done in done_b:  # each of b's sentences: all its words marked, in order, inside its audio
        span = [i for i, e in enumerate(events) if e.message and e.message.get("id") == done["id"]]
        own = events[span[0] : span[-1] + 1]
        marked = [w for e in own if e.type == "marks" for w in e.message["words"]]
        assert [w["text"] for w in marked] == words(starts[done["id"]]["text"])
        assert all(a["end_ms"] <= b["start_ms"] + 1 for a, b in zip(marked, marked[1:], strict=False))
        assert 0 < marked[-1]["end_ms"] <= done["audio_ms"] + 1
        assert abs(len(audio_of(own)) / 48 - done["audio_ms"]) < 1  # pcm16 at 24 kHz: 48 bytes a ms


def test_deltas_that_split_a_word_a_character_a_tag_and_a_number_are_spoken_as_the_whole_text(server) -> None:
    document = 'The cafe\u0301 is open. <break time="200ms"/>It costs 1,250 dollars.'
    pieces = ["The ca", "fe", "\u0301 is op", "en. <bre", 'ak time="20', '0ms"/>It costs 1,2', "50 doll", "ars."]
    assert "".join(pieces) == document

    async def spoken(deltas: list[str]) -> tuple[list[str], bytes, list[dict]]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            await ws.send_json({"type": "open", "context": "c", "ssml": True, "marks": True})
            for delta in deltas:
                await ws.send_json({"type": "append", "context": "c", "text": delta})
            await ws.send_json({"type": "end", "context": "c"})
            events = await collect_until_ended(ws, "c")
        assert not [e.message for e in events if e.type == "error"]
        texts = [e.message["text"] for e in events if e.type == "start"]
        marked = [w for e in events if e.type == "marks" for w in e.message["words"]]
        return texts, audio_of(events), marked

    whole = run(spoken([document]))
    split = run(spoken(pieces))
    assert split[0] == whole[0] and whole[0][0] == "The cafe\u0301 is open."
    assert [w["text"] for w in split[2]] == [w["text"] for w in whole[2]]
    assert len(split[1]) == len(whole[1]) and split[1] == whole[1]
