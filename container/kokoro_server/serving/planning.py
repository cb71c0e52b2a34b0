"""An utterance's chunks, planned one at a time on a text thread (never on the event loop), within a
time budget.

The chunk plan (``kokoro_core.chunker``) reads the text as the voice says it: normalized, with its
lexicon. Its cost grows in proportion to the text, and each chunk is planned only while the one before
it is spoken, so a 20 KB text costs nothing before its first chunk but that chunk's sentence.
Text that reads unusually slowly must still not hold a thread (nor the chunk waiting for it): once an
utterance has spent
``budget_seconds`` planning, the rest of it is planned by the text as written (sizes in written
characters, every word boundary a clean cut). Synthesis still says each chunk normalized; only where
the chunks are cut changes.

An utterance is a script (``text.script``): runs of text, each planned this way in turn on one budget,
and the pauses and marks between them, which need no planning. A pause or a mark inside a sentence is an
anchor in its run's text: the plan reads the text without it, so the sentence is planned as if it were not
there, and a chunk carries its anchors to where its words are timed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from kokoro_core.chunker import AS_WRITTEN, Reading, iter_chunks
from kokoro_core.lexicon import Lexicon
from kokoro_core.ssml import Mark, Pause
from kokoro_server.engine.speech_engine import Interrupted, Interruption
from kokoro_server.text.reading import VoiceReading
from kokoro_server.text.script import Run, Script, without_anchors

Clock = Callable[[], float]
Answer = TypeVar("Answer")


class BudgetedReading:
    """A reading that answers as the voice reads until ``budget_seconds`` of it are spent, then as written.

    Every answer first checks ``interruption``: planning for a canceled utterance stops at once.
    """

    def __init__(
        self,
        reading: Reading,
        budget_seconds: float,
        interruption: Interruption,
        clock: Clock = time.perf_counter,
        spent: float = 0.0,
    ) -> None:
        self._reading = reading
        self._budget = budget_seconds
        self._interruption = interruption
        self._clock = clock
        self.spent = spent  # of the budget, by the text planned before this one

    @property
    def exhausted(self) -> bool:
        """Whether the budget is spent: from now on the text is read as written."""
        return self.spent > self._budget

    def size(self, text: str) -> int:
        return self._answer(self._reading.size, AS_WRITTEN.size, text)

    def cuts_cleanly(self, before: str, after: str) -> bool:
        return self._answer(self._reading.cuts_cleanly, AS_WRITTEN.cuts_cleanly, before, after)

    def _answer(self, as_read: Callable[..., Answer], as_written: Callable[..., Answer], *text: str) -> Answer:
        """``as_read(*text)``, its time counted against the budget, or ``as_written(*text)`` once it is spent;
        raises ``Interrupted`` when the utterance was canceled."""
        if self._interruption.interrupted:
            raise Interrupted("planning stopped: the utterance was canceled")
        if self.exhausted:
            return as_written(*text)
        started = self._clock()
        try:
            return as_read(*text)
        finally:
            self.spent += self._clock() - started


class AnchorFreeReading:
    """A run's reading of its text without the anchors in it: a pause or a mark changes no size and no cut."""

    def __init__(self, reading: Reading) -> None:
        self._reading = reading

    def size(self, text: str) -> int:
        return self._reading.size(without_anchors(text))

    def cuts_cleanly(self, before: str, after: str) -> bool:
        return self._reading.cuts_cleanly(without_anchors(before), without_anchors(after))


class ChunkPlan:
    """The chunks of one utterance in order, each planned when it is asked for."""

    def __init__(
        self,
        text: str,
        reading: Reading,
        first_chunk: tuple[int, bool],
        max_chunk_chars: int,
        budget_seconds: float,
        interruption: Interruption,
        clock: Clock = time.perf_counter,
        spent: float = 0.0,
    ) -> None:
        self.reading = BudgetedReading(reading, budget_seconds, interruption, clock, spent)
        first_chunk_chars, first_must_fit = first_chunk
        self._chunks: Iterator[str] = iter_chunks(
            text, first_chunk_chars, max_chunk_chars, first_must_fit, self.reading
        )

    def take(self) -> str | None:
        """The next chunk, or None when there is none left."""
        return next(self._chunks, None)

    @property
    def planning_seconds(self) -> float:
        return self.reading.spent

    @property
    def as_written(self) -> bool:
        """Whether the budget ran out, so part of the text was planned as written."""
        return self.reading.exhausted


@dataclass(frozen=True)
class Chunk:
    """A chunk of a run, and the lexicon it is read with (the voice's, with the run's readings)."""

    text: str
    run: Run
    lexicon: Lexicon


class ScriptPlan:
    """A script's steps in order: each run's chunks planned when they are asked for (one budget for
    all), its pauses and marks as they are."""

    def __init__(
        self,
        script: Script,
        reading: VoiceReading,
        first_chunk: tuple[int, bool],
        max_chunk_chars: int,
        budget_seconds: float,
        interruption: Interruption,
        clock: Clock = time.perf_counter,
    ) -> None:
        self._steps = iter(script.steps)
        self._reading = reading
        self._limits = (first_chunk, max_chunk_chars, budget_seconds)
        self._interruption, self._clock = interruption, clock
        self._run: tuple[Run, Lexicon, ChunkPlan] | None = None
        self._spent = 0.0
        self._as_written = False
        self._started = False  # a run has been planned

    def take(self) -> Chunk | Pause | Mark | None:
        """The next step, or None when there is none left."""
        while True:
            if self._run is not None:
                run, lexicon, plan = self._run
                if (text := plan.take()) is not None:
                    return Chunk(text, run, lexicon)
                self._spent, self._as_written = plan.planning_seconds, self._as_written or plan.as_written
                self._run = None
            step = next(self._steps, None)
            if not isinstance(step, Run):
                return step
            lexicon = self._reading.lexicon.with_entries(step.lexicon) if step.lexicon else self._reading.lexicon
            reading: Reading = VoiceReading(
                self._reading.language, self._reading.normalized, lexicon, self._reading.foreign
            )
            if step.anchors:
                reading = AnchorFreeReading(reading)
            first_chunk, max_chunk_chars, budget = self._limits
            if self._started:  # a later run's first chunk is short, but cut only where a clause ends
                first_chunk = (first_chunk[0], False)
            self._started = True
            plan = ChunkPlan(
                step.text, reading, first_chunk, max_chunk_chars, budget, self._interruption, self._clock, self._spent
            )
            self._run = (step, lexicon, plan)

    @property
    def planning_seconds(self) -> float:
        return self._run[2].planning_seconds if self._run is not None else self._spent

    @property
    def as_written(self) -> bool:
        return self._as_written or (self._run is not None and self._run[2].as_written)
