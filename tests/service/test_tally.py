"""Tallies: who has ordered and who is ready — names only, never what anyone ordered —
on the director's request (reviewed like any post) and at offsets before each deadline."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import TB_SETTINGS, Game, create_game, ok, problem, tick
from tests.service.publish_helpers import posts, webhook_channel


async def _game(client: AsyncClient) -> Game:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    for name, side in (("a1", "A"), ("b1", "B")):
        body = {"name": name, "side": side, "forum_name": f"{name}_forum"}
        game.players[name] = ok(await game.post("/players", "director", body), 201)
    await game.start()
    return game


async def tallies(game: Game, who: str | None = "director") -> list[dict[str, Any]]:
    return [p for p in await posts(game, who) if p["kind"] == "tally"]


async def test_the_director_asks_for_a_tally_of_names_not_contents(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await _game(client)
    await game.order("a1", {"type": "deploy", "troops": [19, 3, 3, 3, 2]})
    problem(await game.post("/tally", "a1"), 403, "forbidden")
    post = ok(await game.post("/tally", "director"), 201)
    assert post["kind"] == "tally" and post["status"] == "published"
    text = post["bodies"]["text"]
    assert "a1_forum" in text and "b1_forum" in text
    for body in post["bodies"].values():
        assert "19" not in body and "deploy" not in body and "部署" not in body


async def test_a_tally_depends_only_on_who_ordered_never_on_what(
    client: AsyncClient, clock: FakeClock
) -> None:
    """Two games where the same sides ordered and readied, with different orders, get
    byte-identical tallies: no order content can be in them."""
    bodies = []
    for troops in ([26, 1, 1, 1, 1], [6, 6, 6, 6, 6]):
        game = await _game(client)
        await game.order("a1", {"type": "deploy", "troops": troops})
        await game.ready("a1")
        post = ok(await game.post("/tally", "director"), 201)
        bodies.append({**post["bodies"]})
    assert bodies[0] == bodies[1]
    assert "是" in bodies[0]["text"] and "否" in bodies[0]["text"]  # a1 yes, b1 no


async def test_a_requested_tally_waits_for_review_like_other_posts(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await _game(client)
    ok(await game.put("/publishing", "director", {"review": "always"}))
    post = ok(await game.post("/tally", "director"), 201)
    assert post["status"] == "awaiting_review"
    assert await tallies(game, None) == []  # the public sees it only once approved
    ok(await game.post(f"/posts/{post['id']}/approve", "director"))
    assert len(await tallies(game, None)) == 1


async def test_tallies_at_offsets_before_each_deadline_follow_it(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await _game(client)
    channel = await webhook_channel(game)
    await webhook_channel(game, "other")
    setting = {"before_seconds": [1800], "channel_id": channel["id"]}
    assert ok(await game.put("/tally", "director", setting)) == setting
    assert ok(await game.get("/tally", "director")) == setting
    ok(await game.post("/deadline", "director", {"seconds": 600}))  # deployment: 4,200 s
    await tick(client, clock, 1800)
    assert await tallies(game) == []  # the old time: the deadline moved
    await tick(client, clock, 600)
    (tally,) = await tallies(game)
    assert [d["channel_id"] for d in tally["deliveries"]] == [channel["id"]]
    await tick(client, clock, 1800)  # deployment closes; command opens (3,600 s)
    await tick(client, clock, 1800)
    assert len(await tallies(game)) == 2
    ok(await game.put("/tally", "director", {"before_seconds": []}))
    await tick(client, clock, 3600 + 1800)
    assert len(await tallies(game)) == 2
    audit = [a["action"] for a in ok(await game.get("/audit", "director"))]
    assert audit.count("set_tally") == 2
