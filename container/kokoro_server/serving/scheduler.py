"""Fair scheduling of model jobs over the engine workers, in batches across sessions where the device gains
from them, and the threads that do the text work around them.

Every session (a WebSocket connection or one POST request) has a lane; a session waits for one chunk at a
time, so a lane holds a job or two. A free worker takes the ready jobs at the heads of up to ``max_batch``
lanes and speaks them in one model call (``SpeechEngine.speak_batch``): first chunks first (their listeners
are waiting), then each lane in its turn, so a long text advances one chunk per round and never starves a
short one. A lane's chunks stay in order: only its first waiting job can be taken, and it submits the next
once that one is spoken. A batch holds jobs of close lengths (``LENGTH_SPREAD``): padding a short item to a
long one costs the long one's time. A batch that is not full waits for company for at most ``batch_wait``,
counted from when its first job was queued, and only while another session has an utterance in progress: a
lone session never waits. Canceling a job drops it from its batch (``speech_engine.BatchCall``).

Admission control bounds the utterances in progress: past the bound, new work is refused at once
(``Busy``) rather than queued into a latency nobody wants.

A model job is typed (``ModelJob``), so the scheduler sees what the model will do. The text work around
it (planning and preparing chunks, rendering spoken audio for the wire) runs on text threads
(``text_threads``), as many as engine workers (more when a call speaks several chunks), so the model never
waits for it; cutting text streams into sentences has a thread of its own.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from kokoro_server.engine.speech_engine import Interrupted, Speech, SpeechEngine, SpeechRequest

from .text_threads import TextThreads

# A batch's items are within this ratio of each other's length (tokens over speed), or this many tokens apart.
LENGTH_SPREAD = 1.5
LENGTH_SLACK = 16


class Busy(RuntimeError):
    """Every admission slot is taken."""


@dataclass(frozen=True)
class ModelJob:
    """One chunk for the model: what to speak, the lane (session) it belongs to, and whether it is its
    utterance's first (its listener is waiting for it)."""

    lane: str
    request: SpeechRequest
    first: bool = False

    @property
    def length(self) -> float:
        """Its input's tokens over its speed: what its frames, and so a batch's padding, follow."""
        return self.request.chunk.length / self.request.speed


@dataclass(frozen=True)
class Spoken:
    """A model job's result: the speech, and its share of the inference call's seconds."""

    speech: Speech
    seconds: float


@dataclass
class _Queued:
    job: ModelJob
    future: asyncio.Future[Spoken]
    since: float = field(default_factory=time.perf_counter)


@dataclass
class Ticket:
    """One admitted utterance's slot, in its lane; ``release`` frees it (an ``admission.Admission`` calls it
    once). ``last_chunk_spoken`` says the utterance will bring the model no more chunks, though its audio may
    still be on its way: a batch stops waiting for its company then."""

    scheduler: Scheduler
    lane: str
    _may_bring: bool = True

    def last_chunk_spoken(self) -> None:
        if self._may_bring:
            self._may_bring = False
            self.scheduler._spoken_out(self.lane)

    def release(self) -> None:
        self.last_chunk_spoken()
        self.scheduler._release(self.lane)


def _decrement(counter: Counter[str], lane: str) -> None:
    counter[lane] -= 1
    if counter[lane] <= 0:
        del counter[lane]


def _fits(batch: list[_Queued], queued: _Queued) -> bool:
    """Whether ``queued`` is close enough in length to ``batch`` that padding stays small."""
    lengths = [item.job.length for item in batch] + [queued.job.length]
    shortest, longest = min(lengths), max(lengths)
    return longest <= max(LENGTH_SPREAD * shortest, shortest + LENGTH_SLACK)


def _speak_each(engine: SpeechEngine, requests: list[SpeechRequest]) -> list[Speech | Exception]:
    """Each request's speech or error, in one call; if a call of several fails, each alone, so that an item
    the engine cannot speak fails only itself."""
    try:
        results: list[Speech | Exception] = list(engine.speak_batch(requests))
        if len(results) == len(requests):
            return results
        failure: Exception = RuntimeError(f"the engine answered {len(results)} items for {len(requests)}")
    except Exception as error:
        failure = error
    if len(requests) == 1 or isinstance(failure, Interrupted):
        return [failure] * len(requests)
    return [result for request in requests for result in _speak_each(engine, [request])]


