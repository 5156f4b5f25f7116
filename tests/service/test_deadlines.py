"""Deadlines that keep themselves: by the clock, early when ready, by the director,
paused and resumed, extended, and missed while the service was down."""

from __future__ import annotations

from datetime import datetime

from httpx import ASGITransport, AsyncClient
from sqlalchemy import func, select

from app.clock import FakeClock
from app.main import create_app
from app.models import StepRow
from app.scheduler import run_due_timers
from tests.service.helpers import ok, problem, team_battle, tick

DEPLOY_A = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
DEPLOY_B = {"type": "deploy", "troops": [6, 6, 7, 5, 6]}


def at(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


async def test_a_phase_closes_at_its_deadline_by_itself(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    started = clock.now()
    summary = await game.summary()
    assert (at(summary["deadline"]) - started).total_seconds() == 3600
    await game.order("a1", DEPLOY_A)
    await game.order("b1", DEPLOY_B)
    assert await tick(client, clock, 3599) == 0
    assert (await game.view("a1"))["phase"] == "deployment"
    assert await tick(client, clock, 1) == 1
    view = await game.view("a1")
    assert view["phase"] == "command"
    assert view["round"] == 1
    assert (at(view["deadline"]) - clock.now()).total_seconds() == 3600
    # Deployments are revealed once both sides deployed (TB-10).
    assert view["sides"]["B"]["slots"] == [6, 6, 7, 5, 6]


async def test_a_phase_closes_early_when_every_side_is_ready(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    await game.order("a1", DEPLOY_A)
    await game.order("b1", DEPLOY_B)
    await game.ready("a1")
    assert (await game.view("b1"))["phase"] == "deployment"
    await game.ready("b1")
    assert (await game.view("b1"))["phase"] == "command"
    # The old deadline is gone: nothing runs when it would have been due.
    clock.advance(3599)
    assert await tick(client, clock, 0) == 0
    assert (await game.view("b1"))["phase"] == "command"


async def test_the_director_advances_a_phase_now(client: AsyncClient) -> None:
    game = await team_battle(client)
    await game.order("a1", DEPLOY_A)
    await game.order("b1", DEPLOY_B)
    problem(await game.post("/advance", "a1"), 403, "forbidden")
    advanced = ok(await game.post("/advance", "director"))
    assert advanced["game"]["phase"] == "command"
    audit = ok(await game.get("/audit", "director"))
    assert [a["action"] for a in audit][-1] == "advance"


async def test_pause_keeps_the_remaining_time(client: AsyncClient, clock: FakeClock) -> None:
    game = await team_battle(client)
    await tick(client, clock, 1000)
    paused = ok(await game.post("/pause", "director"))
    assert paused["status"] == "paused"
    assert paused["deadline"] is None
    assert paused["deadline_remaining_seconds"] == 2600
    assert await tick(client, clock, 10_000) == 0
    assert (await game.view("a1"))["phase"] == "deployment"
    problem(await game.post("/orders", "a1", DEPLOY_A), 409, "game_paused")
    resumed = ok(await game.post("/resume", "director"))
    assert (at(resumed["deadline"]) - clock.now()).total_seconds() == 2600
    await game.order("a1", DEPLOY_A)
    assert await tick(client, clock, 2600) == 1
    assert (await game.view("a1"))["phase"] == "command"
    kinds = [e["kind"] for e in await game.events()]
    assert "paused" in kinds and "resumed" in kinds


async def test_the_director_extends_a_deadline_up_to_the_cap(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client, options={"max_extensions_per_deadline": 1})
    before = at((await game.summary())["deadline"])
    extended = ok(await game.post("/deadline", "director", {"seconds": 900}))
    assert (at(extended["deadline"]) - before).total_seconds() == 900
    problem(await game.post("/deadline", "director", {"seconds": 900}), 409, "extension_limit")
    problem(await game.post("/deadline", "a1", {"seconds": 900}), 403, "forbidden")
    assert await tick(client, clock, 3600) == 0
    assert await tick(client, clock, 900) == 1


async def test_an_order_after_the_deadline_is_refused_not_dropped(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    clock.advance(3600)  # due, but the scheduler has not run yet
    body = problem(await game.post("/orders", "a1", DEPLOY_A), 409, "deadline_passed")
    assert body["detail"]
    assert ok(await game.get("/orders", "a1")) == []


async def test_a_deadline_missed_while_down_runs_on_restart_exactly_once(
    client: AsyncClient,
    clock: FakeClock,
    settings,
    engine,
    sessionmaker,  # type: ignore[no-untyped-def]
) -> None:
    game = await team_battle(client)
    await game.order("a1", DEPLOY_A)
    await game.order("b1", DEPLOY_B)
    # The service is down for five hours; a new process starts.
    clock.advance(5 * 3600)
    restarted = create_app(settings, clock)
    restarted.state.engine = engine
    restarted.state.sessionmaker = sessionmaker
    assert await run_due_timers(sessionmaker, clock) == 1
    assert await run_due_timers(sessionmaker, clock) == 0
    async with AsyncClient(transport=ASGITransport(app=restarted), base_url="http://r") as http:
        view = ok(await http.get(f"{game.url}/view"))
    assert view["phase"] == "command"
    async with sessionmaker() as session:
        timer_steps = await session.scalar(
            select(func.count())
            .select_from(StepRow)
            .where(StepRow.game_id == game.id, StepRow.kind == "timer")
        )
    assert timer_steps == 1


async def test_a_missed_deadline_can_pause_the_game_and_tell_the_director(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(
        client, options={"missed_deadline": "pause", "missed_deadline_grace_seconds": 60}
    )
    clock.advance(3600 + 61)
    assert await tick(client, clock, 0) == 1
    summary = await game.summary()
    assert summary["status"] == "paused"
    assert summary["phase"] == "deployment"
    director_kinds = [e["kind"] for e in await game.events("director")]
    assert "deadline_missed" in director_kinds
    assert "deadline_missed" not in [e["kind"] for e in await game.events("a1")]
    resumed = ok(await game.post("/resume", "director"))
    assert resumed["deadline"] is not None
