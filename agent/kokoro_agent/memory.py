"""The agent's memory after a barge-in: its answer cut to what the user heard.

The model wrote more than the user heard; if its conversation kept the whole answer, the next turn
would build on words the user never heard ("as I said, ..."). So the answer is replaced by the words
heard, followed by a note the model reads as an interruption. Any tool use inside the interrupted
turn is dropped with the rest: the user heard none of it.
"""

from __future__ import annotations

from typing import Any

INTERRUPTED = "[interrupted by the user]"


def keep_heard(messages: list[Any], turn_start: int, heard_text: str) -> None:
    """Cut the turn that began at ``messages[turn_start]`` (its user message) to ``heard_text``.

    Roles keep alternating: the turn's user message stays, and one assistant message follows it.
    A turn whose user message never reached the conversation leaves it as it is.
    """
    if len(messages) <= turn_start or messages[turn_start].get("role") != "user":
        return
    del messages[turn_start + 1 :]
    messages.append({"role": "assistant", "content": [{"text": f"{heard_text} {INTERRUPTED}".strip()}]})
