"""A real forum: a whole Team Battle and an island day, played over HTTP, appear in Misago
threads — read back through Misago's own API and compared with GET /posts.

Misago runs as its own process on PostgreSQL (the ``misago_forum`` fixture), whichever
database the service tests use. Under CI=true a forum that cannot start fails the run; a
local run without it is skipped with the reason.
"""

from __future__ import annotations

from httpx import AsyncClient

from app.clock import FakeClock
from app.publish.channels import ADAPTERS, make_http_client
from app.publish.worker import DeliveryWorker
from tests.service.helpers import TB_SETTINGS, Game, create_game, ok, tick
from tests.service.island_helpers import example_text, local, quiet_overrides, run_at
from tests.service.publish_helpers import posts
from tests.support.misago import MisagoForum


async def deliver_all(client: AsyncClient, clock: FakeClock) -> None:
    """Run the delivery worker until nothing is left to send (retries included)."""
    app = client.app  # type: ignore[attr-defined]
    worker = DeliveryWorker(app.state.sessionmaker, clock, app.state.settings)
    for _ in range(50):
        while await worker.run_once():
            pass
        clock.advance(app.state.settings.publish_retry_max_seconds)
        if not await worker.run_once():
            return
    raise AssertionError("deliveries still pending after 50 rounds of retries")


async def thread_title(game: Game, forum: MisagoForum) -> str:
    """The title the game's Misago thread has now."""
    (channel,) = ok(await game.get("/channels", "director"))
    thread_id = channel["config"]["thread_id"]
    async with make_http_client(allow_private_urls=True) as http:
        reader = ADAPTERS["misago"].client(forum.channel_config(thread_id=thread_id), http)  # type: ignore[attr-defined]
        return str((await reader.thread(thread_id))["title"])


async def thread_of(game: Game, forum: MisagoForum) -> list[str]:
    """The Markdown of every post in the game's Misago thread, in order."""
    (channel,) = ok(await game.get("/channels", "director"))
    thread_id = channel["config"]["thread_id"]  # the first post opened it
    config = forum.channel_config(thread_id=thread_id)
    async with make_http_client(allow_private_urls=True) as http:
        reader = ADAPTERS["misago"].client(config, http)  # type: ignore[attr-defined]
        return [p.raw for p in await reader.read_thread(thread_id, with_raw=True)]


async def assert_thread_matches_posts(game: Game, forum: MisagoForum) -> None:
    published = await posts(game, None)
    assert published
    for post in published:
        (delivery,) = post["deliveries"]
        assert delivery["remote_url"].startswith(forum.base_url)
    raws = await thread_of(game, forum)
    assert [r.strip() for r in raws] == [p["bodies"]["markdown"].strip() for p in published]


async def misago_channel(game: Game, forum: MisagoForum) -> None:
    body = {"kind": "misago", "name": "Misago", "config": forum.channel_config()}
    created = ok(await game.post("/channels", "director", body), 201)
    assert created["config"]["password"] != forum.bot.password


async def test_a_whole_team_battle_appears_in_a_misago_thread(
    client: AsyncClient, clock: FakeClock, misago_forum: MisagoForum
) -> None:
    game = await create_game(client, "team_battle", {**TB_SETTINGS, "dice": "high"})
    for name, side in (("a1", "A"), ("b1", "B")):
        await game.add_player(name, side)
    await misago_channel(game, misago_forum)
    await game.start()
    await game.order("a1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await tick(client, clock, 3600)
    await game.order("a1", {"type": "dispatch", "moves": [{"from": 1, "to": 2, "troops": 5}]})
    await tick(client, clock, 3600)
    await game.order("b1", {"type": "hold", "slot": 1})
    for _ in range(20):
        if (await game.summary())["status"] == "finished":
            break
        await tick(client, clock, 3600)
    assert (await game.summary())["status"] == "finished"
    await deliver_all(client, clock)
    kinds = [p["kind"] for p in await posts(game, None)]
    assert kinds[0] == "game_started" and "game_finished" in kinds
    await assert_thread_matches_posts(game, misago_forum)
    # The thread opened as 【开局】… and is called what the game is now: over.
    finished = [p for p in await posts(game, None) if p["kind"] == "game_finished"]
    assert await thread_title(game, misago_forum) == finished[-1]["title"]


async def test_an_island_day_appears_in_a_misago_thread(
    client: AsyncClient, clock: FakeClock, misago_forum: MisagoForum
) -> None:
    clock.set(local(1, 8))
    game = await create_game(client, "island", quiet_overrides(), scenario=example_text())
    for name in ("ann", "bob", "cat", "dan", "eve", "fay"):
        await game.add_player(name)
    await misago_channel(game, misago_forum)
    clock.set(local(1, 9))
    await game.start()
    # Whatever the rules make of these, the day's public report must reach the thread.
    await game.post("/orders", "ann", {"type": "explore"})
    await game.post("/orders", "bob", {"type": "move", "direction": "right"})
    await run_at(client, clock, local(1, 24))
    await deliver_all(client, clock)
    kinds = [p["kind"] for p in await posts(game, None)]
    assert "daily_report" in kinds
    await assert_thread_matches_posts(game, misago_forum)
    report = [p for p in await posts(game, None) if p["kind"] == "daily_report"]
    assert await thread_title(game, misago_forum) == report[-1]["title"][:90]
