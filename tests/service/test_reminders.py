"""Reminders: before each deadline, a post naming who has not yet ordered or readied; none
when everyone is done; they follow the deadline when it is extended or the game paused."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import TB_SETTINGS, Game, create_game, ok, problem, tick
from tests.service.publish_helpers import posts, webhook_channel

DEPLOY = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}


async def _game(client: AsyncClient) -> tuple[Game, dict[str, Any]]:
    """A started team battle (deployment: 3,600 s) with forum names, two channels and
    reminders 1,800 s and 600 s before each deadline on the first channel."""
    game = await create_game(client, "team_battle", TB_SETTINGS)
    for name, side in (("a1", "A"), ("a2", "A"), ("b1", "B")):
        body = {"name": name, "side": side, "forum_name": f"{name}_forum"}
        game.players[name] = ok(await game.post("/players", "director", body), 201)
    channel = await webhook_channel(game, "reminders")
    await webhook_channel(game, "results")
    ok(
        await game.put(
            "/reminders", "director", {"before_seconds": [600, 1800], "channel_id": channel["id"]}
        )
    )
    await game.start()
    return game, channel


async def reminders(game: Game) -> list[dict[str, Any]]:
    return [p for p in await posts(game, None) if p["kind"] == "reminder"]


async def test_a_reminder_names_whoever_has_not_ordered(
    client: AsyncClient, clock: FakeClock
) -> None:
    game, channel = await _game(client)
    await game.order("a2", DEPLOY)  # side A has ordered: a1 and a2 are done
    await tick(client, clock, 1799)
    assert await reminders(game) == []
    await tick(client, clock, 1)
    (reminder,) = await reminders(game)
    text = reminder["bodies"]["text"]
    assert "b1_forum" in text
    assert "a1_forum" not in text and "a2_forum" not in text
    director_view = {p["id"]: p for p in await posts(game)}[reminder["id"]]
    assert [d["channel_id"] for d in director_view["deliveries"]] == [channel["id"]]


async def test_no_reminder_when_everyone_is_ready(client: AsyncClient, clock: FakeClock) -> None:
    game, _ = await _game(client)
    await tick(client, clock, 1800)
    assert len(await reminders(game)) == 1
    await game.order("a1", DEPLOY)
    ok(await game.post("/ready", "b1"))  # B is ready without an order: done too
    await tick(client, clock, 1200)  # 600 s before the deadline
    assert len(await reminders(game)) == 1


async def test_reminders_follow_an_extended_deadline(client: AsyncClient, clock: FakeClock) -> None:
    game, _ = await _game(client)
    ok(await game.post("/deadline", "director", {"seconds": 3600}))
    await tick(client, clock, 1800)
    assert await reminders(game) == []  # the old time passed: nothing
    await tick(client, clock, 3600)  # 1,800 s before the new deadline
    assert len(await reminders(game)) == 1


async def test_reminders_follow_a_pause(client: AsyncClient, clock: FakeClock) -> None:
    game, _ = await _game(client)
    await tick(client, clock, 1000)
    ok(await game.post("/pause", "director"))
    await tick(client, clock, 5000)
    assert await reminders(game) == []
    ok(await game.post("/resume", "director"))
    await tick(client, clock, 799)
    assert await reminders(game) == []
    await tick(client, clock, 1)  # 1,800 s of game time before the deadline
    assert len(await reminders(game)) == 1


async def test_each_phase_gets_its_own_reminders(client: AsyncClient, clock: FakeClock) -> None:
    game, _ = await _game(client)
    await tick(client, clock, 3000)  # both reminders of deployment
    assert len(await reminders(game)) == 2
    await tick(client, clock, 600)  # deployment closes; command opens (3,600 s)
    await tick(client, clock, 1800)
    assert len(await reminders(game)) == 3


async def test_reminders_can_be_turned_off_and_need_a_real_channel(
    client: AsyncClient, clock: FakeClock
) -> None:
    game, _ = await _game(client)
    ok(await game.put("/reminders", "director", {"before_seconds": []}))
    await tick(client, clock, 3000)
    assert await reminders(game) == []
    missing = await game.put(
        "/reminders", "director", {"before_seconds": [60], "channel_id": "nope"}
    )
    problem(missing, 404, "not_found")
    problem(await game.put("/reminders", "b1", {"before_seconds": [60]}), 403, "forbidden")
    audit = ok(await game.get("/audit", "director"))
    assert [a["action"] for a in audit].count("set_reminders") == 2


async def test_reminders_mention_players_where_the_forum_supports_it(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    for name, side in (("a1", "A"), ("b1", "B")):
        body = {"name": name, "side": side, "forum_name": f"{name}forum"}
        game.players[name] = ok(await game.post("/players", "director", body), 201)
    config = {
        "base_url": "http://127.0.0.1:9",
        "username": "bot",
        "password": "secret",
        "thread_id": 1,
    }
    forum = ok(
        await game.post(
            "/channels", "director", {"kind": "misago", "name": "forum", "config": config}
        ),
        201,
    )
    ok(
        await game.put(
            "/reminders", "director", {"before_seconds": [1800], "channel_id": forum["id"]}
        )
    )
    await game.start()
    await game.order("a1", DEPLOY)
    await tick(client, clock, 1800)
    (reminder,) = await reminders(game)
    for body in reminder["bodies"].values():
        assert "@b1forum" in body
        assert "a1forum" not in body
