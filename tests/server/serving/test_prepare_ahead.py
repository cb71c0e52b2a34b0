"""Text work overlaps synthesis: while a worker speaks chunk N, chunk N+1 is planned and prepared on a text
thread, never more than one chunk ahead, and a cancel stops both.

On the fake engine, whose gate holds a chunk inside synthesis for as long as the test likes, so each claim
is about order, never about how fast this machine is. ``test_engine.py`` checks on the real model that
speaking a prepared chunk does no text work at all.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import aiohttp

from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.engine.speech_engine import Interrupted, PreparedChunk, Speech, SpeechRequest
from kokoro_server.settings import ServerSettings
from kokoro_server.text.reading import VoiceReading
from tests.local_server import RunningServer, wait_until_idle
from tests.speech import connect, run, until
from tests.waiting import await_until

# Six sentences of about 100 characters: a short first chunk, then chunks of up to 320 said characters.
TEXT = " ".join(
    f"Sentence {word} of this reply is long enough that a few of them fill one chunk of the plan."
    for word in ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
)


class RecordingEngine(FakeEngine):
    """The fake engine, noting for each chunk prepared how many chunks had been spoken by then."""

    def __init__(self, gate: threading.Event) -> None:
        super().__init__(gate=gate)
        self.spoken = 0
        self.prepared: list[tuple[str, int]] = []  # (chunk, chunks spoken when its text work began)

    def prepare(self, text: str, voice: str, reading: VoiceReading | None = None) -> PreparedChunk:
        self.prepared.append((text, self.spoken))
        return super().prepare(text, voice, reading)

    def speak_batch(self, requests: list[SpeechRequest]) -> list[Speech | Interrupted]:
        spoken = super().speak_batch(requests)
        self.spoken += len(spoken)
        return spoken


@contextmanager
def recording_server() -> Iterator[tuple[RunningServer, RecordingEngine, threading.Event]]:
    gate = threading.Event()
    engine = RecordingEngine(gate)
    server = RunningServer(ServerSettings(host="127.0.0.1", port=0, workers=1), engine=engine).start(timeout=30)
    try:
        yield server, engine, gate
    finally:
        gate.set()
        server.stop()


def test_the_next_chunk_is_prepared_while_this_one_is_spoken_and_never_further_ahead() -> None:
    with recording_server() as (server, engine, gate):

        async def scenario() -> None:
            async with aiohttp.ClientSession() as http:
                ws = await connect(http, server.ws_url)
                await ws.send_json({"type": "speak", "id": "long", "text": TEXT})
                # The first chunk is held inside synthesis; the second is prepared meanwhile.
                await await_until(lambda: engine.calls, "the first chunk to reach the engine")
                await await_until(lambda: len(engine.prepared) == 2, "the second chunk to be prepared")
                assert engine.spoken == 0 and len(engine.calls) == 1
                gate.set()
                await until(ws, "done", "long")
                await ws.close()

        run(scenario())
        assert wait_until_idle(server)["active_utterances"] == 0
    chunks = [text for text, _ in engine.prepared]
    assert len(chunks) >= 4 and " ".join(chunks) == TEXT and engine.calls == chunks
    # Chunk k (from 0) began its text work only once chunk k - 2 was spoken: one chunk ahead at most.
    assert all(spoken >= k - 1 for k, (_, spoken) in enumerate(engine.prepared)), engine.prepared
    assert [spoken for _, spoken in engine.prepared[:2]] == [0, 0]


def test_a_cancel_stops_synthesis_and_the_text_work_ahead_of_it() -> None:
    """Canceled while its first chunk is held in synthesis and its second is prepared: once the gate opens,
    nothing more of it is read or spoken, and the session speaks the next utterance."""
    with recording_server() as (server, engine, gate):

        async def scenario() -> tuple[list, list]:
            async with aiohttp.ClientSession() as http:
                ws = await connect(http, server.ws_url)
                await ws.send_json({"type": "speak", "id": "long", "text": TEXT})
                await await_until(lambda: len(engine.prepared) == 2, "the second chunk to be prepared")
                await ws.send_json({"type": "cancel"})
                canceled = await until(ws, "canceled")
                await await_until(lambda: engine.interrupted_calls, "the held chunk to be stopped")
                gate.set()  # were anything of the canceled utterance left running, it could go on now
                await ws.send_json({"type": "speak", "id": "next", "text": "The next one."})
                spoken = await until(ws, "done", "next")
                await ws.close()
                return canceled, spoken

        canceled, spoken = run(scenario())
        assert wait_until_idle(server)["active_utterances"] == 0
    assert canceled[-1].message["sent_ms"] == 0 and spoken[0].message["id"] == "next"
    texts = [text for text, _ in engine.prepared]
    assert texts[2:] == ["The next one."] and engine.calls[1:] == ["The next one."]
