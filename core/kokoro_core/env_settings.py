"""Settings from environment variables: each field of a pydantic model from ``<PREFIX><NAME>``.

The speech server (``KOKORO_*``) and the agent (``KOKORO_AGENT_*``) read their settings this way, so
both report a bad value the same way: the variable, its value and what is allowed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, ValidationError

from .validation import problems


def settings_from_environment[Settings: BaseModel](
    model: type[Settings],
    prefix: str,
    error: type[ValueError],
    environ: Mapping[str, str] | None = None,
    *,
    aliases: Mapping[str, str] | None = None,
    overrides: Mapping[str, object] | None = None,
    fallbacks: Mapping[str, object] | None = None,
) -> Settings:
    """Fields from ``<prefix><NAME>``, else from their alias variable; explicit (non-None) overrides win;
    ``fallbacks`` fill what is still unset. An invalid value raises ``error``."""
    environ = os.environ if environ is None else environ
    values: dict[str, object] = {}
    for name in model.model_fields:
        if f"{prefix}{name.upper()}" in environ:
            values[name] = environ[f"{prefix}{name.upper()}"]
    for name, variable in (aliases or {}).items():
        if name not in values and environ.get(variable):
            values[name] = environ[variable]
    values.update({key: value for key, value in (overrides or {}).items() if value is not None})
    for name, value in (fallbacks or {}).items():
        values.setdefault(name, value)
    try:
        return model(**values)
    except ValidationError as invalid:
        lines = [
            f"{prefix}{problem.where.upper()}={problem.value!r} is invalid: {problem.message}"
            + _meaning(model, problem.where)
            if problem.where
            else problem.message  # a rule across variables: its message names them
            for problem in problems(invalid)
        ]
        raise error("; ".join(lines)) from None


def _meaning(model: type[BaseModel], where: str) -> str:
    """What the field means, from its description, so the message says what a value does as well as what
    values are allowed."""
    field = model.model_fields.get(where)
    return f" ({field.description})" if field is not None and field.description else ""
