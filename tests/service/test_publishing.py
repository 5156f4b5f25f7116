"""Publishing through the API: posts come from public moments only, in the same transaction
as the step that caused them; the director's review queue; channels keep their secrets."""

from __future__ import annotations

from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.models import Game as GameRow
from app.publish.models import ChannelRow, PostRow
from app.services.auth import Principal
from app.services.director import advance
from tests.service.helpers import bearer, ok, problem, team_battle, tick
from tests.service.publish_helpers import WEBHOOK_SECRET, posts, webhook_channel

DEPLOY_A = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}
DEPLOY_B = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}


async def test_game_start_is_posted_and_queued_on_every_channel(client: AsyncClient) -> None:
    from tests.service.helpers import create_game

    game = await create_game(client, "team_battle", {"troops": {"A": 30, "B": 30}})
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    channel = await webhook_channel(game)
    await game.start()
    public = await posts(game, None)
    assert "game_started" in [p["kind"] for p in public]
    assert all(p["status"] == "published" for p in public)
    director = await posts(game)
    assert [p["seq"] for p in director] == list(range(1, len(director) + 1))
    for post in director:
        assert [(d["channel_id"], d["status"]) for d in post["deliveries"]] == [
            (channel["id"], "pending")
        ]
        assert set(post["bodies"]) == {"bbcode", "markdown", "text"}


async def test_hidden_orders_make_no_post(client: AsyncClient) -> None:
    game = await team_battle(client)
    before = await posts(game)
    await game.order("a1", DEPLOY_A)
    await game.order("b1", DEPLOY_B)
    assert await posts(game) == before


async def test_a_step_that_rolls_back_leaves_no_post(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession], clock: FakeClock
) -> None:
    """The post is written in the step's transaction: no step, no post."""
    game = await team_battle(client)
    before = await posts(game)

    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with sessionmaker() as session, session.begin():
            row = await session.get(GameRow, game.id, with_for_update=True)
            assert row is not None
            await advance(session, row, Principal("director"), clock.now())  # closes the phase
            raise Boom
    assert await posts(game) == before
    await game.post("/advance", "director")
    assert len(await posts(game)) > len(before)


async def test_review_holds_posts_until_the_director_approves(client: AsyncClient) -> None:
    from tests.service.helpers import create_game

    game = await create_game(client, "team_battle", {"troops": {"A": 30, "B": 30}})
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    ok(await game.put("/publishing", "director", {"review": "always"}))
    channel = await webhook_channel(game)
    await game.start()

    assert await posts(game, None) == []  # the public sees nothing held
    held = await posts(game)
    assert held and all(p["status"] == "awaiting_review" for p in held)
    assert all(p["deliveries"] == [] and p["publish_at"] is None for p in held)
    first = held[0]

    # A post is never left without a title (it opens a thread on some forums).
    untitled = await client.patch(
        f"{game.url}/posts/{first['id']}", headers=bearer(game.director), json={"title": ""}
    )
    problem(untitled, 422, "invalid_body")
    assert (await posts(game))[0]["title"] == first["title"]

    edited = ok(
        await client.patch(
            f"{game.url}/posts/{first['id']}",
            headers=bearer(game.director),
            json={"title": "开战！", "bodies": {"text": "改过的正文"}},
        )
    )
    assert edited["title"] == "开战！"
    assert edited["bodies"]["text"] == "改过的正文"
    assert edited["bodies"]["bbcode"] == first["bodies"]["bbcode"]

    approved = ok(await game.post(f"/posts/{first['id']}/approve", "director"))
    assert approved["status"] == "published"
    assert approved["published_at"] is not None
    assert [d["channel_id"] for d in approved["deliveries"]] == [channel["id"]]
    assert [p["id"] for p in await posts(game, None)] == [first["id"]]

    # Published: no more edits, no second approval, no discarding.
    late = await client.patch(
        f"{game.url}/posts/{first['id']}", headers=bearer(game.director), json={"title": "x"}
    )
    problem(late, 409, "post_published")
    problem(await game.post(f"/posts/{first['id']}/approve", "director"), 409, "post_published")

    if len(held) > 1:
        second = held[1]
        discarded = ok(await game.post(f"/posts/{second['id']}/discard", "director"))
        assert discarded["status"] == "discarded"
        problem(
            await game.post(f"/posts/{second['id']}/approve", "director"), 409, "post_discarded"
        )

    audit = ok(await game.get("/audit", "director"))
    actions = [a["action"] for a in audit]
    assert "edit_post" in actions and "approve_post" in actions
    # Only the director reviews.
    problem(await game.post(f"/posts/{first['id']}/approve", "a1"), 403, "forbidden")
    problem(await game.post(f"/posts/{first['id']}/approve"), 401, "unauthorized")


