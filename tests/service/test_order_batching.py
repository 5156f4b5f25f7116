"""Submissions that arrive together share a transaction, yet each is judged on its own."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import AppError
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


def _counting_batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many steps each committed batch wrote, in commit order."""
    sizes: list[int] = []
    original = batcher_module.persist_steps

    async def counting(session: Any, writes: list[Any]) -> None:
        sizes.append(len(writes))
        await original(session, writes)

    monkeypatch.setattr(batcher_module, "persist_steps", counting)
    return sizes


async def _statuses(game: Game) -> dict[str, str]:
    return {o["id"]: o["status"] for o in ok(await game.get("/orders", "director"))}


async def test_concurrent_orders_are_each_accepted_or_refused_on_their_own(
    client: AsyncClient,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    games = [await team_battle(client) for _ in range(4)]
    calls = []
    for game in games:
        calls += [game.post("/orders", "a1", GOOD), game.post("/orders", "b1", BAD)]
        calls.append(game.post("/orders", "a2", GOOD))  # the same side's deployment again
    responses = await asyncio.gather(*calls)
    for i, game in enumerate(games):
        first, bad, second = responses[3 * i : 3 * i + 3]
        ok(first, 201)
        assert problem(bad, 409, "bad_deployment")["rule"] == "TB-10"
        ok(second, 201)
        assert await stored(sessionmaker, game) == 2
        # Concurrent requests promise no order between them: whichever of side A's two
        # deployments was applied last replaced the other; B has none.
        statuses = await _statuses(game)
        assert set(statuses) == {first.json()["id"], second.json()["id"]}
        assert sorted(statuses.values()) == ["pending", "replaced"]


async def test_a_games_orders_apply_in_arrival_order_while_games_share_batches(
    client: AsyncClient,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Submissions reach the batcher in a known order (each queues before the worker
    runs), so the order a game's orders apply in is checked without racing."""
    sizes = _counting_batches(monkeypatch)
    batcher = client.app.state.batcher  # type: ignore[attr-defined]
    games = [await team_battle(client) for _ in range(4)]
    second_deploy = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}
    calls = []
    for game in games:
        calls += [
            batcher.submit(game.id, game.token("a1"), GOOD),
            batcher.submit(game.id, game.token("b1"), BAD),
            batcher.submit(game.id, game.token("a2"), second_deploy),
        ]
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    for i, game in enumerate(games):
        first, bad, second = outcomes[3 * i : 3 * i + 3]
        assert isinstance(first, dict) and isinstance(second, dict), (first, second)
        assert isinstance(bad, AppError) and (bad.code, bad.rule) == ("bad_deployment", "TB-10")
        # The later arrival was applied last: it replaced the earlier one and stands.
        assert await _statuses(game) == {first["id"]: "replaced", second["id"]: "pending"}
        orders = {o["status"]: o["body"] for o in ok(await game.get("/orders", "director"))}
        assert orders["pending"] == second_deploy
        assert await stored(sessionmaker, game) == 2
    # The four games' orders were written together, one batch per position in the queue.
    assert sorted(sizes, reverse=True)[:2] == [4, 4]


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


async def test_a_worker_leaves_a_few_waiting_orders_to_the_batch_still_running(
    client: AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that finishes while another is mid-batch does not write the one or two
    orders that queued meanwhile as a batch of their own: they join the running worker's
    next batch (a batch's statements cost nearly the same for one order as for eight)."""
    batcher = client.app.state.batcher  # type: ignore[attr-defined]
    monkeypatch.setattr(batcher, "_spawn_at", 4)  # (8 by default: fewer games to make)
    sizes: list[int] = []
    gates = [asyncio.Event() for _ in range(3)]
    reached = [asyncio.Event() for _ in range(3)]
    original = batcher_module.persist_steps

    async def gated(session: Any, writes: list[Any]) -> None:
        turn = len(sizes)
        sizes.append(len(writes))
        reached[turn].set()
        await gates[turn].wait()
        await original(session, writes)

    games = [await team_battle(client) for _ in range(7)]
    monkeypatch.setattr(batcher_module, "persist_steps", gated)

    def submit(game: Game) -> asyncio.Task[dict[str, Any]]:
        return asyncio.create_task(batcher.submit(game.id, game.token("a1"), GOOD))

    first = submit(games[0])
    await reached[0].wait()  # worker 1 is writing a batch of one
    backed_up = [submit(g) for g in games[1:5]]
    for _ in range(100):  # four waiting start worker 2, which takes them
        if len(batcher._busy_games) == 5:
            break
        await asyncio.sleep(0)  # (a turn of the loop, not a wait)
    assert len(batcher._busy_games) == 5 and not batcher._queue
    few = [submit(g) for g in games[5:7]]  # two more: too few for a third worker
    gates[0].set()
    await first
    # Worker 1 is done; worker 2 is still writing: the two wait for it.
    assert sizes[2:] == [] and not any(t.done() for t in few)
    assert len(batcher._workers) == 1
    gates[1].set()
    gates[2].set()
    for task in [*backed_up, *few]:
        assert (await task)["status"] == "pending"
    assert sizes == [1, 4, 2]
