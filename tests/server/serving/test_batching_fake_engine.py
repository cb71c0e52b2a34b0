"""Batching across sessions, on the fake engine: which chunks share a model call, in what order, and what a
cancel or a lone session does. Every wait is for a state of the server (a call held at a gate, jobs queued),
never a duration, except the two claims about how long a batch waits, whose margins are seconds."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import aiohttp
import numpy as np
import pytest

from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.engine.speech_engine import Interrupted, Interruption, Speech, SpeechRequest
from kokoro_server.serving.scheduler import ModelJob, Scheduler, Spoken
from kokoro_server.settings import ServerSettings
from tests.local_server import RunningServer, wait_until_idle
from tests.speech import audio_of, connect, run, until
from tests.waiting import await_until

SENTENCES = ["The first caller's answer.", "The second caller's answer.", "A third caller's answer."]


class GatedCalls(FakeEngine):
    """The fake engine, each model call held inside the call at a gate of its own until the test opens it."""

    def __init__(self, max_batch: int) -> None:
        super().__init__(max_batch=max_batch)
        self._gates: defaultdict[int, threading.Event] = defaultdict(threading.Event)

    def release(self, *calls: int) -> None:
        for call in calls:
            self._gates[call].set()

    def speak_batch(self, requests: list[SpeechRequest]) -> list[Speech | Interrupted]:
        self.gate = self._gates[len(self.batches)]  # one worker: calls come one after another
        return super().speak_batch(requests)


@contextmanager
def batching_server(engine: FakeEngine, **settings: object) -> Iterator[RunningServer]:
    server = RunningServer(ServerSettings(host="127.0.0.1", port=0, workers=1, **settings), engine=engine)
    server.start(timeout=30)
    try:
        yield server
    finally:
        if isinstance(engine, GatedCalls):
            engine.release(*range(1000))
        elif engine.gate is not None:
            engine.gate.set()
        server.stop()


def alone(text: str) -> bytes:
    said = FakeEngine().synthesize(text, "af_heart").audio
    return (np.clip(said, -1, 1) * 32767).round().astype("<i2").tobytes()


def test_sessions_waiting_together_share_one_call_and_each_hears_its_own_audio() -> None:
    engine = GatedCalls(max_batch=4)

    async def scenario(server: RunningServer) -> list[bytes]:
        async with aiohttp.ClientSession() as http:
            sockets = [await connect(http, server.ws_url) for _ in SENTENCES]
            await sockets[0].send_json({"type": "speak", "id": "u", "text": SENTENCES[0]})
            await await_until(lambda: engine.calls, "the first caller's chunk to be held in a call")
            for ws, text in zip(sockets[1:], SENTENCES[1:], strict=True):
                await ws.send_json({"type": "speak", "id": "u", "text": text})
            await await_until(lambda: server.stats()["queued_jobs"] == 2, "the others' chunks to queue")
            engine.release(0, 1)
            heard = [audio_of(await until(ws, "done", "u")) for ws in sockets]
            for ws in sockets:
                await ws.close()
            return heard

    with batching_server(engine) as server:
        heard = run(scenario(server))
        assert wait_until_idle(server)["active_utterances"] == 0
    assert engine.batches == [SENTENCES[:1], SENTENCES[1:]]
    assert heard == [alone(text) for text in SENTENCES]  # company changes nothing a session hears


def test_a_batch_holds_one_chunk_a_session_and_each_session_hears_its_chunks_in_order() -> None:
    engine = FakeEngine(max_batch=4)
    replies = {
        caller: " ".join(f"{caller} says sentence {word}, long enough to be a chunk of its own." for word in "abcdef")
        for caller in ("Ann", "Bob", "Cyd")
    }

    async def scenario(server: RunningServer) -> list[bytes]:
        async with aiohttp.ClientSession() as http:
            sockets = [await connect(http, server.ws_url) for _ in replies]
            for ws, reply in zip(sockets, replies.values(), strict=True):
                await ws.send_json({"type": "speak", "id": "u", "text": reply})
            heard = [audio_of(await until(ws, "done", "u")) for ws in sockets]
            for ws in sockets:
                await ws.close()
            return heard

    with batching_server(engine, max_chunk_chars=80, batch_wait_ms=20) as server:
        heard = run(scenario(server))
    for caller, reply in replies.items():
        spoken = [text for text in engine.calls if text.startswith(caller)]
        assert len(spoken) >= 6 and " ".join(spoken) == reply  # several chunks, in order
    assert heard == [b"".join(alone(text) for text in engine.calls if text.startswith(caller)) for caller in replies]
    for batch in engine.batches:
        assert len(batch) <= 4 and len({text.split()[0] for text in batch}) == len(batch)  # one chunk a session
    assert any(len(batch) > 1 for batch in engine.batches)


def test_first_chunks_go_before_other_sessions_next_chunks() -> None:
    engine = GatedCalls(max_batch=1)
    long = " ".join(f"Sentence {word} of a long reply, long enough to be a chunk of its own." for word in "abcd")

    async def scenario(server: RunningServer) -> None:
        async with aiohttp.ClientSession() as http:
            a, c, b = [await connect(http, server.ws_url) for _ in range(3)]
            await a.send_json({"type": "speak", "id": "a", "text": long})
            await await_until(lambda: len(engine.calls) == 1, "a's first chunk to be in a call")
            await c.send_json({"type": "speak", "id": "c", "text": long})
            await await_until(lambda: server.stats()["queued_jobs"] == 1, "c's first chunk to queue")
            engine.release(0)  # a's first chunk is spoken; a's second queues, c's first is taken
            await await_until(lambda: len(engine.calls) == 2 and server.stats()["queued_jobs"] == 1, "c in a call")
            await b.send_json({"type": "speak", "id": "b", "text": "A short new answer."})
            await await_until(lambda: server.stats()["queued_jobs"] == 2, "b's first chunk to queue beside a's next")
            engine.release(1)  # c's first is spoken: b's first goes before a's second, queued earlier
            await await_until(lambda: len(engine.calls) == 3, "the next call")
            engine.release(*range(2, 100))
            for ws, name in ((a, "a"), (b, "b"), (c, "c")):
                await until(ws, "done", name)
                await ws.close()

    with batching_server(engine, max_chunk_chars=80) as server:
        run(scenario(server))
    assert engine.calls[2] == "A short new answer."


def test_a_canceled_chunk_leaves_its_call_and_the_others_in_it_are_spoken() -> None:
    engine = GatedCalls(max_batch=4)

    async def scenario(server: RunningServer) -> tuple[list, list[bytes]]:
        async with aiohttp.ClientSession() as http:
            sockets = [await connect(http, server.ws_url) for _ in range(4)]
            await sockets[0].send_json({"type": "speak", "id": "u", "text": "Held first, alone."})
            await await_until(lambda: engine.calls, "the first call to be held")
            for ws, text in zip(sockets[1:], SENTENCES, strict=True):
                await ws.send_json({"type": "speak", "id": "u", "text": text})
            await await_until(lambda: server.stats()["queued_jobs"] == 3, "three chunks to queue")
            engine.release(0)
            await await_until(lambda: len(engine.batches) == 2, "the three to be held in one call")
            await sockets[2].send_json({"type": "cancel"})
            canceled = await until(sockets[2], "canceled")  # at once: the call is still held
            engine.release(1)
            heard = [audio_of(await until(ws, "done", "u")) for ws in (sockets[1], sockets[3])]
            for ws in sockets:
                await ws.close()
            return canceled, heard

    with batching_server(engine) as server:
        canceled, heard = run(scenario(server))
        assert wait_until_idle(server)["active_utterances"] == 0
    assert engine.batches[1] == SENTENCES
    assert canceled[-1].message["sent_ms"] == 0 and engine.interrupted_calls == 1
    assert heard == [alone(SENTENCES[0]), alone(SENTENCES[2])]


BOUND_S = 1.5  # far longer than the fake engine's calls, so the waits below can only be the scheduler's


async def _job_seconds(scheduler: Scheduler, engine: FakeEngine, lane: str) -> float:
    chunk = engine.prepare("Just one chunk.", "af_heart")
    started = time.perf_counter()
    await scheduler.speak(ModelJob(lane, SpeechRequest(chunk, 1.0, Interruption()), first=True))
    return time.perf_counter() - started


@pytest.mark.parametrize("company", ["none", "speaking", "spoken"])
def test_a_batch_waits_for_company_only_while_another_session_speaks_and_never_past_the_bound(company: str) -> None:
    engine = FakeEngine(max_batch=4)

    async def scenario() -> float:
        scheduler = Scheduler(max_active=8)
        scheduler.start(engine, workers=1, batch_wait_seconds=BOUND_S)
        try:
            scheduler.admit("lone")
            if company != "none":
                other = scheduler.admit("other")  # another session has an utterance in progress, no chunk ready
                if company == "spoken":
                    other.last_chunk_spoken()  # its audio is still on its way, but it brings no more chunks
            return await _job_seconds(scheduler, engine, "lone")
        finally:
            await scheduler.stop()

    seconds = asyncio.run(scenario())
    if company == "speaking":
        assert BOUND_S * 0.9 <= seconds < BOUND_S * 3  # it waited, and stopped waiting at the bound
    else:
        assert seconds < BOUND_S / 2  # a lone session never waits, nor one whose company has nothing to say


def test_an_item_the_engine_refuses_fails_alone_and_the_others_in_its_call_are_spoken() -> None:
    engine = FakeEngine(max_batch=3)
    texts = ["One for the first caller.", "One the engine refuses.", "One for the third caller."]

    async def scenario(scheduler: Scheduler) -> list[Spoken | BaseException]:
        scheduler.start(engine, workers=1, batch_wait_seconds=BOUND_S * 10)  # full at three: it never waits
        try:
            jobs = []
            for lane, text in enumerate(texts):
                scheduler.admit(str(lane))
                chunk = engine.prepare(text, "af_heart")
                if "refuses" in text:
                    chunk = replace(chunk, voice="xx_nobody")  # a voice the engine does not have
                jobs.append(ModelJob(str(lane), SpeechRequest(chunk, 1.0, Interruption()), first=True))
            return await asyncio.gather(*(scheduler.speak(job) for job in jobs), return_exceptions=True)
        finally:
            await scheduler.stop()

    scheduler = Scheduler(max_active=8)
    first, refused, third = asyncio.run(scenario(scheduler))
    assert (scheduler.calls, scheduler.items) == (1, 3)  # one call for the three, which the engine refused whole
    assert engine.batches == [[text] for text in texts[::2]]  # then each alone: the two it speaks
    assert isinstance(refused, ValueError) and "xx_nobody" in str(refused), refused
    assert isinstance(first, Spoken) and isinstance(third, Spoken)
    assert first.speech.audio.tobytes() == FakeEngine().synthesize(texts[0], "af_heart").audio.tobytes()


@pytest.mark.parametrize(("speeds", "calls"), [((1.0, 1.0), 1), ((0.5, 2.0), 2)])
def test_a_batch_groups_chunks_by_how_long_they_sound_so_speed_counts(speeds: tuple[float, float], calls: int) -> None:
    engine = FakeEngine(max_batch=2)
    text = "The same words at two speeds."

    async def scenario() -> None:
        scheduler = Scheduler(max_active=8)
        jobs = [
            asyncio.create_task(
                scheduler.speak(ModelJob(lane, SpeechRequest(engine.prepare(text, "af_heart"), speed, Interruption())))
            )
            for lane, speed in zip("ab", speeds, strict=True)
        ]
        await asyncio.sleep(0)  # both queued before a worker looks
        scheduler.start(engine, workers=1)
        try:
            await asyncio.gather(*jobs)
        finally:
            await scheduler.stop()

    asyncio.run(scenario())
    assert len(engine.batches) == calls  # the same tokens at 4x the speed are a quarter of the frames
