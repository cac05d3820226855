"""gunicorn's worker for config.asgi: uvicorn's event loop in each of gunicorn's processes.

A slow client costs the loop a connection, never the worker's thread; and a request that is not
whole (its line, headers and body) REQUEST_READ_TIMEOUT seconds (default 60) after the
connection opened, or after the previous answer on a kept-alive connection, is closed: a client
dribbling a header line every few seconds no longer holds even a connection for ever.
"""

from __future__ import annotations

import asyncio
import os

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn_worker import UvicornWorker

REQUEST_READ_TIMEOUT = float(os.environ.get("REQUEST_READ_TIMEOUT", "60"))


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11), with a deadline for reading each request."""

    _read_deadline = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's own: asyncio.Protocol takes a BaseTransport
        super().connection_made(transport)
        self._arm_read_deadline()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
            self._disarm_read_deadline()  # the request is whole (or the connection is ending)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_read_deadline()  # the next request on this connection, if any

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_read_deadline()
        super().connection_lost(exc)

    def _arm_read_deadline(self) -> None:
        self._disarm_read_deadline()
        self._read_deadline = self.loop.call_later(REQUEST_READ_TIMEOUT, self._read_timed_out)

    def _disarm_read_deadline(self) -> None:
        if self._read_deadline is not None:
            self._read_deadline.cancel()
            self._read_deadline = None

    def _read_timed_out(self) -> None:
        self._read_deadline = None
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE or self.conn.their_state is h11.SEND_BODY:
            self.logger.info(
                "Closed a connection whose request was not whole within %s s.", REQUEST_READ_TIMEOUT
            )
            self.transport.close()  # the app, if it was waiting for the body, hears a disconnect


class Worker(UvicornWorker):
    CONFIG_KWARGS = {
        # The standard library's loop and uvicorn's pure-Python HTTP parser (h11): no compiled
        # extras to install, and h11 refuses a request line and headers over 16 kB.
        "loop": "asyncio",
        "http": TimedH11Protocol,
        # Django has no lifespan events; without this uvicorn logs that it tried.
        "lifespan": "off",
        # The client address stays the socket's: X-Forwarded-For is read by the app alone
        # (TRUSTED_PROXY_COUNT), never rewritten by the server from what a client wrote.
        "proxy_headers": False,
        "server_header": False,
    }