class Scheduler:
    def __init__(self, max_active: int) -> None:
        self.workers = 0  # set by start, once the engine's device (and so the worker count) is known
        self.max_active = max_active
        self.max_batch = 1
        self.batch_wait = 0.0  # seconds
        self._engine: SpeechEngine | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._text: TextThreads | None = None
        self._stream_executor: ThreadPoolExecutor | None = None
        self._lanes: OrderedDict[str, deque[_Queued]] = OrderedDict()
        self._wakeup = asyncio.Event()
        self._forming = asyncio.Lock()  # one worker forms a batch at a time, so company joins one batch
        self._tasks: list[asyncio.Task[None]] = []
        self._active: Counter[str] = Counter()  # admitted utterances by lane
        self._may_bring: Counter[str] = Counter()  # those of them that may still bring the model a chunk
        self._running = 0
        self.calls = 0  # model calls since start
        self.items = 0  # jobs those calls spoke

    def start(self, engine: SpeechEngine, workers: int, batch_wait_seconds: float = 0.0, text_threads: int = 0) -> None:
        """Start ``workers`` engine workers and ``text_threads`` text threads (0: as many as workers)."""
        self._engine = engine
        self.workers = workers
        self.max_batch = engine.max_batch
        self.batch_wait = batch_wait_seconds if self.max_batch > 1 else 0.0
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="engine")
        self._text = TextThreads(text_threads or workers)
        # Cutting streamed text into sentences takes microseconds per delta: it never waits behind planning.
        self._stream_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream")
        self._tasks = [asyncio.create_task(self._worker(), name=f"engine-worker-{i}") for i in range(workers)]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for executor in (self._executor, self._stream_executor):
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)
        if self._text is not None:
            self._text.shutdown()

    def admit(self, lane: str) -> Ticket:
        active = self._active.total()
        if active >= self.max_active:
            raise Busy(f"the server is at capacity ({active} utterances in progress); retry shortly")
        self._active[lane] += 1
        self._may_bring[lane] += 1
        return Ticket(self, lane)

    def _spoken_out(self, lane: str) -> None:
        _decrement(self._may_bring, lane)
        self._wakeup.set()  # a batch waiting for company may have none left to wait for

    def _release(self, lane: str) -> None:
        _decrement(self._active, lane)

    async def speak(self, job: ModelJob) -> Spoken:
        """Speak ``job`` in a model call when its lane's turn comes; cancelling withdraws it (from its call,
        if it is in one). Raises ``Interrupted`` when its utterance was interrupted."""
        queued = _Queued(job, asyncio.get_running_loop().create_future())
        self._lanes.setdefault(job.lane, deque()).append(queued)
        self._wakeup.set()
        try:
            return await queued.future
        except asyncio.CancelledError:
            self._withdraw(queued)
            raise

    def prepare(self, call: Callable[[], Any], urgent: bool = False) -> Future[Any]:
        """Run ``call`` (text work) on a text thread, ``urgent`` work (audio waits for it) first; from any
        thread. Cancelling the future withdraws it if it has not started."""
        assert self._text is not None, "the scheduler has not started"
        return self._text.submit(call, urgent)

    def segment(self, call: Callable[[], Any]) -> Future[Any]:
        """Run ``call`` (cutting a text stream into sentences) on the stream thread, in the order given."""
        assert self._stream_executor is not None, "the scheduler has not started"
        return self._stream_executor.submit(call)

    def _withdraw(self, queued: _Queued) -> None:
        jobs = self._lanes.get(queued.job.lane)
        if jobs is not None and queued in jobs:
            jobs.remove(queued)
            if not jobs:
                del self._lanes[queued.job.lane]

    def _select(self, chosen: list[_Queued]) -> list[_Queued]:
        """``chosen`` (those still waiting) and the lanes' first jobs that join it: first chunks first, then each
        lane in its turn; one job a lane; close in length; up to ``max_batch``."""
        batch = [queued for queued in chosen if queued in self._lanes.get(queued.job.lane, ())]
        lanes = {queued.job.lane for queued in batch}
        heads = [jobs[0] for lane, jobs in self._lanes.items() if lane not in lanes]
        for queued in sorted(heads, key=lambda queued: not queued.job.first):  # stable: lane order within each
            if len(batch) >= self.max_batch:
                break
            if not batch or _fits(batch, queued):
                batch.append(queued)
        return batch

    def _take(self, batch: list[_Queued]) -> None:
        """Take ``batch`` out of its lanes; a lane with more jobs waits for the others' turn."""
        for queued in batch:
            jobs = self._lanes[queued.job.lane]
            jobs.remove(queued)
            if jobs:
                self._lanes.move_to_end(queued.job.lane)
            else:
                del self._lanes[queued.job.lane]

    def _company_possible(self, batch: list[_Queued]) -> bool:
        """Whether a lane outside ``batch`` has an utterance in progress that may still bring a job."""
        lanes = {queued.job.lane for queued in batch}
        return any(lane not in lanes for lane in self._may_bring)

    async def _gather(self) -> list[_Queued]:
        """The next batch, waiting for jobs when there are none and, within ``batch_wait``, for company."""
        batch: list[_Queued] = []
        while True:
            batch = self._select(batch)
            if not batch:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            left = batch[0].since + self.batch_wait - time.perf_counter()
            if len(batch) >= self.max_batch or left <= 0 or not self._company_possible(batch):
                self._take(batch)
                return batch
            self._wakeup.clear()
            try:
                async with asyncio.timeout(left):
                    await self._wakeup.wait()
            except TimeoutError:
                pass

    async def _worker(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._engine is not None
        engine = self._engine
        while True:
            async with self._forming:
                batch = await self._gather()
            self._running += len(batch)
            self.calls += 1
            self.items += len(batch)
            started = time.perf_counter()
            try:
                results = await loop.run_in_executor(
                    self._executor, _speak_each, engine, [queued.job.request for queued in batch]
                )
            finally:
                self._running -= len(batch)
            share = (time.perf_counter() - started) / len(batch)
            for queued, result in zip(batch, results, strict=True):
                if queued.future.done():
                    continue  # withdrawn while it was spoken
                if isinstance(result, Exception):  # its owner decides what it means (Interrupted: canceled)
                    queued.future.set_exception(result)
                else:
                    queued.future.set_result(Spoken(result, share))

    def stats(self) -> dict[str, int]:
        return {
            "active_utterances": self._active.total(),
            "queued_jobs": sum(len(jobs) for jobs in self._lanes.values()),
            "running_jobs": self._running,
            "lanes": len(self._lanes),
        }
