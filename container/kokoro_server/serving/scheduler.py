"""Fair scheduling of model jobs over the engine workers, and the threads that do the text work around them.

Every session (a WebSocket connection or one POST request) has a lane; a session waits for one chunk
at a time, so a lane holds a job or two. Workers take lanes in turn, so a long text advances one chunk
per round and never starves a short one. Admission control bounds the utterances in progress: past the
bound, new work is refused at once (``Busy``) rather than queued into a latency nobody wants.

A model job is typed (``ModelJob``: what to speak, for which lane, whether it is its utterance's first), so
the scheduler sees what the model will do. The text work around it (planning and preparing chunks, rendering
spoken audio for the wire) runs on text threads (``text_threads``), as many as engine workers, so the
model never waits for it; cutting text streams into sentences has a thread of its own.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from kokoro_server.engine.speech_engine import Interrupted, Speech, SpeechEngine, SpeechRequest

from .text_threads import TextThreads


class Busy(RuntimeError):
    """Every admission slot is taken."""


@dataclass(frozen=True)
class ModelJob:
    """One chunk for the model: what to speak, the lane (session) it belongs to, and whether it is its
    utterance's first (its listener is waiting for it)."""

    lane: str
    request: SpeechRequest
    first: bool = False


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
    """One admitted utterance's slot; ``release`` frees it (an ``admission.Admission`` calls it once)."""

    scheduler: Scheduler

    def release(self) -> None:
        self.scheduler._active -= 1


class Scheduler:
    def __init__(self, max_active: int) -> None:
        self.workers = 0  # set by start, once the engine's device (and so the worker count) is known
        self.max_active = max_active
        self._engine: SpeechEngine | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._text: TextThreads | None = None
        self._stream_executor: ThreadPoolExecutor | None = None
        self._lanes: OrderedDict[str, deque[_Queued]] = OrderedDict()
        self._wakeup = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._active = 0
        self._running = 0

    def start(self, engine: SpeechEngine, workers: int) -> None:
        self._engine = engine
        self.workers = workers
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="engine")
        self._text = TextThreads(workers)
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

    def admit(self) -> Ticket:
        if self._active >= self.max_active:
            raise Busy(f"the server is at capacity ({self._active} utterances in progress); retry shortly")
        self._active += 1
        return Ticket(self)

    async def speak(self, job: ModelJob) -> Spoken:
        """Run ``job`` on an engine worker when its lane's turn comes; cancelling withdraws it. Raises
        ``Interrupted`` when its utterance was interrupted."""
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

    def _next_job(self) -> _Queued | None:
        while self._lanes:
            lane, jobs = next(iter(self._lanes.items()))
            queued = jobs.popleft()
            if jobs:
                self._lanes.move_to_end(lane)  # round robin: this lane's next job waits for the others
            else:
                del self._lanes[lane]
            if not queued.future.done():
                return queued
        self._wakeup.clear()
        return None

    async def _worker(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._engine is not None
        engine = self._engine
        while True:
            queued = self._next_job()
            if queued is None:
                await self._wakeup.wait()
                continue
            batch = [queued]
            self._running += len(batch)
            started = time.perf_counter()
            try:
                results = await loop.run_in_executor(
                    self._executor, engine.speak_batch, [item.job.request for item in batch]
                )
            except Exception as error:  # the whole call failed: each job's owner decides what it means
                for item in batch:
                    if not item.future.done():
                        item.future.set_exception(error)
            else:
                share = (time.perf_counter() - started) / len(batch)
                for item, result in zip(batch, results, strict=True):
                    if item.future.done():
                        continue
                    if isinstance(result, Interrupted):
                        item.future.set_exception(result)
                    else:
                        item.future.set_result(Spoken(result, share))
            finally:
                self._running -= len(batch)

    def stats(self) -> dict[str, int]:
        return {
            "active_utterances": self._active,
            "queued_jobs": sum(len(jobs) for jobs in self._lanes.values()),
            "running_jobs": self._running,
            "lanes": len(self._lanes),
        }
