"""PostgreSQL: an order's "new events" notice travels with the batch's write (one round
trip less) and is still delivered if and only if the transaction commits, once per game,
carrying the game's last event seq."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.live import CHANNEL
from app.services import games as games_service
from app.services import orders as orders_service
from app.services.auth import principal_for
from tests.service.helpers import Game, ok, team_battle

GOOD = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}


class Listener:
    def __init__(self) -> None:
        self.notices: asyncio.Queue[str] = asyncio.Queue()
        self.conn: Any = None

    async def start(self, url: str) -> None:
        self.conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
        await self.conn.add_listener(CHANNEL, lambda *args: self.notices.put_nowait(args[3]))

    async def next(self) -> str:
        return await asyncio.wait_for(self.notices.get(), timeout=30)

    async def close(self) -> None:
        await self.conn.close()


async def event_seq(client: AsyncClient, game: Game) -> int:
    events = ok(await game.get("/events?after=0", "director"))
    return max(e["seq"] for e in events)


async def test_a_batch_notice_is_sent_with_its_write_and_only_if_it_commits(
    client: AsyncClient,
    sessionmaker: async_sessionmaker[AsyncSession],
    database_url: str,
    db_kind: str,
) -> None:
    if db_kind == "sqlite":
        pytest.skip("notices are PostgreSQL's (SQLite hands them to this process's hubs)")
    first, second = await team_battle(client), await team_battle(client)
    listener = Listener()
    await listener.start(database_url)
    try:
        # A step written, notice taken into the write, then the transaction rolled back.
        with pytest.raises(RuntimeError, match="rolled back"):
            async with sessionmaker() as session, session.begin():
                game = await games_service.load_game(session, first.id, lock=True)
                who = await principal_for(session, game, first.token("a1"), None)
                await orders_service.submit_order(session, game, who, GOOD, game.updated_at)
                raise RuntimeError("rolled back")
        # Then one batch of two orders, in two games, committed.
        answers = await asyncio.gather(
            first.post("/orders", "a1", GOOD), second.post("/orders", "b1", GOOD)
        )
        for answer in answers:
            ok(answer, 201)
        got = {await listener.next(), await listener.next()}
        assert got == {
            f"{first.id} {await event_seq(client, first)}",
            f"{second.id} {await event_seq(client, second)}",
        }
        # Nothing else was sent: the next notice is the next commit's.
        ok(await first.post("/orders", "a2", GOOD), 201)
        assert await listener.next() == f"{first.id} {await event_seq(client, first)}"
    finally:
        await listener.close()
