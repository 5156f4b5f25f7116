"""Rendering off the critical path (issue 23 item 3): the step that closes a phase plans
its posts and stores their source; each format is rendered when first needed, kept, and
never written over a director's edit; a rendering that fails loses nothing."""

from __future__ import annotations

from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import scheduler
from app.clock import FakeClock
from app.publish import bodies
from app.publish.models import DeliveryRow, PostRow
from app.publish.render import FORMATS
from tests.service.helpers import bearer, ok, team_battle
from tests.service.publish_helpers import Sink, posts, webhook_channel, worker


async def stored(sessionmaker: async_sessionmaker[AsyncSession], game_id: str) -> list[PostRow]:
    async with sessionmaker() as session:
        found = await session.scalars(
            select(PostRow).where(PostRow.game_id == game_id).order_by(PostRow.seq)
        )
        return list(found)


def counting(monkeypatch: pytest.MonkeyPatch, fail: bool = False) -> list[str]:
    """Count (or break) the renderings of planned posts: one entry per (post kind, format)."""
    calls: list[str] = []
    real = bodies.render_source

    def spy(kind: str, source: Any, format_name: str) -> str:
        calls.append(f"{kind}.{format_name}")
        if fail:
            raise RuntimeError("template bug")
        return real(kind, source, format_name)

    monkeypatch.setattr(bodies, "render_source", spy)
    return calls


