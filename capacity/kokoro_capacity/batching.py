"""How the measured server shares its model between sessions: where the model runs, how many sessions'
chunks one model call speaks (``max_batch``) and how long a batch that is not full waits for another
session's chunk (``batch_wait_ms``), as the server says them in its ``ready`` message.

A measurement holds for the batching it was taken with: an instance speaking 16 chunks per call carries far
more sessions than one speaking a chunk per call. ``measure`` records it beside Q_max and ``plan`` pins it
in the profile, so the endpoint batches as the instance that was measured did.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from kokoro_core.capacity_profile import Batching

if TYPE_CHECKING:
    from kokoro_core.server_messages import Ready

    from .sessions import SpeechTarget

PROBE_TIMEOUT_SECONDS = 30.0  # a session that has not opened by then will not say anything
FIELDS = ("device", "max_batch", "batch_wait_ms")


def from_ready(ready: Ready) -> dict[str, Any]:
    """The server's batching as its ready message says it; None for each field it does not say."""
    told = {name: getattr(ready, name) for name in FIELDS}
    if all(value is None for value in told.values()):
        return {**told, "source": "unknown: the server's ready message does not say (a server from before batching)"}
    return {**told, "source": "the server's ready message"}


def read_server(target: SpeechTarget) -> dict[str, Any]:
    """The batching of the server behind ``target``, from one bidirectional session opened for its ready
    message. Unknown (None), never an error, where no session opens: a target that takes POSTs only, or
    one that refuses sessions (the ladder then says so in its own figures)."""
    # The client's session machinery is imported here, not with the module: the reports and plan use the rest.
    from kokoro_stream.transport import SpeechError

    try:
        ready = asyncio.run(asyncio.wait_for(_announced(target), PROBE_TIMEOUT_SECONDS))
    except (SpeechError, OSError, TimeoutError) as error:
        reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        return {**dict.fromkeys(FIELDS), "source": f"unknown: no bidirectional session opened ({reason})"}
    return from_ready(ready)


async def _announced(target: SpeechTarget) -> Ready:
    from kokoro_stream.speaker import Speaker

    speaker = Speaker(target.bidi(), voice=target.voice, marks=False, timeout=PROBE_TIMEOUT_SECONDS)
    try:
        await speaker.open()
    except BaseException:
        await speaker.abort()
        raise
    await speaker.close()  # the ready message is all this session is for
    assert speaker.ready is not None  # open() read it or raised
    return speaker.ready


def pinned(server: dict[str, Any] | None) -> Batching | None:
    """What a profile pins from a measurement's ``server``: None where the batching is not known (a
    measurement from before it was recorded has no ``server`` at all)."""
    if not server or server.get("max_batch") is None or server.get("batch_wait_ms") is None:
        return None
    try:
        return Batching(max_batch=server["max_batch"], batch_wait_ms=server["batch_wait_ms"])
    except ValueError as error:  # pydantic's ValidationError names the field and its bounds
        raise ValueError(f"the measurement's server batching {server}: {error}") from None


def described(server: dict[str, Any] | None) -> str:
    """One sentence for the reports."""
    if not server:
        return "not recorded (a measurement from before the server's batching was)"
    if server.get("max_batch") is None:
        return str(server.get("source", "unknown"))
    device = server.get("device") or "an unnamed device"
    batch, wait = server["max_batch"], server.get("batch_wait_ms")
    per_call = "one chunk per model call (no batching)" if batch == 1 else f"up to {batch} chunks per model call"
    waits = f", a batch not full waiting up to {wait:g} ms for another session's chunk" if wait else ""
    return f"on {device}, {per_call}{waits} ({server.get('source', 'as recorded')})"
