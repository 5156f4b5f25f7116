"""How ``forumplay serve`` serves: uvicorn's h11 protocol, with the limits uvicorn lacks.

Served directly (``make run``, ``forumplay serve``), nothing timed out slow headers or
bodies, and a 200 KB header or 2,000 headers were accepted (issue 16 item 37). uvicorn
0.54 bounds the header block's size (``h11_max_incomplete_event_size``, h11 only, so the
h11 protocol is chosen over httptools) and idle keep-alive connections, nothing more.
This protocol adds, from the settings:

- at most ``serve_max_headers`` header lines (more: 400 and the connection closed);
- a request's headers must arrive within ``serve_header_timeout_seconds`` of the
  connection opening or the previous answer (slowloris);
- its body within ``serve_body_timeout_seconds`` of its headers, else the connection is
  closed (the app sees the client go away).

Behind a reverse proxy (docs/operations.md) the proxy's own limits apply first.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.settings import Settings


class GuardedH11Protocol(H11Protocol):
    max_headers = 100
    header_timeout = 10.0
    body_timeout = 30.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        parse = self.conn.next_event

        def next_event() -> Any:
            event = parse()
            if isinstance(event, h11.Request):
                self._cancel_timers()
                if len(event.headers) > self.max_headers:
                    raise h11.RemoteProtocolError("too many headers", error_status_hint=431)
                self._body_timer = self.loop.call_later(self.body_timeout, self._body_too_slow)
            elif isinstance(event, h11.EndOfMessage):
                self._cancel_timers()
            return event

        self.conn.next_event = next_event  # type: ignore[method-assign]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._wait_for_headers()  # the next request on this connection

    def _wait_for_headers(self) -> None:
        self._cancel_timers()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _cancel_timers(self) -> None:
        for timer in (self._header_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._header_timer = self._body_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.cycle is None or self.cycle.response_complete:
            self.transport.close()

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if self.cycle is not None and self.cycle.more_body:
            self.transport.close()


def protocol_for(settings: Settings) -> type[GuardedH11Protocol]:
    """The protocol class with this service's limits."""
    return type(
        "ForumplayH11Protocol",
        (GuardedH11Protocol,),
        {
            "max_headers": settings.serve_max_headers,
            "header_timeout": settings.serve_header_timeout_seconds,
            "body_timeout": settings.serve_body_timeout_seconds,
        },
    )


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """What ``forumplay serve`` hands uvicorn besides the app, host and port."""
    return {
        "http": protocol_for(settings),
        "h11_max_incomplete_event_size": settings.serve_max_header_bytes,
        "timeout_keep_alive": 5,
        "proxy_headers": True,
        "access_log": False,
    }