async def test_a_closing_step_stores_the_source_and_no_text(
    client: AsyncClient,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await team_battle(client)
    await webhook_channel(game)
    calls = counting(monkeypatch)
    ok(await game.post("/advance", "director"))
    assert calls == []  # no template ran in the step's transaction
    made = [p for p in await stored(sessionmaker, game.id) if p.step_seq is not None]
    assert made
    for post in made:
        assert post.bodies == {} and post.source is not None and post.title
        assert post.source["events"] and post.source["game"]["id"] == game.id


async def test_the_first_delivery_renders_each_format_once_and_keeps_it(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await team_battle(client)
    await webhook_channel(game)
    ok(await game.post("/advance", "director"))
    calls = counting(monkeypatch)
    shown = await posts(game)  # a read: rendered to be shown, not kept
    assert all(set(p["bodies"]) == set(FORMATS) and all(p["bodies"].values()) for p in shown)
    queued = {p["id"] for p in shown if p["deliveries"]}  # made since the channel was
    planned = [p for p in await stored(sessionmaker, game.id) if p.source is not None]
    assert queued and queued <= {p.id for p in planned}
    assert all(p.bodies == {} for p in planned)
    calls.clear()
    sink = Sink()
    deliver = worker(client, clock, sink)
    while await deliver.run_once():
        pass
    # The worker rendered every format of each planned post once (also of the opening
    # post, made before the channel: no delivery, still rendered once), and sent that text.
    assert sorted(calls) == sorted(f"{p.kind}.{f}" for p in planned for f in FORMATS)
    after = {p.id: p for p in await stored(sessionmaker, game.id)}
    for post in planned:
        assert set(after[post.id].bodies) == set(FORMATS) and after[post.id].source is None
    sent = {p["id"]: p["bodies"] for p in sink.accepted()}
    assert sent == {p["id"]: p["bodies"] for p in shown if p["id"] in sent}
    assert set(sent) == queued
    for post_id, texts in sent.items():
        assert texts == after[post_id].bodies
    calls.clear()
    assert await posts(game) == await posts(game)
    assert calls == []  # kept: nothing is rendered again


async def test_an_edit_stands_over_the_rendered_text(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game = await team_battle(client)
    await webhook_channel(game)
    ok(await game.put("/publishing", "director", {"review": "always"}))
    ok(await game.post("/advance", "director"))
    held = [p for p in await posts(game) if p["status"] == "awaiting_review"]
    assert held
    first = held[0]
    assert all(first["bodies"].values())  # the director reviews it rendered
    (planned,) = [p for p in await stored(sessionmaker, game.id) if p.id == first["id"]]
    assert planned.bodies == {} and planned.source is not None
    edited = ok(
        await client.patch(
            f"{game.url}/posts/{first['id']}",
            headers=bearer(game.director),
            json={"bodies": {"text": "改过的正文"}},
        )
    )
    assert edited["bodies"]["text"] == "改过的正文"
    assert edited["bodies"]["bbcode"] == first["bodies"]["bbcode"]
    (post,) = [p for p in await stored(sessionmaker, game.id) if p.id == first["id"]]
    # The edit, and the formats the answer rendered around it, kept: nothing left to render.
    assert post.bodies["text"] == "改过的正文" and set(post.bodies) == set(FORMATS)
    assert post.source is None

    # A rendering that comes later (the worker's, a read's) never writes over the edit.
    async with sessionmaker() as session, session.begin():
        row = await session.get(PostRow, first["id"])
        assert row is not None
        row.bodies, row.source = {"text": "改过的正文"}, planned.source
    async with sessionmaker() as session, session.begin():
        row = await session.get(PostRow, first["id"])
        assert row is not None
        shown = await bodies.ensure_bodies(session, [row])
        assert shown[row.id]["text"] == "改过的正文"
        assert shown[row.id]["bbcode"] == first["bodies"]["bbcode"]
    ok(await game.post(f"/posts/{first['id']}/approve", "director"))
    sink = Sink()
    deliver = worker(client, clock, sink)
    while await deliver.run_once():
        pass
    (sent,) = [p for p in sink.accepted() if p["id"] == first["id"]]
    assert sent["bodies"]["text"] == "改过的正文"
    assert sent["bodies"]["markdown"] == first["bodies"]["markdown"]


async def test_a_rendering_that_fails_loses_no_post(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await team_battle(client)
    await webhook_channel(game)
    before = len(await posts(game))
    calls = counting(monkeypatch, fail=True)
    ok(await game.post("/advance", "director"))  # the step commits: no template in it
    shown = await posts(game)
    assert len(shown) > before  # the posts exist, shown empty while they cannot render
    broken = shown[before:]
    assert all(p["bodies"] == dict.fromkeys(FORMATS, "") for p in broken)
    sink = Sink()
    deliver = worker(client, clock, sink)
    await deliver.run_once()
    assert calls and sink.received == []  # nothing half-rendered is sent
    async with sessionmaker() as session:
        deliveries = (
            await session.scalars(select(DeliveryRow).where(DeliveryRow.game_id == game.id))
        ).all()
    first = min(deliveries, key=lambda d: d.id)
    assert first.status == "pending" and first.attempts == 1 and "rendered" in (first.error or "")
    assert all(d.status == "pending" for d in deliveries)  # the channel waits, in order

    monkeypatch.undo()  # the template fixed: the next attempt renders and sends
    clock.advance(3600)
    while await deliver.run_once():
        clock.advance(1)
    assert [p["seq"] for p in sink.accepted()] == [p["seq"] for p in broken]
    assert all(all(p["bodies"].values()) for p in sink.accepted())
    assert {d["status"] for p in await posts(game) for d in p["deliveries"]} == {"sent"}


async def test_an_idle_scheduler_renders_the_planned_posts_so_the_worker_only_sends(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await team_battle(client)
    await webhook_channel(game)
    ok(await game.post("/advance", "director"))
    planned = [p for p in await stored(sessionmaker, game.id) if p.source is not None]
    assert planned
    calls = counting(monkeypatch)
    # One post per transaction here: a full one says there may be more (the loop comes back).
    taken = 0
    while (done := await scheduler.render_idle(sessionmaker, 1, set())) == 1:
        taken += done
    assert taken == len(planned)
    assert sorted(calls) == sorted(f"{p.kind}.{f}" for p in planned for f in FORMATS)
    after = {p.id: p for p in await stored(sessionmaker, game.id)}
    assert all(
        set(after[p.id].bodies) == set(FORMATS) and after[p.id].source is None for p in planned
    )
    calls.clear()
    sink = Sink()
    deliver = worker(client, clock, sink)
    while await deliver.run_once():
        pass
    assert calls == []  # the worker found every text ready
    assert sink.accepted() and all(all(p["bodies"].values()) for p in sink.accepted())


async def test_a_post_the_scheduler_cannot_render_is_left_to_the_worker(
    client: AsyncClient,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await team_battle(client)
    await webhook_channel(game)
    ok(await game.post("/advance", "director"))
    counting(monkeypatch, fail=True)
    unrenderable: set[str] = set()
    await scheduler.render_idle(sessionmaker, 100, unrenderable)
    planned = [p for p in await stored(sessionmaker, game.id) if p.source is not None]
    assert planned and {p.id for p in planned} == unrenderable  # kept for the worker
    assert await scheduler.render_idle(sessionmaker, 100, unrenderable) == 0  # not retried
