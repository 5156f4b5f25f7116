"""Hundreds of streams torn down at once never leave the database locked (issue 16 item 31).

Once, on SQLite, 200 open ``/stream`` connections closed at the same instant ~20 ms after a
pause/resume; from then on every database request waited 30 s and answered 503 ``database
is locked``, the scheduler too, until a restart: a transaction left open by work that was
cancelled when its clients went away. Here: a real server, hundreds of raw connections
reset together right after the events they were about to receive, several times; then
the service must still answer a write promptly and the scheduler must still close a phase.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.models import Game
from app.settings import Settings
from tests.service.live_server import thread_server
from tests.support.waiting import wait_until_async

STREAMS = 200
ROUNDS = 6
PROMPT = 5.0  # a write after the teardown: well under SQLite's 30 s busy timeout
WAIT = 30.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def live(settings: Settings, clock: FakeClock) -> Iterator[str]:
    served = settings.model_copy(
        update={"scheduler_enabled": True, "scheduler_interval_seconds": 0.05}
    )
    with thread_server(served, clock) as base:
        yield base


async def _open(base: str, path: str, token: str) -> tuple[asyncio.StreamReader, Any]:
    """A raw stream connection, read up to its first line (``: connected``)."""
    parts = urlsplit(base)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    seen = b""
    while b": connected" not in seen:
        chunk = await reader.read(4096)
        assert chunk, seen
        seen += chunk
    return reader, writer


async def _until(reader: asyncio.StreamReader, kind: str) -> None:
    """Read one stream until an event of ``kind`` arrives."""
    seen = b""
    while f'"kind":"{kind}"'.encode() not in seen:
        chunk = await reader.read(65536)
        assert chunk, seen
        seen += chunk


async def _call(http: httpx.AsyncClient, method: str, url: str, token: str, **kw: Any) -> Any:
    started = time.monotonic()
    response = await http.request(method, url, headers={"Authorization": f"Bearer {token}"}, **kw)
    took = time.monotonic() - started
    assert response.status_code in (200, 201), (response.status_code, response.text)
    return response.json(), took


async def test_hundreds_of_streams_torn_down_at_once_leave_the_service_answering(
    live: str, clock: FakeClock
) -> None:
    async with httpx.AsyncClient(base_url=live, timeout=WAIT) as http:
        created = (
            await http.post("/api/v1/games", json={"ruleset": "team_battle", "title": "拆除"})
        ).json()
        game, director = created["id"], created["director_token"]
        url = f"/api/v1/games/{game}"
        for name, side in (("a", "A"), ("b", "B")):
            await _call(http, "POST", f"{url}/players", director, json={"name": name, "side": side})
        await _call(http, "POST", f"{url}/start", director)

        for round_ in range(ROUNDS):
            opened = await asyncio.wait_for(
                asyncio.gather(*(_open(live, f"{url}/stream", director) for _ in range(STREAMS))),
                timeout=WAIT * 2,
            )
            await _call(http, "POST", f"{url}/pause", director)
            resume = asyncio.create_task(_call(http, "POST", f"{url}/resume", director))
            if round_ % 2:  # the moment the first stream hears of the resume ...
                await asyncio.wait_for(_until(opened[0][0], "resumed"), timeout=WAIT)
            # ... or while the resume is still being made: the streams' feed is reading
            for _reader, writer in opened:  # every client goes away at the same instant
                writer.transport.abort()
            await resume
            for _reader, writer in opened:
                with contextlib.suppress(Exception):
                    writer.close()

        # The service still writes, promptly.
        _, took = await _call(http, "POST", f"{url}/pause", director)
        assert took < PROMPT, f"a write after the teardown took {took:.1f} s"
        _, took = await _call(http, "POST", f"{url}/resume", director)
        assert took < PROMPT, f"a write after the teardown took {took:.1f} s"
        assert (await http.get("/readyz")).status_code == 200

        # And the scheduler still runs: the deployment phase closes by its deadline.
        view, _ = await _call(http, "GET", f"{url}/view", director)
        phase = view["phase"]
        clock.advance(7 * 24 * 3600)

        async def moved_on() -> bool:
            view, _ = await _call(http, "GET", f"{url}/view", director)
            return bool(view["phase"] != phase)

        await wait_until_async(moved_on, timeout=WAIT, what="the scheduler to close the phase")


CANCELLATIONS = 300


async def test_a_cancelled_transaction_always_releases_its_connection_and_lock(
    engine: AsyncEngine, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """The window itself: a task cancelled at any point of its transaction (its statement
    running, its rows being fetched, its rollback) — then a write must get through at
    once. SQLite kept a cancelled statement's cursor alive, and with it the closed
    connection, its transaction and the write lock, until the garbage collector ran;
    the app freezes the collector's generations (``gc.freeze``), as here."""
    rng = random.Random(16)

    async def work(write: bool) -> None:
        async with sessionmaker() as session, session.begin():
            await session.scalar(select(func.count()).select_from(Game))
            if write:
                await session.execute(text("UPDATE games SET title = title WHERE id = ''"))

    gc.freeze()
    try:
        for attempt in range(CANCELLATIONS):
            task = asyncio.create_task(work(write=attempt % 2 == 1))
            for _ in range(rng.randrange(40)):  # cancelled after a random number of turns
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            try:
                async with asyncio.timeout(PROMPT), sessionmaker() as session, session.begin():
                    await session.execute(text("UPDATE games SET title = title WHERE id = ''"))
            except TimeoutError:
                raise AssertionError(
                    f"after cancellation {attempt + 1} the database stayed locked"
                ) from None
    finally:
        gc.unfreeze()
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
