"""Calling the agent deployed on AgentCore Runtime (InvokeAgentRuntime), events as they arrive."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any


def runtime_events(
    client: Any, runtime_arn: str, payload: dict[str, Any], session_id: str, qualifier: str
) -> Iterator[dict[str, Any]]:
    response = client.invoke_agent_runtime(
        agentRuntimeArn=runtime_arn,
        runtimeSessionId=session_id,
        qualifier=qualifier,
        contentType="application/json",
        accept="text/event-stream",
        payload=json.dumps(payload).encode(),
    )
    body = response["response"]
    if "text/event-stream" not in response.get("contentType", ""):
        yield json.loads(body.read())
        return
    for line in body.iter_lines():
        if line.startswith(b"data: "):
            yield json.loads(line[len(b"data: ") :])


async def invoke_runtime(
    runtime_arn: str,
    payload: dict[str, Any],
    session_id: str,
    region: str | None = None,
    qualifier: str = "DEFAULT",
    client: Any | None = None,
) -> AsyncIterator[dict[str, Any]]:
    """The runtime's events; boto3 reads the stream on a worker thread so the loop stays free."""
    if client is None:
        import boto3

        client = boto3.client("bedrock-agentcore", region_name=region)
    events = runtime_events(client, runtime_arn, payload, session_id, qualifier)
    done = object()
    while (event := await asyncio.to_thread(next, events, done)) is not done:
        yield event
