"""Fair scheduling of synthesis jobs over a pool of engine worker threads, and the text threads that
prepare the chunks they speak.

Every session (a WebSocket connection or one POST request) has a lane; a session waits for
one chunk at a time, so a lane holds at most a job or two. Workers take lanes in turn, so a
long text advances one chunk per round and never starves a short one. Admission control
bounds the utterances in progress: past the bound, new work is refused at once (``Busy``)
rather than queued into a latency nobody wants.

Text work (planning a chunk, its phonemes, where its words fall) for the chunks after an utterance's
first runs on text threads of their own, as many as engine workers, so the model never waits for it:
an utterance prepares its next chunk there while a worker speaks this one, one chunk ahead at most. The
first chunk's text work has nothing to overlap, so it runs in the engine job that speaks it, in its
lane's turn.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any


class Busy(RuntimeError):
    """Every admission slot is taken."""


@dataclass
class _Job:
    call: Callable[[], Any]
    future: asyncio.Future[Any]


@dataclass
class Ticket:
    """One admitted utterance; ``release`` is idempotent so every exit path may call it."""

    scheduler: Scheduler
    released: bool = field(default=False)

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.scheduler._active -= 1


class Scheduler:
    def __init__(self, max_active: int) -> None:
        self.workers = 0  # set by start, once the engine's device (and so the worker count) is known
        self.max_active = max_active
        self._executor: ThreadPoolExecutor | None = None
        self._text_executor: ThreadPoolExecutor | None = None
        self._stream_executor: ThreadPoolExecutor | None = None
        self._lanes: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._wakeup = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._active = 0
        self._running = 0

    def start(self, workers: int) -> None:
        self.workers = workers
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="engine")
        self._text_executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="text")
        # Cutting streamed text into sentences takes microseconds per delta: it never waits behind planning.
        self._stream_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream")
        self._tasks = [asyncio.create_task(self._worker(), name=f"engine-worker-{i}") for i in range(workers)]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for executor in (self._executor, self._text_executor, self._stream_executor):
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)

    def admit(self) -> Ticket:
        if self._active >= self.max_active:
            raise Busy(f"the server is at capacity ({self._active} utterances in progress); retry shortly")
        self._active += 1
        return Ticket(self)

    async def run(self, lane: str, call: Callable[[], Any]) -> Any:
        """Run ``call`` on a worker thread when ``lane``'s turn comes; cancelling withdraws it."""
        job = _Job(call, asyncio.get_running_loop().create_future())
        self._lanes.setdefault(lane, deque()).append(job)
        self._wakeup.set()
        try:
            return await job.future
        except asyncio.CancelledError:
            self._withdraw(lane, job)
            raise

    def prepare(self, call: Callable[[], Any]) -> Future[Any]:
        """Run ``call`` (text work) on a text thread; from any thread. Cancelling the future withdraws it if
        it has not started."""
        assert self._text_executor is not None, "the scheduler has not started"
        return self._text_executor.submit(call)

    def segment(self, call: Callable[[], Any]) -> Future[Any]:
        """Run ``call`` (cutting a text stream into sentences) on the stream thread, in the order given."""
        assert self._stream_executor is not None, "the scheduler has not started"
        return self._stream_executor.submit(call)

    def _withdraw(self, lane: str, job: _Job) -> None:
        jobs = self._lanes.get(lane)
        if jobs is not None and job in jobs:
            jobs.remove(job)
            if not jobs:
                del self._lanes[lane]

    def _next_job(self) -> _Job | None:
        while self._lanes:
            lane, jobs = next(iter(self._lanes.items()))
            job = jobs.popleft()
            if jobs:
                self._lanes.move_to_end(lane)  # round robin: this lane's next job waits for the others
            else:
                del self._lanes[lane]
            if not job.future.done():
                return job
        self._wakeup.clear()
        return None

    async def _worker(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            job = self._next_job()
            if job is None:
                await self._wakeup.wait()
                continue
            self._running += 1
            try:
                result = await loop.run_in_executor(self._executor, job.call)
            except Exception as error:  # the job's owner decides what the error means
                if not job.future.done():
                    job.future.set_exception(error)
            else:
                if not job.future.done():
                    job.future.set_result(result)
            finally:
                self._running -= 1

    def stats(self) -> dict[str, int]:
        return {
            "active_utterances": self._active,
            "queued_jobs": sum(len(jobs) for jobs in self._lanes.values()),
            "running_jobs": self._running,
            "lanes": len(self._lanes),
        }
