"""An utterance's steps in order, each planned and prepared on a text thread one step ahead of the one spoken.

A step is a chunk ready for the model (its text work done: what is said, phonemes, tokens, where its words
fall), or a pause or a mark, which need no model. The chunk plan (``planning``) is read in order, one step at
a time: the first step's text work goes first on the text threads (its listener waits for it); each later
step's starts the moment the step before it is handed out, so it is ready by the time that one is spoken.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, replace

from kokoro_core.ssml import Mark, Pause
from kokoro_server.engine.speech_engine import NothingToSpeak, SpeechEngine
from kokoro_server.text.foreign import READ, ForeignScript
from kokoro_server.text.reading import VoiceReading
from kokoro_server.text.script import split_anchors

from .breaks import by_word
from .planning import Chunk, ScriptPlan
from .scheduler import Scheduler
from .timeline import SpokenChunk, Step


@dataclass(frozen=True)
class Prepared:
    """A step (None: the utterance has no more), and what preparing it cost."""

    step: Step | None
    text_seconds: float
    planning_seconds: float  # all the planning so far


class ChunkPipeline:
    def __init__(
        self,
        engine: SpeechEngine,
        scheduler: Scheduler,
        plan: ScriptPlan,
        voice: str,
        normalized: bool,
        foreign: ForeignScript = READ,
    ) -> None:
        self._engine = engine
        self._scheduler = scheduler
        self._plan = plan
        self._voice = voice
        self._reading = VoiceReading.of(voice, normalized, foreign=foreign)  # each chunk brings its lexicon
        self._ready: deque[Step] = deque()  # the steps a chunk brought: its pauses and marks around its words
        self._ahead: Future[Prepared] | None = None
        self._started = False

    async def next(self) -> Prepared:
        """The next step; the one after it starts preparing at once."""
        if not self._started:
            self._started = True
            self._ahead = self._scheduler.prepare(self._prepare, urgent=True)
        if self._ahead is None:
            return Prepared(None, 0.0, self._plan.planning_seconds)
        prepared = await asyncio.wrap_future(self._ahead)
        self._ahead = self._scheduler.prepare(self._prepare) if prepared.step is not None else None
        return prepared

    def cancel(self) -> None:
        """Withdraw the step being prepared, if it has not started (a canceled plan stops by itself)."""
        if self._ahead is not None:
            self._ahead.cancel()

    def _prepare(self) -> Prepared:
        """The next step, on a text thread: a chunk with something to say, planned and prepared, or a pause or a
        mark. A chunk of only punctuation adds nothing and is passed over (its pauses and marks are not)."""
        started = time.perf_counter()
        ready, plan = self._ready, self._plan
        while not ready and (step := plan.take()) is not None:
            if not isinstance(step, Chunk):
                ready.append(step)
                break
            text, placed = split_anchors(step.text) if step.run.anchors else (step.text, [])
            anchored: list[tuple[int, Pause | Mark]] = [(offset, step.run.anchors[anchor]) for offset, anchor in placed]
            try:
                prepared = self._engine.prepare(text, self._voice, replace(self._reading, lexicon=step.lexicon))
            except NothingToSpeak:
                ready.extend(item for _, item in anchored)
                continue
            anchors = by_word(anchored, text, prepared.words.words)
            ready.extend((*anchors.leading, SpokenChunk(prepared, step.run, anchors.inner), *anchors.trailing))
        return Prepared(ready.popleft() if ready else None, time.perf_counter() - started, plan.planning_seconds)
