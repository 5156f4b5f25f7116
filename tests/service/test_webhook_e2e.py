"""End to end over real HTTP: a game played through the API reaches a signed webhook
receiver listening on a local port, every published post once, in order."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from httpx import AsyncClient

from app.clock import FakeClock
from app.publish.worker import DeliveryWorker
from bench.webhook_sink import WebhookSink
from tests.service.helpers import TB_SETTINGS, create_game, ok, tick
from tests.service.publish_helpers import WEBHOOK_SECRET, posts, webhook_receiver


@pytest_asyncio.fixture
async def sink() -> AsyncIterator[tuple[WebhookSink, int]]:
    async with webhook_receiver() as running:
        yield running


async def test_a_played_game_reaches_a_signed_webhook(
    client: AsyncClient, clock: FakeClock, sink: tuple[WebhookSink, int]
) -> None:
    receiver, port = sink
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    url = f"http://127.0.0.1:{port}/hook"
    body = {"kind": "webhook", "name": "sink", "config": {"url": url, "secret": WEBHOOK_SECRET}}
    ok(await game.post("/channels", "director", body), 201)
    await game.start()
    await game.order("a1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await game.order("b1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    ok(await game.post("/ready", "a1"))
    ok(await game.post("/ready", "b1"))
    await tick(client, clock, 3600)  # the command phase closes by its deadline

    app = client.app  # type: ignore[attr-defined]
    worker = DeliveryWorker(app.state.sessionmaker, clock, app.state.settings)
    while await worker.run_once():
        pass

    published = await posts(game, None)
    assert published
    assert receiver.stats()["bad_signatures"] == 0
    assert receiver.stats()["duplicates"] == 0
    assert [b["type"] for b in receiver.bodies] == ["post.published"] * len(published)
    assert {b["game_id"] for b in receiver.bodies} == {game.id}
    got = [(b["post"]["seq"], b["post"]["title"], b["post"]["bodies"]) for b in receiver.bodies]
    assert got == [(p["seq"], p["title"], p["bodies"]) for p in published]
    assert all(d["status"] == "sent" for p in published for d in p["deliveries"])
