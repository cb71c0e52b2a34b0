"""An utterance's chunks, planned one at a time on a text thread (never on the event loop).

The chunk plan (``kokoro_core.chunker``) reads the text as the voice says it: normalized, with its
lexicon. Each sentence is read once (``ReadOnce``): the sizes and cuts the plan asks about come from that
reading, so planning costs about one normalizing of the text, linear in it, and each chunk is planned only
while the one before it is spoken: a 20 KB text costs nothing before its first chunk but that chunk's
sentence.

An utterance is a script (``text.script``): runs of text, each planned this way in turn, and the pauses and
marks between them, which need no planning. A pause or a mark inside a sentence is an anchor in its run's
text: the plan reads the text without it, so the sentence is planned as if it were not there, and a chunk
carries its anchors to where its words are timed.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import TypeVar

from kokoro_core.chunker import Reading, iter_chunks
from kokoro_core.lexicon import Lexicon
from kokoro_core.ssml import Mark, Pause
from kokoro_server.engine.speech_engine import Interrupted, Interruption
from kokoro_server.text.reading import VoiceReading, shown_with_sources, weight
from kokoro_server.text.script import Run, Script, without_anchors

Clock = Callable[[], float]
Answer = TypeVar("Answer")


class ReadOnce:
    """The plan's reading: each text it asks about is read once (``VoiceReading.parts``), and any text inside one
    read before is answered from that reading (in the context it was read in). The plan asks about a sentence
    first, then its heads, pieces and cuts, so a sentence is read about once; a chunk packed across sentences is
    sized from the sizes of what it joins. The said size of a part is what is said for the written text in it.
    A cut reads cleanly unless it falls inside a span read as a whole ("3 p.m.", a lexicon's phrase); next to
    one, the few words around the cut are read apart and together, as the voice would read the chunks.

    Every answer first checks ``interruption``: planning for a canceled utterance stops at once.
    """

    def __init__(
        self, reading: VoiceReading, interruption: Interruption, clock: Clock = time.perf_counter, spent: float = 0.0
    ) -> None:
        self._reading = reading
        self._interruption = interruption
        self._clock = clock
        self.spent = spent  # reading, by the text planned before this one too
        self._read: deque[_Read] = deque(maxlen=READ_KEPT)
        self._sizes: dict[str, int] = {}  # the latest sizes answered, oldest first

    def size(self, text: str) -> int:
        if (known := self._sizes.get(text)) is not None:
            return known
        if (found := self._found(text)) is not None:
            size = found[0].size(found[1], found[1] + len(text))
        elif (joined := self._joined(text)) is not None:
            size = joined  # a chunk packed across sentences: what it joins was read already
        else:
            size = self._read_anew(text).size(0, len(text))
        self._sizes[text] = size
        if len(self._sizes) > SIZES_KEPT:
            del self._sizes[next(iter(self._sizes))]
        return size

    def _joined(self, text: str) -> int | None:
        """The size of ``text`` as a text sized before, a space or nothing, and the text after it (the next
        sentence, read on its own)."""
        for before, size in reversed(self._sizes.items()):
            if len(before) < len(text) and text.startswith(before):
                gap = " " if text[len(before)] == " " else ""
                after = text[len(before) + len(gap) :]
                if after:
                    read, start = self._located(after)
                    return size + len(gap) + read.size(start, start + len(after))
        return None

    def cuts_cleanly(self, before: str, after: str) -> bool:
        for gap in (" ", ""):
            if (found := self._found(f"{before}{gap}{after}")) is not None:
                break
        else:
            gap, found = " ", (self._read_anew(f"{before} {after}"), 0)
        read, start = found
        cut = start + len(before)
        clean = read.cuts_cleanly(cut, cut + len(gap))
        if clean is None:
            return self._timed(self._reading.cuts_cleanly, before, after)
        return clean

    def _found(self, text: str) -> tuple[_Read, int] | None:
        if self._interruption.interrupted:
            raise Interrupted("planning stopped: the utterance was canceled")
        for read in reversed(self._read):
            if (start := read.text.find(text)) >= 0:
                return read, start
        return None

    def _located(self, text: str) -> tuple[_Read, int]:
        return self._found(text) or (self._read_anew(text), 0)

    def _read_anew(self, text: str) -> _Read:
        self._read.append(self._timed(_Read, text, self._reading))
        return self._read[-1]

    def _timed(self, work: Callable[..., Answer], *arguments: object) -> Answer:
        started = self._clock()
        try:
            return work(*arguments)
        finally:
            self.spent += self._clock() - started


READ_KEPT = 8  # texts whose readings are kept: the sentences being planned, and a text read around a cut
SIZES_KEPT = 32  # sizes answered, kept so that a chunk packed across sentences is sized from its parts


class _Read:
    """One text as the voice reads it: the said size of any part of it, and where it may be cut."""

    def __init__(self, text: str, reading: VoiceReading) -> None:
        self.text = text
        shown, sources = shown_with_sources(reading.parts(text), reading.language)
        weights = [0] * (len(text) + 2)
        inside = [0] * (len(text) + 2)
        self._edges: set[int] = set()
        for char, (start, _) in zip(shown, sources, strict=True):
            weights[min(start, len(text))] += weight(char)
        for start, end in set(sources):
            if end - start > 1:  # read as a whole: no cut inside it
                inside[start + 1] += 1
                inside[end] -= 1
                self._edges |= {start, end}
        self._before = list(accumulate(weights, initial=0))
        self._inside = list(accumulate(inside))

    def size(self, start: int, end: int) -> int:
        return self._before[end if end < len(self.text) else len(self.text) + 1] - self._before[start]

    def cuts_cleanly(self, start: int, end: int) -> bool | None:
        """Whether cutting at ``start`` to ``end`` leaves every span whole; None next to a span read whole, where
        the words around the cut decide."""
        if self._inside[start] > 0 or self._inside[end] > 0:
            return False
        return None if start in self._edges or end in self._edges else True


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
        reading: VoiceReading,
        first_chunk: tuple[int, bool],
        max_chunk_chars: int,
        interruption: Interruption,
        clock: Clock = time.perf_counter,
        spent: float = 0.0,
        anchored: bool = False,
    ) -> None:
        self.reading = ReadOnce(reading, interruption, clock, spent)
        planned: Reading = AnchorFreeReading(self.reading) if anchored else self.reading
        first_chunk_chars, first_must_fit = first_chunk
        self._chunks: Iterator[str] = iter_chunks(text, first_chunk_chars, max_chunk_chars, first_must_fit, planned)

    def take(self) -> str | None:
        """The next chunk, or None when there is none left."""
        return next(self._chunks, None)

    @property
    def planning_seconds(self) -> float:
        return self.reading.spent


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
        interruption: Interruption,
        clock: Clock = time.perf_counter,
    ) -> None:
        self._steps = iter(script.steps)
        self._reading = reading
        self._limits = (first_chunk, max_chunk_chars)
        self._interruption, self._clock = interruption, clock
        self._run: tuple[Run, Lexicon, ChunkPlan] | None = None
        self._spent = 0.0
        self._started = False  # a run has been planned

    def take(self) -> Chunk | Pause | Mark | None:
        """The next step, or None when there is none left."""
        while True:
            if self._run is not None:
                run, lexicon, plan = self._run
                if (text := plan.take()) is not None:
                    return Chunk(text, run, lexicon)
                self._spent = plan.planning_seconds
                self._run = None
            step = next(self._steps, None)
            if not isinstance(step, Run):
                return step
            lexicon = self._reading.lexicon.with_entries(step.lexicon) if step.lexicon else self._reading.lexicon
            reading = VoiceReading(self._reading.language, self._reading.normalized, lexicon, self._reading.foreign)
            first_chunk, max_chunk_chars = self._limits
            if self._started:  # a later run's first chunk is short, but cut only where a clause ends
                first_chunk = (first_chunk[0], False)
            self._started = True
            plan = ChunkPlan(
                step.text,
                reading,
                first_chunk,
                max_chunk_chars,
                self._interruption,
                self._clock,
                self._spent,
                anchored=bool(step.anchors),
            )
            self._run = (step, lexicon, plan)

    @property
    def planning_seconds(self) -> float:
        return self._run[2].planning_seconds if self._run is not None else self._spent
