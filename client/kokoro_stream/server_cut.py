"""A speaker's replies whose text the server cuts into sentences (``Speaker(segment="server")``): each reply's
deltas go to a context of its own as they come (docs/protocol.md); after a reconnect, what of a reply no sentence
began yet goes to a new context, and a flush still awaited is asked again."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable

from kokoro_core.protocol import Append, End, Flush, Open

from .reply import Reply

StreamMessage = Open | Append | Flush | End


class ServerCutReplies:
    """The replies a speaker streams to contexts (``reply.TextStreamSink``), by context id, until the server says
    each has ended. ``send`` sends a message (a dropped connection is the speaker's to mend); ``connected`` waits
    until the session is open and raises its failure; ``busy`` tells the speaker a reply is under way."""

    def __init__(
        self,
        send: Callable[[StreamMessage], Awaitable[None]],
        connected: Callable[[], Awaitable[None]],
        busy: Callable[[], None],
        timeout: float,
    ) -> None:
        self._send = send
        self._connected = connected
        self._busy = busy
        self._timeout = timeout
        self._replies: dict[str, Reply] = {}  # whose context has not ended, by context id
        self._ids = (f"r{n}" for n in itertools.count(1))
        self._flushes: dict[str, tuple[Reply, asyncio.Future[None]]] = {}

    def __bool__(self) -> bool:
        return bool(self._replies)

    async def append(self, reply: Reply, delta: str) -> None:
        await self._connected()
        if reply.context is None:
            reply.context = next(self._ids)
            self._replies[reply.context] = reply
            self._busy()
            await self._send(Open(context=reply.context))
        unsent = reply.streamed[reply.sent_chars :]  # a reconnect may have sent it already
        reply.sent_chars = len(reply.streamed)
        if unsent:
            await self._send(Append(context=reply.context, text=unsent))

    async def end(self, reply: Reply) -> None:
        if reply.context is None:
            reply.stream_ended()  # nothing was fed
            return
        await self._send(End(context=reply.context))

    async def flush(self, reply: Reply) -> None:
        if reply.context is not None:
            await self._send(Flush(context=reply.context))

    async def flushed(self, reply: Reply) -> None:
        if reply.context is None:
            return
        flush_id = f"f{len(self._flushes) + 1}-{reply.context}"
        done = asyncio.get_running_loop().create_future()
        self._flushes[flush_id] = (reply, done)
        try:
            await self._send(Flush(context=reply.context, id=flush_id))
            await asyncio.wait_for(done, self._timeout)
        finally:
            self._flushes.pop(flush_id, None)

    async def resume(self) -> None:
        """After a reconnect: each reply's text that no sentence began yet goes to a new context."""
        for old, reply in list(self._replies.items()):
            del self._replies[old]
            reply.context = next(self._ids)
            self._replies[reply.context] = reply
            await self._send(Open(context=reply.context))
            reply.sent_chars = len(reply.streamed)
            reply.stream_base = reply.stream_chars  # the new context's text starts here
            if tail := reply.streamed[reply.stream_chars :]:
                await self._send(Append(context=reply.context, text=tail))
            if reply._stream_ending:
                await self._send(End(context=reply.context))
        for flush_id, (reply, _done) in self._flushes.items():
            if reply.context is not None:
                await self._send(Flush(context=reply.context, id=flush_id))

    def reply_of(self, context: str | None) -> Reply | None:
        return self._replies.get(context or "")

    def on_flushed(self, flush_id: str | None) -> None:
        """The server has spoken what was queued before the flush ``flush_id``."""
        _reply, done = self._flushes.get(flush_id or "", (None, None))
        if done is not None and not done.done():
            done.set_result(None)

    def on_ended(self, context: str) -> bool:
        """The server says ``context`` has ended: its reply has all its sentences. Whether it was one of ours."""
        reply = self._replies.pop(context, None)
        if reply is not None:
            reply.stream_ended()
        return reply is not None

    def fail(self, error: BaseException) -> None:
        for reply in self._replies.values():
            reply._fail(error)
        self._replies.clear()

    def clear(self) -> None:
        """A cancel ends every context on the server."""
        self._replies.clear()
