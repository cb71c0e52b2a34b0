"""A text with some of its parts replaced, and where each offset of the new text came from in the old one: the
lexicon's respellings, a markup tag said as nothing, a span's marks taken away. Word timing follows what is
said back to what was written through these.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Edits:
    """The replaced regions of a text, in order, each as (old start, old end, new start, new end)."""

    regions: tuple[tuple[int, int, int, int], ...] = ()
    _new_starts: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_new_starts", tuple(region[2] for region in self.regions))

    def _region(self, offset: int) -> tuple[int, int, int, int] | None:
        index = bisect_right(self._new_starts, offset) - 1
        return self.regions[index] if index >= 0 else None

    def original(self, offset: int) -> int:
        """Where the boundary at ``offset`` of the new text lies in the old. Inside a replaced region it lies at
        the region's old start; a region replaced by nothing belongs to the text before it."""
        region = self._region(offset)
        if region is None:
            return offset
        old_start, old_end, _, new_end = region
        return old_end + offset - new_end if offset >= new_end else old_start

    def source(self, offset: int) -> tuple[int, int]:
        """The old text the character at ``offset`` of the new text came from: itself, or a whole replaced
        region."""
        region = self._region(offset)
        if region is not None and offset < region[3]:
            return region[0], region[1]
        start = self.original(offset)
        return start, start + 1


NO_EDITS = Edits()


def substituted(pattern: re.Pattern[str], text: str, replacement: Callable[[re.Match[str]], str]) -> tuple[str, Edits]:
    """``pattern.sub(replacement, text)``, and the edits it made."""
    pieces: list[str] = []
    regions: list[tuple[int, int, int, int]] = []
    position = length = 0
    for match in pattern.finditer(text):
        kept = text[position : match.start()]
        pieces.append(kept)
        length += len(kept)
        said = replacement(match)
        pieces.append(said)
        regions.append((match.start(), match.end(), length, length + len(said)))
        length += len(said)
        position = match.end()
    pieces.append(text[position:])
    return "".join(pieces), Edits(tuple(regions))
