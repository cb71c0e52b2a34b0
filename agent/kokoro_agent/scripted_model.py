"""A Strands model that answers with a script: the LLM's stand-in for local runs and tests.

Everything else (the Strands agent loop, its streamed text events, the speech) is the real thing;
only the tokens come from a script, at a steady rate after a first-token delay, as a Bedrock model
streams them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterable
from typing import Any

from strands.models.model import Model
from strands.types.streaming import StreamEvent

from kokoro_stream.say import llm_tokens


class ScriptedModel(Model):
    def __init__(self, reply: str, tokens_per_second: float = 30.0, first_token_ms: float = 300.0) -> None:
        self.config: dict[str, Any] = {
            "reply": reply,
            "tokens_per_second": tokens_per_second,
            "first_token_ms": first_token_ms,
        }

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def get_config(self) -> dict[str, Any]:
        return dict(self.config)

    async def stream(
        self, messages: Any, tool_specs: Any = None, system_prompt: Any = None, **kwargs: Any
    ) -> AsyncIterable[StreamEvent]:
        started = time.perf_counter() + self.config["first_token_ms"] / 1000
        yield {"messageStart": {"role": "assistant"}}
        for index, token in enumerate(llm_tokens(self.config["reply"])):
            delay = started + index / self.config["tokens_per_second"] - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            yield {"contentBlockDelta": {"delta": {"text": token}}}
        yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "end_turn"}}

    async def structured_output(
        self, output_model: Any, prompt: Any, system_prompt: Any = None, **kwargs: Any
    ) -> AsyncGenerator[dict[str, Any], None]:
        raise NotImplementedError("the scripted model only speaks its script")
        yield {}  # pragma: no cover - makes this an async generator, as the interface declares
