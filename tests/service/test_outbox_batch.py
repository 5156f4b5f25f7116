"""A scheduler batch publishes its games together (issue 11): every game gets exactly the
posts and deliveries it would get alone, and closing many games does not cost a query
per game."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app.clock import FakeClock
from app.models import Timer
from app.publish import outbox
from app.publish.models import PostRow, PublishingRow
from app.publish.timers import REMINDER, TALLY
from app.scheduler import run_due_timers
from tests.service.helpers import TB_SETTINGS, Game, ok, team_battle
from tests.service.publish_helpers import posts, webhook_channel

DEPLOY_A = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}
DEPLOY_B = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
PHASE = 3600  # TB_SETTINGS: the deployment deadline, an hour after start


async def deployed(
    client: AsyncClient,
    channels: tuple[str, ...] = (),
    review: bool = False,
    settings: dict[str, Any] | None = None,
    reminders: tuple[int, ...] = (),
) -> Game:
    """A started team battle, both sides deployed, with channels of these kinds (and
    reminders this many seconds before each deadline)."""
    game = await team_battle(client, settings)
    for i, kind in enumerate(channels):
        if kind == "webhook":
            await webhook_channel(game, f"channel {i}")
        else:
            body = {"kind": kind, "name": f"channel {i}"}
            ok(await game.post("/channels", "director", body), 201)
    if review:
        ok(await game.put("/publishing", "director", {"review": "always"}))
    if reminders:
        ok(await game.put("/reminders", "director", {"before_seconds": list(reminders)}))
    await game.order("a1", DEPLOY_A)
    await game.order("b1", DEPLOY_B)
    return game


async def before_the_deadline(
    sessionmaker: async_sessionmaker[AsyncSession], clock: FakeClock, seconds: int
) -> None:
    """Run what falls due until the deadline ``seconds`` from now (the reminders: nobody is
    waiting), then move to the deadline."""
    clock.advance(seconds - 1)
    await run_due_timers(sessionmaker, clock)
    clock.advance(1)


def publish_apart(monkeypatch: pytest.MonkeyPatch, alone: set[str]) -> list[set[str]]:
    """Make the outbox publish the games in ``alone`` one game at a time (as it did before
    batching) and the others together; returns the sets of games published together."""
    together: list[set[str]] = []
    batched = outbox.publish_batch

    def apart(session: Session, noted: Mapping[str, int]) -> dict[str, list[PostRow]]:
        rest = {g: seq for g, seq in noted.items() if g not in alone}
        together.append(set(rest))
        made = batched(session, rest)
        for game_id in sorted(set(noted) & alone):
            made.update(batched(session, {game_id: noted[game_id]}))  # publish_events
        return made

    monkeypatch.setattr(outbox, "publish_batch", apart)
    return together


def failing_renderer(monkeypatch: pytest.MonkeyPatch, broken: set[str]) -> None:
    """The renderer raises (a builder bug) for the games in ``broken``, when the step's
    transaction plans their posts."""
    real = outbox.render.plan_posts

    def render(game: Any, events: Any, deadline: Any) -> Any:
        if game.id in broken:
            raise RuntimeError("template bug")
        return real(game, events, deadline)

    monkeypatch.setattr(outbox.render, "plan_posts", render)


def _alike(body: str, game_id: str) -> str:
    body = re.sub('"id":"[A-Za-z0-9]+"', '"id":"ID"', body.replace(game_id, "GAME"))
    # Receipts and hashes, whole, shortened ("f235a6175187…") or in groups of 16 in a fold.
    return re.sub("[0-9a-f]{12,}", "HASH", body)


async def published(
    sessionmaker: async_sessionmaker[AsyncSession], game: Game, after: int
) -> dict[str, Any]:
    """The game's posts after seq ``after`` and its counters, without what differs between
    two games set up alike (ids, and the salts and receipts of orders)."""
    names = {c["id"]: c["name"] for c in ok(await game.get("/channels", "director"))}
    shown = []
    for post in await posts(game, after=after):
        post = {k: v for k, v in post.items() if k != "id"}
        post["bodies"] = {f: _alike(b, game.id) for f, b in post["bodies"].items()}
        post["deliveries"] = sorted(
            (names[d["channel_id"]], d["status"]) for d in post["deliveries"]
        )
        shown.append(post)
    async with sessionmaker() as session:
        pub = await session.get(PublishingRow, game.id)
        assert pub is not None
        counters = (pub.public_event_seq, pub.post_seq, pub.phase, pub.phase_step_seq)
        countdown = await session.execute(
            select(Timer.kind, Timer.key, Timer.due_at, Timer.data, Timer.done_at)
            .where(Timer.game_id == game.id, Timer.kind.in_((REMINDER, TALLY)))
            .order_by(Timer.kind, Timer.key)
        )
        timers = [tuple(row) for row in countdown]
    return {"posts": shown, "counters": counters, "reminder timers": timers}


async def test_a_batch_of_games_gets_the_posts_each_game_gets_alone(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One scheduler pass closes the deployment of twin games: one of each pair published
    with the whole batch, the other alone. Each pair ends with the same posts, deliveries
    and counters: channels, a review queue, reminders and a renderer that fails for one
    game."""
    setups: list[dict[str, Any]] = [
        {},
        {"channels": ("webhook",)},
        {"channels": ("webhook", "manual")},
        {"channels": ("webhook",), "review": True},
        {"channels": ("webhook",), "reminders": (600, 1800)},
        {"channels": ("webhook",)},  # its renderer fails
    ]
    twins = [(await deployed(client, **s), await deployed(client, **s)) for s in setups]
    batched, alone = [b for b, _ in twins], [a for _, a in twins]
    before = {g.id: (await posts(g))[-1]["seq"] for g in batched + alone}
    failing_renderer(monkeypatch, {batched[5].id, alone[5].id})
    together = publish_apart(monkeypatch, {g.id for g in alone})

    await before_the_deadline(sessionmaker, clock, PHASE)
    assert await run_due_timers(sessionmaker, clock) == len(batched + alone)

    assert {g.id for g in batched} in together  # published together, in one transaction
    for one, other in twins:
        assert await published(sessionmaker, one, before[one.id]) == await published(
            sessionmaker, other, before[other.id]
        )
    # What each game got: the phase closed everywhere (a step each) ...
    for game in batched:
        assert (await game.view())["phase"] != "deployment"
    new = [await posts(g, after=before[g.id]) for g in batched]
    # ... posts published on every channel of the game, none for a game without channels,
    assert new[0] and all(p["status"] == "published" and not p["deliveries"] for p in new[0])
    assert new[1] and all(len(p["deliveries"]) == 1 for p in new[1])
    assert new[2] and all(
        sorted(d["status"] for d in p["deliveries"]) == ["manual", "pending"] for p in new[2]
    )
    # held for review when the director reviews, and none when rendering failed.
    assert new[3] and all(p["status"] == "awaiting_review" and not p["deliveries"] for p in new[3])
    assert new[5] == []
    # The reminders follow the new deadline.
    reminders = (await published(sessionmaker, batched[4], before[batched[4].id]))[
        "reminder timers"
    ]
    deadline = clock.now() + timedelta(seconds=TB_SETTINGS["command_seconds"])
    assert [(key, due, done) for _, key, due, _, done in reminders] == [
        ("1800", deadline - timedelta(seconds=1800), None),
        ("600", deadline - timedelta(seconds=600), None),
    ]


