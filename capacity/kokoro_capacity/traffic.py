"""What realistic agent traffic looks like: sessions of turns, each a corpus reply streamed token by token
after the user has spoken (listen) and the LLM has thought (think).

A gap is drawn from a distribution given as ``kind:parameters`` (``fixed:2``, ``uniform:1,4``,
``exponential:3`` (its mean), ``lognormal:2,0.5`` (median, sigma)), or replayed from a recorded trace
file: JSON lines of ``{"listen_s": 2.1, "think_s": 0.6}``, one per turn, used in order and again.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from kokoro_core.speech_text import SpeechText
from kokoro_stream.say import llm_tokens

Route = Literal["bidi", "post"]
GAP_KINDS = ("fixed", "uniform", "exponential", "lognormal")
_ARITY = {"fixed": 1, "uniform": 2, "exponential": 1, "lognormal": 2}


@dataclass(frozen=True)
class Gap:
    kind: str
    parameters: tuple[float, ...]

    @classmethod
    def parse(cls, spec: str) -> Gap:
        kind, _, rest = spec.partition(":")
        if kind not in GAP_KINDS:
            raise ValueError(f"gap {spec!r}: unknown distribution {kind!r}; use one of {', '.join(GAP_KINDS)}")
        try:
            parameters = tuple(float(part) for part in rest.split(",")) if rest else ()
        except ValueError:
            raise ValueError(f"gap {spec!r}: parameters must be numbers, e.g. uniform:1,4") from None
        if len(parameters) != _ARITY[kind] or any(not math.isfinite(p) or p < 0 for p in parameters):
            example = {"fixed": "fixed:2", "uniform": "uniform:1,4", "exponential": "exponential:3"}
            raise ValueError(
                f"gap {spec!r}: {kind} takes {_ARITY[kind]} non-negative number(s), "
                f"e.g. {example.get(kind, 'lognormal:2,0.5')}"
            )
        if kind == "uniform" and parameters[0] > parameters[1]:
            raise ValueError(f"gap {spec!r}: uniform:low,high needs low <= high")
        return cls(kind, parameters)

    def draw(self, rng: random.Random) -> float:
        p = self.parameters
        if self.kind == "fixed":
            return p[0]
        if self.kind == "uniform":
            return rng.uniform(p[0], p[1])
        if self.kind == "exponential":
            return rng.expovariate(1 / p[0]) if p[0] > 0 else 0.0
        return rng.lognormvariate(math.log(max(p[0], 1e-6)), p[1])

    def mean(self) -> float:
        p = self.parameters
        if self.kind == "fixed" or self.kind == "exponential":
            return p[0]
        if self.kind == "uniform":
            return (p[0] + p[1]) / 2
        return p[0] * math.exp(p[1] ** 2 / 2)

    def __str__(self) -> str:
        return f"{self.kind}:{','.join(f'{p:g}' for p in self.parameters)}"


@dataclass(frozen=True)
class RecordedGaps:
    """Listen and think gaps replayed in order from a recorded trace."""

    turns: tuple[tuple[float, float], ...]
    source: str

    @classmethod
    def load(cls, path: Path) -> RecordedGaps:
        turns = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                listen, think = float(row["listen_s"]), float(row["think_s"])
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}:{number}: expected {{'listen_s': s, 'think_s': s}} ({error})") from None
            if listen < 0 or think < 0 or not math.isfinite(listen + think):
                raise ValueError(f"{path}:{number}: gaps must be finite and non-negative seconds")
            turns.append((listen, think))
        if not turns:
            raise ValueError(f"{path}: no turns recorded")
        return cls(tuple(turns), str(path))


@dataclass(frozen=True)
class TrafficModel:
    """How agent sessions behave; every draw comes from one seeded generator per session."""

    replies: dict[str, str]
    route: Route = "bidi"
    tokens_per_second: float = 30.0
    listen: Gap = field(default_factory=lambda: Gap.parse("uniform:2,6"))  # the user speaks
    think: Gap = field(default_factory=lambda: Gap.parse("uniform:0.3,1.2"))  # the LLM's time to first token
    turns: Gap = field(default_factory=lambda: Gap.parse("uniform:3,8"))  # turns per session
    recorded: RecordedGaps | None = None
    seed: int = 1

    def __post_init__(self) -> None:
        if not self.replies:
            raise ValueError("the traffic needs at least one reply text")
        if self.tokens_per_second <= 0:
            raise ValueError(f"tokens per second must be positive, got {self.tokens_per_second}")

    def session_plan(self, session_number: int) -> list[tuple[float, str]]:
        """The turns of one session: (seconds of silence before the reply's first token, reply id)."""
        rng = random.Random(self.seed * 1_000_003 + session_number)
        count = max(1, round(self.turns.draw(rng)))
        ids = sorted(self.replies)
        plan = []
        for turn in range(count):
            if self.recorded is not None:
                listen, think = self.recorded.turns[(session_number + turn) % len(self.recorded.turns)]
            else:
                listen, think = self.listen.draw(rng), self.think.draw(rng)
            plan.append((listen + think, rng.choice(ids)))
        return plan

    def described(self) -> dict[str, object]:
        return {
            "route": self.route,
            "replies": sorted(self.replies),
            "tokens_per_second": self.tokens_per_second,
            "listen": str(self.listen) if self.recorded is None else f"recorded {self.recorded.source}",
            "think": str(self.think) if self.recorded is None else f"recorded {self.recorded.source}",
            "turns_per_session": str(self.turns),
            "seed": self.seed,
        }


def first_sentence(text: str, tokens_per_second: float) -> tuple[str, float]:
    """The first sentence a streaming client sends and when its last token arrives."""
    speech = SpeechText()
    for index, token in enumerate(llm_tokens(text)):
        if sentences := speech.push(token):
            return sentences[0], index / tokens_per_second
    sentences = speech.flush()
    return sentences[0], (len(llm_tokens(text)) - 1) / tokens_per_second