async def test_unreviewed_posts_publish_themselves_after_the_set_time(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    ok(await game.put("/publishing", "director", {"review": "always"}))
    await game.post("/advance", "director")  # deployment closes: new posts, held
    held = [p for p in await posts(game) if p["status"] == "awaiting_review"]
    assert held
    made = clock.now()

    clock.advance(50)
    # Set now, it counts from when each post was made: due at made + 100.
    ok(await game.put("/publishing", "director", {"auto_publish_after_seconds": 100}))
    assert all(p["publish_at"] for p in await posts(game) if p["status"] == "awaiting_review")
    await tick(client, clock, 40)  # made + 90
    assert all(p["status"] == "awaiting_review" for p in await posts(game) if p["id"] in _ids(held))
    await tick(client, clock, 10)  # made + 100
    after = {p["id"]: p for p in await posts(game)}
    for post in held:
        assert after[post["id"]]["status"] == "published"
        assert after[post["id"]]["published_at"] == (made.replace() + _seconds(100)).isoformat()
    audit = ok(await game.get("/audit", "director"))
    assert sum(a["action"] == "auto_publish" and a["actor"] == "system" for a in audit) == len(held)


async def test_the_director_acting_first_stops_auto_publish(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    ok(
        await game.put(
            "/publishing", "director", {"review": "always", "auto_publish_after_seconds": 60}
        )
    )
    await game.post("/advance", "director")
    held = [p for p in await posts(game) if p["status"] == "awaiting_review"]
    assert held
    ok(await game.post(f"/posts/{held[0]['id']}/discard", "director"))
    await tick(client, clock, 61)
    after = {p["id"]: p["status"] for p in await posts(game)}
    assert after[held[0]["id"]] == "discarded"
    assert all(after[p["id"]] == "published" for p in held[1:])


async def test_turning_auto_publish_off_holds_posts_again(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    body = {"review": "always", "auto_publish_after_seconds": 60}
    ok(await game.put("/publishing", "director", body))
    before = _ids(await posts(game))
    await game.post("/advance", "director")
    ok(await game.put("/publishing", "director", {"auto_publish_after_seconds": None}))
    await tick(client, clock, 600)
    held = [p for p in await posts(game) if p["id"] not in before]
    assert held and all(p["status"] == "awaiting_review" and p["publish_at"] is None for p in held)


async def test_publishing_settings_are_a_partial_update(client: AsyncClient) -> None:
    game = await team_battle(client)
    first = ok(await game.put("/publishing", "director", {"review": "always", "language": "en"}))
    assert first["review"] == "always" and first["language"] == "en"
    second = ok(await game.put("/publishing", "director", {"auto_publish_after_seconds": 300}))
    assert second["review"] == "always" and second["language"] == "en"
    assert second["auto_publish_after_seconds"] == 300
    problem(await game.put("/publishing", "director", {"review": "sometimes"}), 422, "invalid_body")
    problem(await game.put("/publishing", "director", {"review": None}), 422, "invalid_body")
    problem(await game.put("/publishing", "a1", {"review": "never"}), 403, "forbidden")


async def test_channel_secrets_are_encrypted_and_never_returned(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    game = await team_battle(client)
    created = await webhook_channel(game)
    assert created["kind"] == "webhook" and created["format"] == "markdown"
    listed = ok(await game.get("/channels", "director"))
    for shown in (created, *listed, ok(await game.get("/publishing", "director"))):
        assert WEBHOOK_SECRET not in str(shown)
        assert WEBHOOK_SECRET.removeprefix("whsec_") not in str(shown)
    async with sessionmaker() as session:
        row = await session.get(ChannelRow, created["id"])
        assert row is not None
        stored = (
            await session.execute(
                text("SELECT config FROM channels WHERE id = :id"), {"id": row.id}
            )
        ).one()
    assert WEBHOOK_SECRET.removeprefix("whsec_") not in str(tuple(stored))
    problem(await game.get("/channels", "a1"), 403, "forbidden")
    bad = await game.post("/channels", "director", {"kind": "carrier_pigeon", "name": "x"})
    assert bad.status_code == 422
    ok(await game.delete(f"/channels/{created['id']}", "director"))
    assert ok(await game.get("/channels", "director")) == []


async def test_a_removed_channel_gets_nothing_more(client: AsyncClient) -> None:
    game = await team_battle(client)
    channel = await webhook_channel(game)
    await game.post("/advance", "director")
    queued = [d for p in await posts(game) for d in p["deliveries"]]
    assert queued and all(d["status"] == "pending" for d in queued)
    ok(await game.delete(f"/channels/{channel['id']}", "director"))
    await game.post("/advance", "director")
    deliveries = [d for p in await posts(game) for d in p["deliveries"]]
    assert len(deliveries) == len(queued)
    assert all(d["status"] == "discarded" for d in deliveries)


async def test_manual_channel_waits_for_the_director_to_post_by_hand(client: AsyncClient) -> None:
    game = await team_battle(client)
    channel = ok(await game.post("/channels", "director", {"kind": "manual", "name": "NGA"}), 201)
    assert channel["format"] == "bbcode"
    await game.post("/advance", "director")
    post = (await posts(game))[-1]
    (delivery,) = post["deliveries"]
    assert delivery["status"] == "manual"
    url = "https://bbs.nga.cn/read.php?tid=1&page=2"
    done = ok(
        await game.post(
            f"/posts/{post['id']}/deliveries/{delivery['id']}/posted", "director", {"url": url}
        )
    )
    assert done["deliveries"][0]["status"] == "sent"
    assert done["deliveries"][0]["remote_url"] == url
    public = {p["id"]: p for p in await posts(game, None)}
    assert public[post["id"]]["deliveries"][0]["remote_url"] == url
    again = await game.post(
        f"/posts/{post['id']}/deliveries/{delivery['id']}/posted", "director", {"url": url}
    )
    problem(again, 409, "delivery_not_manual")


async def test_posts_page_by_seq(client: AsyncClient) -> None:
    game = await team_battle(client)
    await game.post("/advance", "director")
    every = await posts(game, None)
    assert len(every) >= 2
    later = await posts(game, None, after=every[0]["seq"])
    assert later == every[1:]


async def test_forum_names_are_kept_and_can_be_changed(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    from tests.service.helpers import create_game

    game = await create_game(client, "team_battle", {"troops": {"A": 30, "B": 30}})
    body = {"name": "曹操", "side": "A", "forum_name": "mengde"}
    created = ok(await game.post("/players", "director", body), 201)
    assert created["forum_name"] == "mengde"
    path = f"/players/{created['id']}"
    changed = await client.patch(
        f"{game.url}{path}", headers=bearer(game.director), json={"forum_name": "cao_cao"}
    )
    assert ok(changed)["forum_name"] == "cao_cao"
    nobody = await client.patch(
        f"{game.url}/players/nobody", headers=bearer(game.director), json={"forum_name": "x"}
    )
    problem(nobody, 404, "not_found")
    bad = await client.patch(
        f"{game.url}{path}", headers=bearer(game.director), json={"forum_name": "a\u200bb"}
    )
    assert bad.status_code == 422


def _ids(items: list[dict[str, Any]]) -> set[str]:
    return {i["id"] for i in items}


def _seconds(n: int) -> Any:
    from datetime import timedelta

    return timedelta(seconds=n)


async def _post_count(sessionmaker: async_sessionmaker[AsyncSession]) -> int:
    async with sessionmaker() as session:
        return int(await session.scalar(select(func.count()).select_from(PostRow)) or 0)


async def test_the_renderer_gets_exactly_the_public_events_with_their_public_numbers(
    client: AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    """Posts are built from what the public may see, numbered as GET /events numbers it for
    the public: never a hidden event, never a count that betrays one — also for a game
    that was already running before publishing existed (no publishing row yet)."""
    from app.publish import outbox, render

    seen: list[render.PublicEvent] = []
    real = render.plan_posts  # what the outbox asks for in the step's transaction

    def spy(game: Any, events: Any, deadline: Any) -> Any:
        seen.extend(events)
        return real(game, events, deadline)

    monkeypatch.setattr(outbox.render, "plan_posts", spy)
    game = await team_battle(client)
    await game.order("a1", DEPLOY_A)  # hidden: side A only
    await game.order("b1", DEPLOY_B)
    ok(await game.post("/pause", "director"))
    async with sessionmaker() as session, session.begin():
        await session.execute(text("DELETE FROM publishing"))
    ok(await game.post("/resume", "director"))
    ok(await game.post("/advance", "director"))
    public = await game.events(None)
    assert [(e.seq, e.kind, e.data) for e in seen] == [
        (e["seq"], e["kind"], e["data"]) for e in public
    ]


async def test_posts_awaiting_review_still_publish_themselves_after_the_game_ends(
    client: AsyncClient, clock: FakeClock
) -> None:
    """Finishing stops the game's clocks, not the auto-publish of its last posts."""
    game = await team_battle(client, {"dice": "high"})
    # Longer than a phase: posts of earlier phases are still waiting when the game ends.
    body = {"review": "always", "auto_publish_after_seconds": 7200}
    ok(await game.put("/publishing", "director", body))
    await game.order("a1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    for _ in range(3):
        await tick(client, clock, 3600)
    assert (await game.summary())["status"] == "finished"
    waiting = [p for p in await posts(game) if p["status"] == "awaiting_review"]
    assert len({p["created_at"] for p in waiting}) > 1  # made in different phases
    await tick(client, clock, 7200)
    after = await posts(game)
    assert "game_finished" in [p["kind"] for p in after]
    assert all(p["status"] == "published" for p in after)
