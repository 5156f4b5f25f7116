"""The forum bridge on a real Misago forum (the ``misago_forum`` fixture): a linked player
posts "调兵 3→2 4人" in the game's thread → the order is in GET /orders for their side and
the bot's answer is in the thread; an edit revises it; quoting it orders nothing; an
unlinked poster is ignored."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient

from app.bridge.reader import ForumReader
from app.clock import FakeClock
from app.publish.channels import make_http_client
from app.publish.channels.misago import MisagoClient
from app.publish.worker import DeliveryWorker
from tests.service.helpers import TB_SETTINGS, create_game, ok, tick
from tests.support.misago import MisagoForum

DEPLOY = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}


async def deliver_all(client: AsyncClient, clock: FakeClock) -> None:
    """Send every queued post now, without moving the clock (the phase must stay open)."""
    app = client.app  # type: ignore[attr-defined]
    worker = DeliveryWorker(app.state.sessionmaker, clock, app.state.settings)
    while await worker.run_once():
        pass


async def test_public_orders_are_read_from_a_misago_thread(
    client: AsyncClient, clock: FakeClock, misago_forum: MisagoForum
) -> None:
    alice, bob = misago_forum.players
    game = await create_game(client, "team_battle", TB_SETTINGS)
    for name, side, account in (("a1", "A", alice), ("b1", "B", bob)):
        body = {"name": name, "side": side, "forum_name": account.username}
        game.players[name] = ok(await game.post("/players", "director", body), 201)
    config = misago_forum.channel_config()
    channel = ok(
        await game.post("/channels", "director", {"kind": "misago", "name": "m", "config": config}),
        201,
    )
    await game.start()
    await game.order("a1", DEPLOY)
    await game.order("b1", DEPLOY)
    await tick(client, clock, 3600)  # the command phase
    await deliver_all(client, clock)  # the first post opened the thread
    shown = ok(await game.put("/forum", "director", {"channel_id": channel["id"]}))
    thread_id = int(shown["thread_id"])
    app = client.app  # type: ignore[attr-defined]
    async with make_http_client(allow_private_urls=True) as http:
        reader = ForumReader(lambda: app.state.sessionmaker, clock, app.state.settings, http=http)
        assert await reader.poll(game.id) == 0  # what the thread holds already
        as_alice = MisagoClient(misago_forum.base_url, alice.username, alice.password, http)
        as_bob = MisagoClient(misago_forum.base_url, bob.username, bob.password, http)
        stranger = misago_forum.admin
        as_stranger = MisagoClient(
            misago_forum.base_url, stranger.username, stranger.password, http
        )

        async def orders(who: str) -> list[dict[str, Any]]:
            found = ok(await game.get("/orders", who))
            return [o for o in found if o["type"] != "deploy"]

        async def bot_posts() -> list[str]:
            posts = await as_alice.read_thread(thread_id, with_raw=True)
            return [p.raw or "" for p in posts if p.author == misago_forum.bot.username]

        posted = await as_alice.reply(thread_id, "调兵 3→2 4人")
        assert await reader.poll(game.id) == 1
        (order,) = await orders("a1")
        assert order["body"] == {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]}
        await deliver_all(client, clock)
        answer = (await bot_posts())[-1]
        assert f"@{alice.username}" in answer and "调兵：3号位→2号位，4人" in answer

        await as_alice.edit(thread_id, posted["id"], "调兵 3→2 5人")
        await reader.poll(game.id)  # the edit (and the bot's own answer, passed over)
        (order,) = await orders("a1")
        assert order["body"]["moves"] == [{"from": 3, "to": 2, "troops": 5}]

        quote = f'[quote="@{alice.username}"]\n调兵 3→2 4人\n[/quote]\n\n想得美'
        await as_bob.reply(thread_id, quote)
        await as_stranger.reply(thread_id, "调兵 3→2 4人")
        await reader.poll(game.id)
        assert await orders("b1") == []
        assert len(await orders("a1")) == 1
        await deliver_all(client, clock)
        answers = await bot_posts()
        assert sum("@" + alice.username in a for a in answers) == 2  # accepted, revised
        assert not any(f"@{bob.username}" in a or f"@{stranger.username}" in a for a in answers)
