"""One due timer can never stop another (issue 7): a timer whose run raises is retried with
backoff, then parked with its game paused and the director told, while every other due
deadline closes in the same pass; a game whose timing is broken answers 409, not 500."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.models import Game, StepRow, Timer
from app.rules.registry import get_ruleset
from app.scheduler import RetryPolicy, run_due_timers
from app.services import games as games_service
from app.services import steps
from app.services.auth import Principal
from tests.service.helpers import TB_SETTINGS, bearer, ok, problem, team_battle

RETRY = RetryPolicy(max_attempts=3, base_seconds=10, max_seconds=60)
BUG_NAME = "故障兵"  # a player of the game whose ruleset raises


async def started_games(
    sessionmaker: async_sessionmaker[AsyncSession],
    count: int,
    now: datetime,
    names: tuple[str, str] = ("a", "b"),
) -> dict[str, str]:
    """``count`` started team battles (deployment due in an hour): game id -> director token."""
    director = Principal("director")
    games: dict[str, str] = {}
    async with sessionmaker() as session, session.begin():
        for i in range(count):
            created = await games_service.create_game(
                session, "team_battle", f"game {i}", dict(TB_SETTINGS), None, {}, now
            )
            game = await games_service.load_game(session, created["id"])
            await games_service.add_player(session, game, director, names[0], "A", now)
            await games_service.add_player(session, game, director, names[1], "B", now)
            await games_service.start_game(session, game, director, now)
            games[game.id] = created["director_token"]
    return games


async def poison(
    sessionmaker: async_sessionmaker[AsyncSession],
    game_id: str,
    settings: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """Write settings/options straight into the stored game, as no request may."""
    async with sessionmaker() as session, session.begin():
        game = await session.get(Game, game_id)
        assert game is not None and game.state is not None
        if settings:
            game.settings = {**game.settings, **settings}
            game.state = {**game.state, "settings": {**game.state["settings"], **settings}}
        if options:
            game.options = {**game.options, **options}


def ruleset_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """Team Battle raises (a bug, not a refusal) for any game with a player ``BUG_NAME``."""
    ruleset = type(get_ruleset("team_battle"))
    original = ruleset.apply

    def apply(self: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        if BUG_NAME in json.dumps(state, ensure_ascii=False):
            raise RuntimeError("ruleset bug")
        return original(self, state, *args, **kwargs)

    monkeypatch.setattr(ruleset, "apply", apply)


async def timer_steps(sessionmaker: async_sessionmaker[AsyncSession]) -> dict[str, list[datetime]]:
    async with sessionmaker() as session:
        rows = await session.execute(
            select(StepRow.game_id, StepRow.at).where(StepRow.kind == "timer")
        )
        found: dict[str, list[datetime]] = {}
        for game_id, at in rows.all():
            found.setdefault(game_id, []).append(at)
        return found


async def phase_timer(sessionmaker: async_sessionmaker[AsyncSession], game_id: str) -> Timer:
    async with sessionmaker() as session:
        timer = await session.scalar(
            select(Timer).where(Timer.game_id == game_id, Timer.kind == "phase")
        )
        assert timer is not None
        return timer


async def get(client: AsyncClient, game_id: str, path: str, token: str | None = None) -> Any:
    return ok(await client.get(f"/api/v1/games/{game_id}{path}", headers=bearer(token)))


async def test_a_failing_timer_is_retried_then_parked_while_100_others_close_on_time(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    good = await started_games(sessionmaker, 100, clock.now())
    broken = await started_games(sessionmaker, 1, clock.now())  # a duration past any date
    buggy = await started_games(sessionmaker, 1, clock.now(), ("a", BUG_NAME))
    huge_grace = await started_games(sessionmaker, 1, clock.now())
    [broken_id], [buggy_id], [grace_id] = list(broken), list(buggy), list(huge_grace)
    await poison(sessionmaker, broken_id, settings={"command_seconds": 1e12})
    options = {"missed_deadline": "pause", "missed_deadline_grace_seconds": 1e308}
    await poison(sessionmaker, grace_id, options=options)
    ruleset_bug(monkeypatch)
    deadline = clock.advance(3600)

    # One pass: every good deadline closes, at the deadline; the two bad ones are tried.
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 103
    closed = await timer_steps(sessionmaker)
    # Stored options past the bounds (no request may write them) are this game's failure too.
    assert set(closed) == set(good)
    assert all(at == [deadline] for at in closed.values())
    for game_id in good:
        assert (await get(client, game_id, ""))["phase"] == "command"
    for game_id in (broken_id, buggy_id, grace_id):
        summary = await get(client, game_id, "")
        assert (summary["status"], summary["phase"]) == ("running", "deployment")
        timer = await phase_timer(sessionmaker, game_id)
        assert timer.attempts == 1 and timer.failed_at is None
        assert timer.next_try_at == deadline + timedelta(seconds=10)
    assert "OverflowError" in (await phase_timer(sessionmaker, broken_id)).last_error  # type: ignore[operator]
    assert "ruleset bug" in (await phase_timer(sessionmaker, buggy_id)).last_error  # type: ignore[operator]
    assert "missed_deadline_grace_seconds" in (await phase_timer(sessionmaker, grace_id)).last_error  # type: ignore[operator]

    # Backoff: not before 10 s, then 20 s later; the third failure parks them.
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 0
    clock.advance(9)
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 0
    clock.advance(1)
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 3
    clock.advance(19)
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 0
    clock.advance(1)
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 3
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 0

    bad = (
        (broken_id, broken[broken_id]),
        (buggy_id, buggy[buggy_id]),
        (grace_id, huge_grace[grace_id]),
    )
    for game_id, token in bad:
        timer = await phase_timer(sessionmaker, game_id)
        assert timer.attempts == 3 and timer.failed_at == clock.now()
        summary = await get(client, game_id, "")
        assert (summary["status"], summary["phase"]) == ("paused", "deployment")
        told = [
            e for e in await get(client, game_id, "/events", token) if e["kind"] == "timer_failed"
        ]
        assert len(told) == 1
        assert told[0]["data"]["kind"] == "phase" and told[0]["data"]["key"] == "phase"
        assert told[0]["data"]["error"] == timer.last_error
        public = [e["kind"] for e in await get(client, game_id, "/events")]
        assert "timer_failed" not in public
        audit = await get(client, game_id, "/audit", token)
        assert [(a["actor"], a["action"]) for a in audit][-1] == ("system", "timer_failed")
        assert audit[-1]["payload"] == told[0]["data"]
        timers = await get(client, game_id, "/timers", token)
        assert timers[0]["failed_at"] is not None and timers[0]["attempts"] == 3

    # The director resumes: the parked timer runs again at once. Fixed (the bug is gone),
    # the phase closes; still broken, it is retried and parked again, never a 500.
    monkeypatch.undo()
    for game_id, token in bad:
        resumed = await client.post(f"/api/v1/games/{game_id}/resume", headers=bearer(token))
        assert ok(resumed)["status"] == "running"
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 3
    assert (await get(client, buggy_id, ""))["phase"] == "command"
    assert (await get(client, grace_id, ""))["phase"] == "deployment"
    assert (await get(client, broken_id, ""))["phase"] == "deployment"
    assert (await phase_timer(sessionmaker, broken_id)).attempts == 1


async def test_advance_and_the_last_ready_on_a_game_with_broken_timing_answer_409(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    game = await team_battle(client)
    await poison(sessionmaker, game.id, settings={"command_seconds": 1e12})
    before = await game.events("director")
    body = problem(await game.post("/advance", "director"), 409, "timing_broken")
    assert "时间" in body["detail"]
    english = await game.http.post(
        f"{game.url}/advance", headers={**bearer(game.director), "Accept-Language": "en"}
    )
    assert "timing is broken" in problem(english, 409, "timing_broken")["detail"]
    assert await game.events("director") == before
    ok(await game.post("/ready", "a1"))
    before = await game.events("director")
    problem(await game.post("/ready", "b1"), 409, "timing_broken")
    assert await game.events("director") == before
    assert (await game.summary())["phase"] == "deployment"
    async with sessionmaker() as session:
        steps_run = await session.scalar(
            select(func.count())
            .select_from(StepRow)
            .where(StepRow.game_id == game.id, StepRow.kind == "timer")
        )
    assert steps_run == 0


async def test_a_timer_whose_write_fails_does_not_roll_back_the_others(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    good = await started_games(sessionmaker, 5, clock.now())
    bad = await started_games(sessionmaker, 1, clock.now())
    [bad_id] = list(bad)
    original = steps.seal_receipts

    async def seal(session: AsyncSession, write: steps.StepWrite) -> None:
        await original(session, write)
        if write.game.id == bad_id:
            raise RuntimeError("write failed")

    monkeypatch.setattr(steps, "seal_receipts", seal)
    events_before = len(await get(client, bad_id, "/events", bad[bad_id]))
    clock.advance(3600)
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 6
    assert set(await timer_steps(sessionmaker)) == set(good)
    for game_id in good:
        assert (await get(client, game_id, ""))["phase"] == "command"
    # Nothing of the bad game's step survived; its timer waits for its retry.
    assert (await get(client, bad_id, ""))["phase"] == "deployment"
    assert len(await get(client, bad_id, "/events", bad[bad_id])) == events_before
    timer = await phase_timer(sessionmaker, bad_id)
    assert (timer.done_at, timer.attempts) == (None, 1)
    assert "write failed" in (timer.last_error or "")
    monkeypatch.undo()
    clock.advance(10)
    assert await run_due_timers(sessionmaker, clock, retry=RETRY) == 1
    assert (await get(client, bad_id, ""))["phase"] == "command"


async def test_two_concurrent_scheduler_passes_fire_each_timer_once(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    db_kind: str,
) -> None:
    if db_kind != "postgres":
        pytest.skip("two concurrent passes need row locks (PostgreSQL)")
    games = await started_games(sessionmaker, 120, clock.now())
    clock.advance(3600)
    ran = await asyncio.gather(
        run_due_timers(sessionmaker, clock, batch=10),
        run_due_timers(sessionmaker, clock, batch=10),
    )
    assert sum(ran) == 120
    assert all(ran)  # both passes took a share (SKIP LOCKED hands them disjoint games)
    closed = await timer_steps(sessionmaker)
    assert {game_id: len(at) for game_id, at in closed.items()} == dict.fromkeys(games, 1)
