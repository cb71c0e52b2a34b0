"""Agent sessions held at a fixed number for a while: the load one ladder level puts on a target.

Every session is a real client session (``Speaker`` over the target's bidi transport, or over one
streamed POST per sentence) running its turns from the traffic model; when one ends, the next starts in
its slot, so the count stays at the level. Each turn is timed from its first token as a listener hears
it (``Timeline``), and the user speaks only once the reply has played out. The client's own in-flight
count (sessions open for bidi, turns speaking for POST) is integrated over time: the figure the
endpoint's concurrency metric is compared with.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from kokoro_stream.sagemaker_post_transport import SageMakerPostTransport
from kokoro_stream.say import simulated_llm
from kokoro_stream.speaker import Speaker
from kokoro_stream.transport import SpeechError, Transport

from .timeline import Timeline
from .traffic import TrafficModel, first_sentence

TURN_TIMEOUT_SECONDS = 60.0  # a turn still silent after this is an error, not a slow answer


@dataclass
class SpeechTarget:
    """Where sessions go: a bidi transport factory, a boto3-like runtime client and endpoint name for POSTs."""

    bidi: Callable[[], Transport]
    runtime: Any
    endpoint_name: str
    voice: str = "af_heart"

    def transport(self, route: str) -> Transport:
        return self.bidi() if route == "bidi" else SageMakerPostTransport(self.endpoint_name, self.runtime)


@dataclass(frozen=True)
class Turn:
    started: float  # wall clock (time.time()) of the reply's first token
    reply: str
    chars: int
    ttfa_s: float | None  # from the first token; None: no audio (an error)
    sentence_s: float  # when the first sentence was complete, from the first token: the server's share starts
    stalls: int
    stall_s: float
    audio_s: float
    error: str | None = None
    heard_until: float = 0.0  # wall clock when the listener has heard the whole reply: the user speaks after


@dataclass
class InFlight:
    """A count that goes up and down, integrated over wall-clock time."""

    now: Callable[[], float] = time.time
    count: int = 0
    changes: list[tuple[float, int]] = field(default_factory=list)

    def add(self, delta: int) -> None:
        self.count += delta
        self.changes.append((self.now(), self.count))

    def mean(self, start: float, end: float) -> float:
        """Time-weighted mean count over [start, end]."""
        if end <= start:
            return 0.0
        level, area, clock = 0, 0.0, start
        for at, count in self.changes:
            if at <= start:
                level = count
                continue
            if at >= end:
                break
            area += level * (at - clock)
            level, clock = count, at
        return (area + level * (end - clock)) / (end - start)


@dataclass
class Load:
    """Everything one ladder level produced, shared by its sessions."""

    target: SpeechTarget
    traffic: TrafficModel
    numbers: Iterator[int]  # session numbers: each draws its own turns
    turns: list[Turn] = field(default_factory=list)
    in_flight: InFlight = field(default_factory=InFlight)
    sessions_started: int = 0


async def agent_session(load: Load, until: float) -> None:
    """One agent session: its turns until the plan or the hold ends; an error ends the session."""
    number = next(load.numbers)
    plan = load.traffic.session_plan(number)
    route = load.traffic.route
    load.sessions_started += 1
    speaker = Speaker(load.target.transport(route), voice=load.target.voice, marks=False, timeout=TURN_TIMEOUT_SECONDS)
    try:
        await speaker.open()
    except (SpeechError, OSError) as error:
        failure = f"{type(error).__name__}: {error}"
        load.turns.append(Turn(time.time(), "(open)", 0, None, 0.0, 0, 0.0, 0.0, failure))
        await asyncio.sleep(min(1.0, max(0.0, until - time.time())))  # no hot loop on a refusing target
        return
    session_counted = route == "bidi"
    if session_counted:
        load.in_flight.add(1)
    try:
        for silence, reply in plan:
            if time.time() + silence >= until:
                await asyncio.sleep(max(0.0, until - time.time()))
                return
            await asyncio.sleep(silence)
            turn = await _timed_turn(load, speaker, reply, counted=not session_counted)
            load.turns.append(turn)
            if turn.error is not None:
                return
            await asyncio.sleep(max(0.0, min(turn.heard_until, until) - time.time()))
    finally:
        if session_counted:
            load.in_flight.add(-1)
        if speaker.failed:
            await speaker.abort()
        else:
            await speaker.close()


async def _timed_turn(load: Load, speaker: Speaker, reply: str, counted: bool) -> Turn:
    text = load.traffic.replies[reply]
    timeline, wall, begun = Timeline(), time.time(), time.perf_counter()
    if counted:
        load.in_flight.add(1)
    try:
        async for chunk in speaker.speak(simulated_llm(text, load.traffic.tokens_per_second, begun)):
            timeline.add(time.perf_counter() - begun, len(chunk.audio))
        error = None
    except (SpeechError, OSError) as failure:
        error = f"{type(failure).__name__}: {failure}"
    finally:
        if counted:
            load.in_flight.add(-1)
    stalls, stalled = timeline.stalls()
    ttfa = timeline.first_audio_s if timeline.arrivals else None
    _, sentence_at = first_sentence(text, load.traffic.tokens_per_second)
    heard = wall + timeline.playback_end_s() if timeline.arrivals else time.time()
    return Turn(wall, reply, len(text), ttfa, sentence_at, stalls, stalled, timeline.audio_s, error, heard)


async def hold(load: Load, sessions: int, seconds: float) -> tuple[float, float]:
    """Keep ``sessions`` agent sessions going for ``seconds``; returns the hold's wall-clock start and end.
    Turns begun before the end run to their last audio."""
    start = time.time()
    until = start + seconds

    async def slot() -> None:
        while time.time() < until:
            await agent_session(load, until)

    await asyncio.gather(*(slot() for _ in range(sessions)))
    return start, until


@contextlib.asynccontextmanager
async def ticking(seconds: float, description: str) -> AsyncIterator[None]:
    """A progress bar of the seconds a timed run has been going."""
    bar = tqdm(total=round(seconds), desc=description, unit="s")

    async def tick() -> None:
        while bar.n < bar.total:
            await asyncio.sleep(1)
            bar.update(1)

    ticker = asyncio.create_task(tick())
    try:
        yield
    finally:
        ticker.cancel()
        bar.close()


def new_load(target: SpeechTarget, traffic: TrafficModel, first_session: int = 0) -> Load:
    return Load(target, traffic, itertools.count(first_session))
