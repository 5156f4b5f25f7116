"""Real servers for the tests that need one (event streams, browsers): the app served by
uvicorn on a port the OS chose, in a thread of this process (sharing the test's clock)
or as a subprocess (a second replica). Waiting is always on a condition, bounded
(``tests/support/waiting.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from app.clock import Clock
from app.main import create_app
from app.settings import Settings
from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0


def _bound_socket() -> socket.socket:
    # TCP_NODELAY, inherited by every connection it accepts: the event loop sets it only
    # on sockets it made itself, and without it a kept-alive connection's every answer
    # after the first waited 40 ms for the client's delayed ACK (bench/webhook_sink.py).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


@contextlib.contextmanager
def thread_server(settings: Settings, clock: Clock) -> Iterator[str]:
    """The app (with ``clock``) served in a background thread; yields its base URL."""
    sock = _bound_socket()
    port = sock.getsockname()[1]
    app = create_app(settings, clock)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        wait_until(
            lambda: server.started,
            timeout=START_TIMEOUT,
            what="the test server to start",
            interval=0.02,
        )
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@contextlib.contextmanager
def served_process(
    command: list[str], env: dict[str, str], base: str, **popen: Any
) -> Iterator[subprocess.Popen[bytes]]:
    """Start ``command`` (a server), wait until ``base``/healthz answers (or give up when
    the process dies), and stop it at the end: terminate, then kill."""
    process = subprocess.Popen(command, cwd=ROOT, env=env, **popen)

    def healthy() -> bool:
        try:
            return httpx.get(f"{base}/healthz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def died() -> str | None:
        code = process.poll()
        return None if code is None else f"the server process exited with {code}"

    try:
        wait_until(
            healthy, timeout=START_TIMEOUT, what="the server process to answer", give_up=died
        )
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)


@contextlib.contextmanager
def process_server(database_url: str, extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """The app as its own process (another replica), on a socket bound here."""
    sock = _bound_socket()
    port = sock.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SCHEDULER_ENABLED": "false",
        **(extra_env or {}),
    }
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "app.main:app",
        "--fd",
        str(sock.fileno()),
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    base = f"http://127.0.0.1:{port}"
    try:
        with served_process(command, env, base, pass_fds=[sock.fileno()]):
            yield base
    finally:
        sock.close()


@dataclass
class EventStream:
    """A reader of one SSE stream: every event received, as it arrives."""

    events: list[dict[str, Any]] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    closed: asyncio.Event = field(default_factory=asyncio.Event)  # the server ended it

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float, what: str
    ) -> dict[str, Any]:
        async def found() -> dict[str, Any]:
            while True:
                for event in self.events:
                    if predicate(event):
                        return event
                self.changed.clear()
                await self.changed.wait()

        try:
            return await asyncio.wait_for(found(), timeout)
        except TimeoutError:
            kinds = [e["kind"] for e in self.events]
            raise AssertionError(f"no {what} within {timeout}s; got {kinds}") from None

    def kinds(self) -> list[str]:
        return [e["kind"] for e in self.events]


@contextlib.asynccontextmanager
async def open_stream(
    base: str, game_id: str, headers: dict[str, str] | None = None
) -> AsyncIterator[EventStream]:
    """Hold ``/stream`` open in the background while the block runs."""
    stream = EventStream()

    async def read() -> None:
        try:
            await receive()
        finally:
            stream.closed.set()

    async def receive() -> None:
        async with (
            httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(30, read=None)) as http,
            http.stream("GET", f"/api/v1/games/{game_id}/stream", headers=headers or {}) as r,
        ):
            assert r.status_code == 200, await r.aread()
            assert r.headers["content-type"].startswith("text/event-stream")
            event_id = ""
            async for line in r.aiter_lines():
                if line.startswith(": connected"):
                    stream.connected.set()
                elif line.startswith("id: "):
                    event_id = line[4:]
                elif line.startswith("data: "):
                    stream.events.append(json.loads(line[6:]))
                    stream.ids.append(event_id)
                    stream.changed.set()

    task = asyncio.create_task(read())
    try:
        done, _ = await asyncio.wait(
            {task, asyncio.create_task(stream.connected.wait())},
            timeout=START_TIMEOUT,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if task in done:
            task.result()  # raises what went wrong
        assert stream.connected.is_set(), "the stream did not connect"
        yield stream
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