@contextmanager
def outbox_statements(engine: AsyncEngine) -> Iterator[tuple[list[str], list[str]]]:
    """The statements the outbox runs (while it publishes a transaction's games) and all the
    statements of the connection, as they are sent to the database."""
    inside, every = [], []
    publishing = False
    batched = outbox.publish_batch

    def publish(session: Session, noted: Mapping[str, int]) -> dict[str, list[PostRow]]:
        nonlocal publishing
        publishing = True
        try:
            return batched(session, noted)
        finally:
            publishing = False

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        every.append(statement)
        if publishing:
            inside.append(statement)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outbox, "publish_batch", publish)
        event.listen(engine.sync_engine, "before_cursor_execute", count)
        try:
            yield inside, every
        finally:
            event.remove(engine.sync_engine, "before_cursor_execute", count)


async def test_closing_many_games_does_not_cost_a_query_per_game(
    client: AsyncClient,
    clock: FakeClock,
    engine: AsyncEngine,
    sessionmaker: async_sessionmaker[AsyncSession],
    db_kind: str,
) -> None:
    """A scheduler pass closing 3 games and one closing 12 run the same number of outbox
    statements: channels, reviews, reminders, and games whose publishing row is made now
    alike."""
    counted: dict[int, tuple[list[str], list[str]]] = {}
    # The second cohort's deadline falls before the first cohort's next one.
    for n, deadline in ((3, PHASE), (12, PHASE // 2)):
        settings = {"deployment_seconds": deadline}
        games = [
            await deployed(
                client, ("webhook", "manual"), i % 3 == 0, settings, (600,) * (i % 3 == 1)
            )
            for i in range(n)
        ]
        async with sessionmaker() as session, session.begin():
            # Games that were running before publishing existed: their rows are made now.
            for game in games[2::3]:
                await session.delete(await session.get(PublishingRow, game.id))
        await before_the_deadline(sessionmaker, clock, deadline)
        with outbox_statements(engine) as (inside, every):
            assert await run_due_timers(sessionmaker, clock) == n
        counted[n] = (list(inside), list(every))
        for game in games:  # every game's phase closed with its posts
            assert (await posts(game))[-1]["created_at"] == clock.now().isoformat()
    assert counted[3][0] and len(counted[3][0]) == len(counted[12][0])
    if db_kind == "postgres":
        # The whole pass too (on SQLite the ORM inserts rows with an autoincrement id,
        # deliveries, one at a time, and order updates are per game).
        assert len(counted[3][1]) == len(counted[12][1])
