"""The text threads: where an utterance's text work runs (planning and preparing chunks, parsing SSML) and its
audio is rendered for the wire, never on the event loop nor on an engine worker.

Work that audio is waiting for goes first: a first chunk's preparation, a spoken chunk's rendering. Work that
only looks ahead (the next chunk's preparation, while this one is spoken) waits behind it, so a busy server's
look-ahead never delays a listener's first audio.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

URGENT, AHEAD = 0, 1


class TextThreads:
    def __init__(self, threads: int, name: str = "text") -> None:
        self._queue: queue.PriorityQueue[tuple[int, int, Future[Any] | None, Callable[[], Any] | None]] = (
            queue.PriorityQueue()
        )
        self._order = itertools.count()
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{n}", daemon=True) for n in range(threads)]
        for thread in self._threads:
            thread.start()

    def submit(self, call: Callable[[], Any], urgent: bool = False) -> Future[Any]:
        """Run ``call`` on a text thread, urgent work first, each kind in the order given; from any thread.
        Cancelling the future withdraws the call if it has not started."""
        future: Future[Any] = Future()
        self._queue.put((URGENT if urgent else AHEAD, next(self._order), future, call))
        return future

    def shutdown(self) -> None:
        """Cancel what has not started, let what runs finish, and end the threads."""
        while True:
            try:
                _, _, future, _ = self._queue.get_nowait()
            except queue.Empty:
                break
            if future is not None:
                future.cancel()
        for _ in self._threads:
            self._queue.put((AHEAD + 1, next(self._order), None, None))
        for thread in self._threads:
            thread.join()

    def _work(self) -> None:
        while True:
            _, _, future, call = self._queue.get()
            if future is None or call is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = call()
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)
