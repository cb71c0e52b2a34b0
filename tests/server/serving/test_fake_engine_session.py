"""Sessions, scheduling and routes on the deterministic fake engine: the fast tier.

The server is real (sockets, routes, session tasks, scheduler, encoders); only synthesis is fake, and
the test holds its gate, so every claim about order is made by the test's timing, not the machine's.
The same behaviours are checked on the real model in test_websocket.py and test_http.py.
"""

from __future__ import annotations

import threading

import aiohttp
import numpy as np

from kokoro_core.model_cache import SAMPLE_RATE
from kokoro_server.engine.fake_engine import SECONDS_PER_SAID_CHAR, FakeEngine, tone_hz
from tests.fake_server import fake_server
from tests.local_server import RunningServer
from tests.speech import audio_of, connect, receive, run, speak_and_collect, until
from tests.waiting import await_until

SENTENCES = ["First comes this one.", "Then this sentence.", "And the last one, $5."]


def dominant_hz(pcm: bytes) -> float:
    samples = np.frombuffer(pcm, dtype="<i2").astype(np.float32)
    spectrum = np.abs(np.fft.rfft(samples))
    return float(np.argmax(spectrum) * SAMPLE_RATE / len(samples))


def test_the_fake_engine_is_deterministic_and_says_what_the_voice_would_say() -> None:
    engine = FakeEngine()
    first = engine.synthesize("It costs $5.", "af_heart").audio
    assert np.array_equal(first, engine.synthesize("It costs $5.", "af_heart").audio)
    said = "It costs five dollars."  # normalized, as the real engine reads it
    assert len(first) == round(SECONDS_PER_SAID_CHAR * len(said) * SAMPLE_RATE)
    assert len(engine.synthesize("It costs $5.", "af_heart", speed=2.0).audio) == len(first) // 2
    pcm = (first * 32767).astype("<i2").tobytes()
    assert abs(dominant_hz(pcm) - tone_hz(said)) < 2


def test_utterances_are_spoken_in_the_order_sent_each_whole_and_never_interleaved() -> None:
    gate = threading.Event()

    async def scenario(server: RunningServer) -> list:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, server.ws_url)
            for index, text in enumerate(SENTENCES):
                await ws.send_json({"type": "speak", "id": f"u{index}", "text": text})
            await await_until(
                lambda: server.stats()["active_utterances"] == len(SENTENCES),
                "all three to be queued behind a held engine",
            )
            gate.set()
            return await until(ws, "done", "u2")

    with fake_server(gate) as (server, engine):
        events = run(scenario(server))
        assert engine.calls == SENTENCES
    order = [(event.type, event.message["id"] if event.message else None) for event in events]
    controls = [item for item in order if item[0] != "audio"]
    assert controls == [(kind, f"u{i}") for i in range(3) for kind in ("start", "done")]
    for index, text in enumerate(SENTENCES):
        start = order.index(("start", f"u{index}"))
        done = order.index(("done", f"u{index}"))
        audio = audio_of(events[start:done])
        said = FakeEngine().synthesize(text, "af_heart").audio
        assert audio == (np.clip(said, -1, 1) * 32767).round().astype("<i2").tobytes()


def test_cancel_while_synthesizing_interrupts_the_call_and_nothing_of_it_follows() -> None:
    gate = threading.Event()

    async def scenario(url: str, engine: FakeEngine) -> list:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "long", "text": "This one is held in the engine."})
            await await_until(lambda: engine.calls, "the call to reach a worker, held at the gate")
            await ws.send_json({"type": "cancel"})
            events = await until(ws, "canceled")
            await await_until(lambda: engine.interrupted_calls, "the held call to be stopped, not left to finish")
            gate.set()
            await ws.send_json({"type": "speak", "id": "next", "text": "Then another."})
            return events + await until(ws, "done", "next")

    with fake_server(gate) as (server, engine):
        events = run(scenario(server.ws_url, engine))
        assert engine.interrupted_calls == 1  # the worker was freed at once, not after the call
    kinds = [(event.type, (event.message or {}).get("id")) for event in events]
    canceled = kinds.index(("canceled", "long"))
    assert ("audio", None) not in kinds[:canceled] and events[canceled].message["sent_ms"] == 0
    assert kinds[canceled + 1 :][0] == ("start", "next")  # nothing of the canceled one after its canceled


def test_a_refused_message_leaves_the_session_and_its_queue_as_they_were() -> None:
    async def scenario(url: str) -> tuple[list, bytes]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "configure", "voice": "bf_emma"})
            configured = await receive(ws)
            await ws.send_json({"type": "configure", "voice": "xx_nobody", "speed": 1.5})
            refused = await receive(ws)
            await ws.send_json({"type": "speak", "id": "u1", "text": "Still British."})
            events = await until(ws, "done", "u1")
            return [configured.message, refused.message, events[0].message], audio_of(events)

    with fake_server() as (server, _):
        (configured, refused, start), audio = run(scenario(server.ws_url))
    assert configured["voice"] == "bf_emma"
    assert refused["code"] == "unknown_voice" and "af_heart, am_michael, bf_emma, bm_george" in refused["message"]
    assert (start["voice"], start["speed"]) == ("bf_emma", 1.0)  # the refused configure changed nothing
    assert len(audio) > 0


def test_at_capacity_a_speak_is_refused_as_busy_and_the_session_goes_on() -> None:
    gate = threading.Event()

    async def scenario(url: str) -> tuple[dict, bytes]:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, url)
            await ws.send_json({"type": "speak", "id": "a", "text": "The only one admitted."})
            await ws.send_json({"type": "speak", "id": "b", "text": "One too many."})
            busy = await until(ws, "error")
            gate.set()
            await until(ws, "done", "a")
            return busy[-1].message, await speak_and_collect(ws, "Room again.", "c")

    with fake_server(gate, max_active_utterances=1) as (server, _):
        busy, audio = run(scenario(server.ws_url))
    assert (busy["code"], busy["id"]) == ("busy", "b")
    assert len(audio) > 0


def test_post_streams_the_same_audio_as_the_session_and_refuses_bad_bodies_with_codes() -> None:
    async def scenario(server) -> tuple[bytes, bytes, list]:
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{server.url}/invocations", json={"text": SENTENCES[0]}) as response:
                assert response.headers["Content-Type"] == "audio/L16;rate=24000;channels=1"
                posted = await response.read()
            ws = await connect(http, server.ws_url)
            spoken = await speak_and_collect(ws, SENTENCES[0], "u1")
            refusals = []
            for body in ({"text": "Hi.", "pitch": 2}, {"text": "Hi.", "format": "mp3"}, {"text": ""}):
                async with http.post(f"{server.url}/invocations", json=body) as response:
                    refusals.append((response.status, (await response.json())["error"]))
            return posted, spoken, refusals

    with fake_server() as (server, _):
        posted, spoken, refusals = run(scenario(server))
    assert posted == spoken
    assert refusals == [(400, "invalid_request"), (400, "unknown_format"), (400, "invalid_text")]
