"""Exactly once, across crashes and replicas; no acknowledged order is ever lost."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from httpx import AsyncClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.models import OrderRow, StepRow, Timer
from app.scheduler import run_due_timers
from app.services import games as games_service
from app.services.auth import Principal
from tests.service.helpers import TB_SETTINGS, ok, team_battle

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_A = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
DEPLOY_B = {"type": "deploy", "troops": [6, 6, 7, 5, 6]}


def worker(mode: str, url: str, clock: FakeClock) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.service.workers", mode, url, clock.now().isoformat()],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def timer_steps(
    sessionmaker: async_sessionmaker[AsyncSession], game_id: str | None = None
) -> int:
    async with sessionmaker() as session:
        query = select(func.count()).select_from(StepRow).where(StepRow.kind == "timer")
        if game_id:
            query = query.where(StepRow.game_id == game_id)
        return int(await session.scalar(query) or 0)


async def test_kill_9_while_resolving_a_due_phase_resolves_it_once_on_restart(
    client: AsyncClient,
    clock: FakeClock,
    database_url: str,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    acknowledged = [await game.order("a1", DEPLOY_A), await game.order("b1", DEPLOY_B)]
    clock.advance(3600)

    proc = worker("crash", database_url, clock)
    _, err = await asyncio.to_thread(proc.communicate, timeout=120)
    assert proc.returncode == -signal.SIGKILL, err

    # Nothing of the half-done resolution survived; the acknowledged orders did.
    assert (await game.view("director"))["phase"] == "deployment"
    assert await timer_steps(sessionmaker, game.id) == 0
    orders = ok(await game.get("/orders", "director"))
    assert sorted(o["id"] for o in orders) == sorted(o["id"] for o in acknowledged)

    # The restarted scheduler resolves the phase, once.
    assert await run_due_timers(sessionmaker, clock) == 1
    assert await run_due_timers(sessionmaker, clock) == 0
    view = await game.view("a1")
    assert view["phase"] == "command"
    assert view["sides"]["A"]["slots"] == [4, 7, 8, 6, 5]
    assert view["sides"]["B"]["slots"] == [6, 6, 7, 5, 6]
    assert await timer_steps(sessionmaker, game.id) == 1


async def _many_games(
    sessionmaker: async_sessionmaker[AsyncSession], count: int, clock: FakeClock
) -> list[str]:
    director = Principal("director")
    ids = []
    async with sessionmaker() as session, session.begin():
        for i in range(count):
            created = await games_service.create_game(
                session, "team_battle", f"race {i}", dict(TB_SETTINGS), None, {}, clock.now()
            )
            game = await games_service.load_game(session, created["id"])
            await games_service.add_player(session, game, director, "a", "A", clock.now())
            await games_service.add_player(session, game, director, "b", "B", clock.now())
            await games_service.start_game(session, game, director, clock.now())
            ids.append(game.id)
    return ids


async def test_two_scheduler_workers_race_over_200_due_deadlines_each_runs_once(
    client: AsyncClient,
    clock: FakeClock,
    database_url: str,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    ids = await _many_games(sessionmaker, 200, clock)
    clock.advance(3600)
    procs = [worker("run", database_url, clock), worker("run", database_url, clock)]
    results = [await asyncio.to_thread(p.communicate, timeout=600) for p in procs]
    for proc, (_out, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err
    ran = [int(out.strip().splitlines()[-1]) for out, _ in results]
    assert sum(ran) == 200
    async with sessionmaker() as session:
        per_game = dict(
            (
                await session.execute(
                    select(StepRow.game_id, func.count())
                    .where(StepRow.kind == "timer")
                    .group_by(StepRow.game_id)
                )
            ).all()
        )
        pending_due = await session.scalar(
            select(func.count())
            .select_from(Timer)
            .where(Timer.done_at.is_(None), Timer.due_at <= clock.now())
        )
    assert per_game == dict.fromkeys(ids, 1)
    assert pending_due == 0


async def test_an_order_at_the_deadline_is_in_the_resolution_or_refused_never_dropped(
    client: AsyncClient, clock: FakeClock, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    for offset in (
        timedelta(milliseconds=-1),
        timedelta(0),
        timedelta(milliseconds=-1),
        timedelta(0),
    ):
        game = await team_battle(client)
        await game.order("b1", DEPLOY_B)
        deadline = (await game.summary())["deadline"]
        clock.set(datetime.fromisoformat(deadline) + offset)
        submit, _ = await asyncio.gather(
            game.post("/orders", "a1", DEPLOY_A), run_due_timers(sessionmaker, clock)
        )
        clock.set(datetime.fromisoformat(deadline))
        await run_due_timers(sessionmaker, clock)
        view = await game.view("director")
        assert view["phase"] == "command"
        async with sessionmaker() as session:
            stored = (
                await session.scalars(
                    select(OrderRow).where(OrderRow.game_id == game.id, OrderRow.side == "A")
                )
            ).all()
        if submit.status_code == 201:
            # Acknowledged: it is the deployment that was resolved.
            assert [o.id for o in stored] == [submit.json()["id"]]
            assert view["sides"]["A"]["slots"] == [4, 7, 8, 6, 5]
        else:
            assert submit.status_code == 409, submit.text
            assert submit.json()["code"] in {"deadline_passed", "wrong_phase"}
            assert stored == []
            assert view["sides"]["A"]["slots"] != [4, 7, 8, 6, 5]
