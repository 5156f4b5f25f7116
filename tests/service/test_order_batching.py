"""Submissions that arrive together share a transaction, yet each is judged on its own."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import OrderRow
from app.services import batcher as batcher_module
from tests.service.helpers import Game, ok, problem, team_battle

GOOD = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
BAD = {"type": "deploy", "troops": [30, 0, 0, 0, 0]}  # TB-10: every slot needs a troop


async def stored(sessionmaker: async_sessionmaker[AsyncSession], game: Game) -> int:
    async with sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).select_from(OrderRow).where(OrderRow.game_id == game.id)
        )
    return int(count or 0)


async def test_concurrent_orders_are_each_accepted_or_refused_on_their_own(
    client: AsyncClient,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sizes: list[int] = []
    original = batcher_module.persist_steps

    async def counting(session: Any, writes: list[Any]) -> None:
        sizes.append(len(writes))
        await original(session, writes)

    monkeypatch.setattr(batcher_module, "persist_steps", counting)
    games = [await team_battle(client) for _ in range(4)]
    calls = []
    for game in games:
        calls += [game.post("/orders", "a1", GOOD), game.post("/orders", "b1", BAD)]
        calls.append(game.post("/orders", "a2", GOOD))  # same game: waits for the next batch
    responses = await asyncio.gather(*calls)
    for i, game in enumerate(games):
        first, bad, second = responses[3 * i : 3 * i + 3]
        ok(first, 201)
        assert problem(bad, 409, "bad_deployment")["rule"] == "TB-10"
        ok(second, 201)
        assert await stored(sessionmaker, game) == 2
        # A's second deploy replaced the first (in submission order); B has none.
        statuses = {o["id"]: o["status"] for o in ok(await game.get("/orders", "director"))}
        assert statuses == {first.json()["id"]: "replaced", second.json()["id"]: "pending"}
    assert max(sizes) > 1  # they really were written together


async def test_a_failed_batch_is_retried_order_by_order(
    client: AsyncClient,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = batcher_module.persist_steps

    async def fail_when_shared(session: Any, writes: list[Any]) -> None:
        if len(writes) > 1:
            raise RuntimeError("the database went away mid-batch")
        await original(session, writes)

    monkeypatch.setattr(batcher_module, "persist_steps", fail_when_shared)
    games = [await team_battle(client) for _ in range(3)]
    responses = await asyncio.gather(*(g.post("/orders", "a1", GOOD) for g in games))
    for game, response in zip(games, responses, strict=True):
        assert ok(response, 201)["status"] == "pending"
        assert await stored(sessionmaker, game) == 1
