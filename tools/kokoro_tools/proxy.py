"""`kokoro-stream proxy`: the OpenAI-compatible speech API on this machine, in front of a SageMaker
endpoint, so an app written for OpenAI's speech endpoint uses the deployed model unchanged.

Each request is one ``InvokeEndpointWithResponseStream`` (boto3, SigV4 from the standard credential
chain) asking the container for 16-bit PCM at 24 kHz; the API layer encodes it as the caller asked. The
container's refusals (an unknown voice, a speed out of range) come back as OpenAI errors with the
container's code and message.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncGenerator
from typing import Any

from aiohttp import web
from botocore.exceptions import BotoCoreError, ClientError

from kokoro_server.openai_api.routes import SourceRefused, add_openai_routes, speak_fields
from kokoro_stream.endpoint import Endpoint
from kokoro_stream.sagemaker_post_transport import PayloadRebuffer

from .local_guard import local_guard

_END = object()


class EndpointSpeech:
    """The OpenAI API's speech from a SageMaker endpoint: one streamed invocation per request."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self._client = endpoint.runtime_client()

    def voices(self) -> tuple[str, ...] | None:
        return None  # the endpoint's container checks the voice and says which it has

    async def stream(self, text: str, voice: str, speed: float) -> AsyncGenerator[bytes, None]:
        body = json.dumps(speak_fields(text, voice, speed))
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Any] = asyncio.Queue()
        stop = threading.Event()

        def invoke() -> None:  # boto3 blocks: its stream is read in a thread, handed over chunk by chunk
            try:
                response = self._client.invoke_endpoint_with_response_stream(
                    EndpointName=self.endpoint.name, Body=body, ContentType="application/json"
                )
                rebuffer = PayloadRebuffer(2)
                for event in response["Body"]:
                    if stop.is_set():
                        response["Body"].close()
                        return
                    if "PayloadPart" not in event:
                        raise SourceRefused(502, "stream_error", f"the endpoint's stream failed: {event}")
                    if data := rebuffer.feed(event["PayloadPart"].get("Bytes", b"")):
                        loop.call_soon_threadsafe(queue.put_nowait, data)
                loop.call_soon_threadsafe(queue.put_nowait, _END)
            except Exception as error:  # noqa: BLE001 - handed to the request, which reports it
                loop.call_soon_threadsafe(queue.put_nowait, error)

        worker = threading.Thread(target=invoke, name="kokoro-proxy-invoke", daemon=True)
        worker.start()
        try:
            while (item := await queue.get()) is not _END:
                if isinstance(item, Exception):
                    raise _refusal(item)
                yield item
        finally:
            stop.set()


def _refusal(error: Exception) -> Exception:
    """What went wrong, as the API reports it: the container's own code and message where it gave one."""
    if isinstance(error, SourceRefused):
        return error
    if isinstance(error, ClientError):
        response: dict[str, Any] = dict(error.response)
        if response.get("Error", {}).get("Code") == "ModelError":
            status = int(response.get("OriginalStatusCode") or 502)
            try:
                original = json.loads(response.get("OriginalMessage", ""))
                return SourceRefused(status, original["error"], original["message"])
            except (ValueError, KeyError, TypeError):
                return SourceRefused(status, "model_error", str(error))
        return SourceRefused(502, "endpoint_error", f"the endpoint refused the request: {error}")
    if isinstance(error, BotoCoreError):
        return SourceRefused(502, "endpoint_unreachable", f"cannot reach the endpoint: {error}")
    return error


def proxy_app(endpoint: Endpoint, listening_on: str = "127.0.0.1", api_key: str | None = None) -> web.Application:
    """The API in front of ``endpoint``, for this machine's programs (``local_guard``), or for callers that
    send ``api_key`` where one is given."""
    app = web.Application(middlewares=[local_guard(listening_on, api_key)])
    add_openai_routes(app, EndpointSpeech(endpoint))
    return app
