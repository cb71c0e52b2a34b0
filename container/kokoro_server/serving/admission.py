"""An admitted utterance's place on the server, from its admission to its outcome.

Admission control bounds the utterances in progress (``scheduler.Scheduler.admit``): past the bound a new
one is refused at once (``busy``). Whoever runs an utterance owns its admission: a WebSocket session owns
its utterances' (queued or speaking), a POST handler its one. The owner settles it once, with how the
utterance ended, which frees its place and logs it; a second settle is a bug, and raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

Outcome = Literal["done", "canceled", "refused", "failed", "disconnected"]


class SettledTwice(RuntimeError):
    """An admission's owner settled it a second time."""


class Admission:
    """One utterance's place: ``release`` frees it, ``report`` logs the outcome; both once, at ``settle``.
    ``last_chunk_spoken`` tells the scheduler, earlier, that the utterance's model work is over."""

    def __init__(
        self,
        release: Callable[[], None],
        report: Callable[[Outcome], None],
        last_chunk_spoken: Callable[[], None] = lambda: None,
    ) -> None:
        self._release = release
        self._report = report
        self.last_chunk_spoken = last_chunk_spoken
        self.outcome: Outcome | None = None

    @property
    def settled(self) -> bool:
        return self.outcome is not None

    def settle(self, outcome: Outcome) -> None:
        if self.outcome is not None:
            raise SettledTwice(f"an utterance settled as {outcome!r} had already ended as {self.outcome!r}")
        self.outcome = outcome
        self._release()
        self._report(outcome)
