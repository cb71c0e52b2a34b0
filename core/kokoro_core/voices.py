"""What a voice names: one of the server's voices, or a blend of several of one language.

A blend is a weighted mix of voices' style vectors, written ``name:weight+name:weight…``
(``af_heart:0.7+af_bella:0.3``); a bare name weighs 1 (``af_heart+af_bella`` is half and half), and
``name(weight)`` is read as ``name:weight`` (``af_bella(2)+af_sky(1)``). Weights are relative: they are
normalized to sum 1, in thousandths.

The canonical form is what the server reports back and what the engine mixes: the components in the
order given, ``name:weight`` with the normalized weights (thousandths that add up to exactly 1), and a
single voice as its bare name. Reading a canonical form gives it back unchanged.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import dataclass

from .speakable import language_of
from .validation import shown

MAX_COMPONENTS = 8
MAX_VOICE_CHARS = 256
STEPS = 1000  # weights are normalized to thousandths
SEPARATOR = "+"
SYNTAX = "a voice name, or a blend such as af_heart:0.7+af_bella:0.3 (or af_heart(7)+af_bella(3))"

# One component: a name, then optionally ":weight" or "(weight)"; spaces around each part are allowed.
_COMPONENT = re.compile(r"\s*(?P<name>[^:()+\s]+)\s*(?::\s*(?P<colon>[^\s]*)|\(\s*(?P<paren>[^()\s]*)\s*\))?\s*")
# A weight is a plain decimal number: no sign, no exponent, no "inf" or "nan".
_WEIGHT = re.compile(r"\d+(?:\.\d*)?|\.\d+")


class VoiceError(ValueError):
    """A voice or a blend is not one this server can say; the message says what was wrong and what is allowed."""


@dataclass(frozen=True)
class Blend:
    """What a voice names: its voices with their normalized weights (in thousandths, adding up to ``STEPS``),
    in the order given. A single voice is a blend of one."""

    parts: tuple[tuple[str, int], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.parts)

    @property
    def weights(self) -> tuple[float, ...]:
        """Each voice's share of the mix; they add up to 1."""
        return tuple(steps / STEPS for _, steps in self.parts)

    @property
    def is_blend(self) -> bool:
        return len(self.parts) > 1

    @property
    def canonical(self) -> str:
        if not self.is_blend:
            return self.parts[0][0]
        return SEPARATOR.join(f"{name}:{_decimal(steps)}" for name, steps in self.parts)

    @property
    def language(self) -> str:
        """The language all its voices speak (``kokoro_core.speakable.language_of``)."""
        return language_of(self.parts[0][0])


def parse_voice(voice: str, voices: Collection[str]) -> Blend:
    """Read a voice name or a blend, checked against ``voices`` (those this server has).

    Raises ``VoiceError``: a string too long, too many components, an empty component, a voice this server
    does not have, a voice given twice, a weight that is not a positive number, a weight that rounds to
    nothing, or voices of different languages.
    """
    if len(voice) > MAX_VOICE_CHARS:
        raise VoiceError(f"voice has {len(voice)} characters; at most {MAX_VOICE_CHARS} are allowed: give {SYNTAX}")
    texts = voice.split(SEPARATOR)
    if len(texts) > MAX_COMPONENTS:
        raise VoiceError(
            f"blend {shown(voice)} mixes {len(texts)} voices; at most {MAX_COMPONENTS} are allowed: give {SYNTAX}"
        )
    given = [_component(text, voice, voices) for text in texts]
    names = [name for name, _ in given]
    for name in names:
        if names.count(name) > 1:
            raise VoiceError(f"blend {shown(voice)} names voice {name!r} twice; give each voice once, with its weight")
    languages = {name: language_of(name) for name in names}
    if len(set(languages.values())) > 1:
        mixed = ", ".join(f"{name} ({language})" for name, language in languages.items())
        raise VoiceError(
            f"blend {shown(voice)} mixes languages: {mixed}; a blend's voices must all speak one language "
            "(a voice's first letter names it: a and b are American and British English)"
        )
    return Blend(tuple(zip(names, _normalized(given, voice), strict=True)))


def _component(text: str, voice: str, voices: Collection[str]) -> tuple[str, float]:
    """One component's voice name and its weight as given (1 when none is)."""
    if not text.strip():
        where = f"blend {shown(voice)} has an empty component" if len(voice.split(SEPARATOR)) > 1 else "voice is empty"
        raise VoiceError(f"{where}: give {SYNTAX}")
    match = _COMPONENT.fullmatch(text)
    if match is None:
        where = f"blend component {shown(text.strip())} of {shown(voice)}" if text != voice else f"voice {shown(voice)}"
        raise VoiceError(f"{where} cannot be read: give {SYNTAX}")
    name = match["name"]
    if name not in voices:
        where = f" in blend {shown(voice)}" if text != voice else ""
        raise VoiceError(f"voice {shown(name)}{where} unknown; choose one of: {', '.join(voices)} (or a blend of them)")
    written = match["colon"] if match["colon"] is not None else match["paren"]
    if written is None:
        return name, 1.0
    if not _WEIGHT.fullmatch(written) or not math.isfinite(weight := float(written)) or weight <= 0:
        raise VoiceError(
            f"voice {name!r} has weight {shown(written)} in {shown(voice)}; a weight is a positive number "
            "such as 0.7 or 2 (weights are relative: they are normalized to sum 1)"
        )
    return name, weight


def _normalized(given: list[tuple[str, float]], voice: str) -> list[int]:
    """The weights as thousandths adding up to exactly ``STEPS`` (largest remainders get the rounding)."""
    total = math.fsum(weight for _, weight in given)
    exact = [weight / total * STEPS for _, weight in given]
    steps = [math.floor(share) for share in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: steps[i] - exact[i])
    for index in by_remainder[: STEPS - sum(steps)]:
        steps[index] += 1
    for (name, _), share in zip(given, steps, strict=True):
        if share == 0:
            raise VoiceError(
                f"voice {name!r} weighs less than 1/{STEPS} of blend {shown(voice)}; "
                "leave it out or give it more weight"
            )
    return steps


def _decimal(steps: int) -> str:
    """Thousandths as the shortest decimal: 700 → "0.7", 333 → "0.333", 1000 → "1"."""
    return f"{steps / STEPS:.3f}".rstrip("0").rstrip(".")
