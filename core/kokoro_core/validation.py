"""Pydantic's validation errors, read once: each problem's location, value and message, for the
protocol's refusals, the settings readers and the agent to word as each needs."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError


@dataclass(frozen=True)
class Problem:
    where: str  # the field's dotted location; "" for a rule across fields, whose message names them
    value: Any  # what was given
    message: str  # pydantic's message, or a validator's own (without pydantic's "Value error, ")
    kind: str  # pydantic's error type ("missing", "int_parsing", …) or a validator's custom code


def problems(error: ValidationError) -> list[Problem]:
    return [
        Problem(
            where=".".join(str(part) for part in item["loc"]),
            value=item.get("input"),
            message=item["msg"].removeprefix("Value error, "),
            kind=item["type"],
        )
        for item in error.errors(include_url=False)
    ]


_SHORT = reprlib.Repr(maxlevel=2, maxstring=60, maxother=60, maxlong=40, maxdict=4, maxlist=4)


def shown(value: Any) -> str:
    """``value`` as a refusal quotes it: its repr, shortened, so an error never echoes a whole message."""
    return _SHORT.repr(value)
