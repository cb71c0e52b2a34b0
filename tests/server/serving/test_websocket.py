"""The bidirectional protocol over a real WebSocket: order, pipelining, cancel, frames, configure."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import numpy as np
import websockets

from kokoro_core.chunker import MIN_FIRST_CHUNK_CHARS
from tests.speech import audio_of, connect, plausible_duration, receive, run, speak_and_collect, until
from tests.waiting import await_until


def test_ready_then_start_audio_done_in_order(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(server.ws_url)
            ready = await receive(ws)
            await ws.send_json({"type": "speak", "id": "u1", "text": "Good morning."})
            events = await until(ws, "done", "u1")
            await ws.close()
            return ready, events

    ready, events = run(scenario())
    assert ready.message["type"] == "ready" and ready.message["sample_rate"] == 24000
    assert "af_heart" in ready.message["voices"] and set(ready.message["formats"]) >= {"pcm16", "wav", "mulaw"}
    kinds = [event.type for event in events]
    assert kinds[0] == "start" and kinds[-1] == "done" and set(kinds[1:-1]) == {"audio"}
    done = events[-1].message
    audio = audio_of(events)
    assert done["audio_ms"] == round(len(audio) / 2 / 24000 * 1000, 1)
    assert 0 < done["ttfa_ms"] < 30_000
    assert plausible_duration("Good morning.", len(audio) / 48000)


def test_pipelined_utterances_are_spoken_in_the_order_sent(server, idle_after):
    texts = {f"p{i}": text for i, text in enumerate(["One.", "Two, please.", "Three.", "Four.", "Five, done."])}

    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            for utterance_id, text in texts.items():
                await ws.send_json({"type": "speak", "id": utterance_id, "text": text})
            events = await until(ws, "done", "p4")
            await ws.close()
            return events

    events = run(scenario())
    starts = [e.message["id"] for e in events if e.type == "start"]
    dones = [e.message["id"] for e in events if e.type == "done"]
    assert starts == dones == list(texts)
    # Audio frames sit between their own start and done.
    current = None
    for event in events:
        if event.type == "start":
            current = event.message["id"]
        elif event.type == "done":
            assert event.message["id"] == current
            current = None
        elif event.type == "audio":
            assert current is not None


def test_cancel_mid_utterance_stops_its_audio_at_once(server, idle_after):
    long_text = "This is a long answer. " + " ".join(f"Point number {i} is worth a sentence." for i in range(12))

    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "long", "text": long_text})
            await ws.send_json({"type": "speak", "id": "queued", "text": "This one never plays."})
            before = await until(ws, "audio")  # first audio of "long" is out
            await ws.send_json({"type": "cancel"})
            after = []
            while True:
                event = await receive(ws)
                after.append(event)
                if sum(1 for e in after if e.type == "canceled") == 2:
                    break
            # The session goes on: a new utterance plays normally.
            fresh = await speak_and_collect(ws, "Still here.", "fresh")
            await ws.close()
            return before, after, fresh

    before, after, fresh = run(scenario())
    assert before[0].message == {**before[0].message, "type": "start", "id": "long"}
    canceled = [e.message for e in after if e.type == "canceled"]
    assert [c["id"] for c in canceled] == ["long", "queued"]
    assert canceled[0]["sent_ms"] > 0 and canceled[1]["sent_ms"] == 0
    # Nothing of either utterance arrives after its canceled message.
    first_canceled = next(i for i, e in enumerate(after) if e.type == "canceled")
    assert all(e.type == "canceled" for e in after[first_canceled:])
    assert not any(e.type in ("start", "done") for e in after)
    assert plausible_duration("Still here.", len(fresh) / 48000)
    assert server.stats()["active_utterances"] == 0


def test_cancel_stops_the_chunk_being_synthesized_so_the_worker_is_free_at_once(server, idle_after):
    # The first chunk is the short first clause; the next ones are long.
    steps = ", and then ".join(f"step {i} of a long list of steps" for i in range(9))
    long_sentence = f"Here is the plan, {steps}."
    engine = server.server.runtime.engine

    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "long", "text": long_sentence})
            await until(ws, "audio")  # the first chunk is out; the second is being synthesized
            await await_until(
                lambda: server.stats()["running_jobs"], "the second chunk's synthesis to start", poll_seconds=0.001
            )
            interrupted_before = engine.interrupted_calls
            await ws.send_json({"type": "cancel"})
            canceled = await until(ws, "canceled")
            await await_until(
                lambda: not server.stats()["running_jobs"], "the canceled synthesis to stop", poll_seconds=0.001
            )
            interrupted = engine.interrupted_calls - interrupted_before
            fresh = await speak_and_collect(ws, "Next question.", "fresh")
            await ws.close()
            return canceled, interrupted, fresh

    canceled, interrupted, fresh = run(scenario())
    assert canceled[-1].message["id"] == "long"
    assert interrupted == 1  # the worker did not finish audio nobody will hear
    assert plausible_duration("Next question.", len(fresh) / 48000)


def test_cancel_by_id_leaves_other_utterances_playing(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "a", "text": "First."})
            await ws.send_json({"type": "speak", "id": "b", "text": "Second is dropped."})
            await ws.send_json({"type": "speak", "id": "c", "text": "Third."})
            await ws.send_json({"type": "cancel", "id": "b"})
            events = await until(ws, "done", "c")
            await ws.close()
            return events

    events = run(scenario())
    kinds = [(e.type, e.message.get("id")) for e in events if e.type != "audio"]
    assert ("canceled", "b") in kinds
    assert [k for k in kinds if k[0] == "done"] == [("done", "a"), ("done", "c")]
    assert ("start", "b") not in kinds


def test_plain_text_frame_is_spoken_with_session_defaults(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_str("Plain words work too.")
            events = await until(ws, "done")
            await ws.close()
            return events

    events = run(scenario())
    assert events[0].type == "start" and events[0].message["voice"] == "af_heart"
    assert plausible_duration("Plain words work too.", len(audio_of(events)) / 48000)


def test_json_in_a_binary_frame_is_a_control_message(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_bytes(json.dumps({"type": "speak", "id": "bin", "text": "From a binary frame."}).encode())
            events = await until(ws, "done", "bin")
            await ws.close()
            return events

    assert run(scenario())[0].message["id"] == "bin"


def test_fragmented_message_is_reassembled(server, idle_after):
    """SageMaker turns PARTIAL…COMPLETE payload parts into one fragmented WebSocket message."""
    payload = json.dumps({"type": "speak", "id": "frag", "text": "Pieces make a whole."})

    async def scenario():
        ws_url = server.ws_url.replace("http://", "ws://")
        async with websockets.connect(ws_url) as ws:
            assert json.loads(await ws.recv())["type"] == "ready"
            await ws.send([payload[:10], payload[10:25], payload[25:]])  # one message, three frames
            return json.loads(await ws.recv())

    assert run(scenario()) == {
        "type": "start",
        "id": "frag",
        "voice": "af_heart",
        "speed": 1.0,
        "format": "pcm16",
        "sample_rate": 24000,
        "normalize": True,
        "lexicon_entries": 0,
        "marks": False,
        "phonemes": False,
        "foreign_script": "read",
    }


def test_configure_sets_session_defaults(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "configure", "voice": "am_michael", "format": "mulaw"})
            configured = await receive(ws)
            audio = await speak_and_collect(ws, "Configured once.", "c1")
            override = await speak_and_collect(ws, "Overridden here.", "c2", format="pcm16", sample_rate=16000)
            await ws.close()
            return configured.message, audio, override

    configured, mulaw, pcm = run(scenario())
    assert configured == {
        "type": "configured",
        "voice": "am_michael",
        "speed": 1.0,
        "format": "mulaw",
        "sample_rate": 8000,
        "normalize": True,
        "lexicon_entries": 0,
        "marks": False,
        "phonemes": False,
        "foreign_script": "read",
    }
    assert plausible_duration("Configured once.", len(mulaw) / 8000)
    assert plausible_duration("Overridden here.", len(pcm) / 2 / 16000)


def test_close_finishes_queued_audio_then_closes_normally(server, idle_after):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "last", "text": "Goodbye."})
            await ws.send_json({"type": "close"})
            events = []
            while (event := await receive(ws)) is not None:
                events.append(event)
            return events, ws.close_code

    events, code = run(scenario())
    assert code == 1000
    assert events[-1].type == "done" and events[-1].message["id"] == "last"
    assert np.frombuffer(audio_of(events), dtype="<i2").size > 0


def test_two_sessions_are_served_fairly(server, idle_after):
    """A long text in one session does not hold back a short one in another."""
    long_text = " ".join(f"Sentence {i} of a long reply goes on for a while." for i in range(8))

    async def scenario():
        async with aiohttp.ClientSession() as session:
            long_ws = await connect(session, server.ws_url)
            short_ws = await connect(session, server.ws_url)
            await long_ws.send_json({"type": "speak", "id": "long", "text": long_text})
            await until(long_ws, "audio")
            await short_ws.send_json({"type": "speak", "id": "short", "text": "Quick one."})
            await until(short_ws, "done", "short")
            long_done_already = False
            try:
                events = await asyncio.wait_for(until(long_ws, "done", "long"), timeout=0.01)
                long_done_already = bool(events)
            except TimeoutError:
                pass
            await long_ws.send_json({"type": "cancel"})
            await long_ws.close()
            await short_ws.close()
            return long_done_already

    assert run(scenario()) is False


LONG_SENTENCE = "Your order qualifies for a full refund because it arrived more than five days late."


def test_a_long_sentence_after_a_short_one_starts_with_a_chunk_that_fits_and_can_be_resumed(server, idle_after):
    """After "Sure." the long sentence's first chunk is what the engine synthesizes while "Sure." plays.

    The plan depends on the texts alone: ``start`` says it, and sending it back lays the sentence's audio
    out exactly as before (a client resuming it after a reconnect skips what it already has).
    """

    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "short", "text": "Sure."})
            await ws.send_json({"type": "speak", "id": "long", "text": LONG_SENTENCE})
            events = await until(ws, "done", "long")
            await ws.close()
            resumed_ws = await connect(session, server.ws_url)
            start = next(e.message for e in events if e.type == "start" and e.message["id"] == "long")
            resumed = {
                "type": "speak",
                "id": "again",
                "text": LONG_SENTENCE,
                "first_chunk_chars": start["first_chunk_chars"],
            }
            await resumed_ws.send_json(resumed)
            again = await until(resumed_ws, "done", "again")
            alone = await speak_and_collect(resumed_ws, LONG_SENTENCE, "alone")
            await resumed_ws.close()
            return events, start, again, alone

    events, start, again, alone = run(scenario())
    long_frames = [e.audio for e in events[[e.type for e in events].index("start", 1) :] if e.type == "audio"]
    assert MIN_FIRST_CHUNK_CHARS <= start["first_chunk_chars"] < len(LONG_SENTENCE)
    assert len(long_frames) >= 2  # cut: a short first chunk, then the rest
    assert sum(map(len, long_frames)) == len(audio_of(again))  # resumed: the same audio, byte for byte in length
    assert [len(e.audio) for e in again if e.type == "audio"] == [len(frame) for frame in long_frames]
    assert len(audio_of(again)) != len(alone)  # alone, with nothing before it, it is planned differently


def test_normalization_can_be_turned_off_per_utterance_and_per_session(server, idle_after):
    text = "Your total is $1,284.50, due 12/03/2026."

    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            await ws.send_json({"type": "speak", "id": "n1", "text": text})
            said = await until(ws, "done", "n1")
            await ws.send_json({"type": "speak", "id": "n2", "text": text, "normalize": False})
            as_written = await until(ws, "done", "n2")
            await ws.send_json({"type": "configure", "normalize": False})
            configured = await receive(ws)
            await ws.send_json({"type": "speak", "id": "n3", "text": text})
            session_off = await until(ws, "done", "n3")
            await ws.close()
            return said, as_written, configured.message, session_off

    said, as_written, configured, session_off = run(scenario())
    assert said[0].message["normalize"] is True and as_written[0].message["normalize"] is False
    assert configured["normalize"] is False and session_off[0].message["normalize"] is False
    # The same text said two ways (the words themselves are checked in test_engine and test_normalize).
    assert audio_of(said) != audio_of(as_written)
    lengths = [len(audio_of(events)) for events in (said, as_written, session_off)]
    assert abs(lengths[2] - lengths[1]) < abs(lengths[2] - lengths[0])  # said as written, like n2
