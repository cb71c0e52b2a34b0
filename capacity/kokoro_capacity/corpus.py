"""Realistic voice-agent replies (``agent_replies.jsonl``): the default traffic of ``capacity measure``, and the
test bed of the segmentation tests and the benchmarks."""

from __future__ import annotations

import json
from pathlib import Path

AGENT_REPLIES = Path(__file__).with_name("agent_replies.jsonl")


def load_replies(path: Path = AGENT_REPLIES) -> dict[str, str]:
    """``{"id": text}`` from a JSONL file of ``{"id", "text"}`` objects."""
    replies = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            replies[str(row["id"])] = str(row["text"])
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}:{number}: expected a JSON object with 'id' and 'text' ({error})") from None
    return replies
