"""Settings from environment variables: each field of a pydantic model from ``<PREFIX><NAME>``.

The speech server (``KOKORO_*``) and the agent (``KOKORO_AGENT_*``) read their settings this way, so
both report a bad value the same way: the variable, its value and what is allowed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, ValidationError


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
        problems = []
        for item in invalid.errors():
            message = item["msg"].removeprefix("Value error, ")
            if item["loc"]:  # one variable
                variable = f"{prefix}{'.'.join(str(part) for part in item['loc']).upper()}"
                problems.append(f"{variable}={item.get('input')!r} is invalid: {message}")
            else:  # a rule across variables: its message names them
                problems.append(message)
        raise error("; ".join(problems)) from None
