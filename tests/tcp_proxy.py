"""A loopback TCP proxy that can cut every connection through it, to test reconnection for real."""

from __future__ import annotations

import asyncio


class TcpProxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.connections = 0
        self._writers: list[asyncio.StreamWriter] = []
        self._server: asyncio.base_events.Server | None = None

    async def __aenter__(self) -> TcpProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.drop()
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    def drop(self) -> None:
        """Abort every open connection, as a network failure would."""
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers += [client_writer, server_writer]

        async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.transport.abort()

        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
