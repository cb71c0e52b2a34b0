"""The protocol over a plain WebSocket: the local server, or anything speaking the protocol."""

from __future__ import annotations

import json

import aiohttp

from kokoro_core.protocol import ClientMessage
from kokoro_core.server_messages import Ready

from .transport import Audio, Event, TransportClosed, control, ready_message


class WebSocketTransport:
    def __init__(self, url: str, connect_timeout: float = 10.0) -> None:
        self.url = url
        self._timeout = aiohttp.ClientTimeout(total=None, connect=connect_timeout, sock_connect=connect_timeout)
        self._http: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None

    async def connect(self, hello: ClientMessage) -> Ready:
        await self.close()
        self._http = aiohttp.ClientSession(timeout=self._timeout)
        try:
            self._ws = await self._http.ws_connect(self.url, heartbeat=30, max_msg_size=0)
        except (aiohttp.ClientError, OSError) as error:
            await self.close()
            raise TransportClosed(f"cannot open a session at {self.url}: {error}") from error
        ready = ready_message(await self.receive(), self.url)
        await self.send(hello)
        return ready

    async def send(self, message: ClientMessage) -> None:
        if self._ws is None or self._ws.closed:
            raise TransportClosed("the session is not open")
        try:
            await self._ws.send_str(json.dumps(message.wire()))
        except (ConnectionError, aiohttp.ClientError) as error:
            raise TransportClosed(f"sending failed: {error}") from error

    async def receive(self) -> Event:
        if self._ws is None:
            raise TransportClosed("the session is not open")
        while True:
            message = await self._ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                return Audio(message.data)
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            if (event := control(json.loads(message.data))) is not None:
                return event
        code = self._ws.close_code
        raise TransportClosed(f"the session closed (code {code}{': ' + str(message.extra) if message.extra else ''})")

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
            self._ws = None
        if self._http is not None:
            await self._http.close()
            self._http = None
