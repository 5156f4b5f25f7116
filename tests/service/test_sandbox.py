"""A director's sandbox (app/services/safety/sandbox.py): a private fork of a game at a
step, with a new seed and no channels, where the director acts as any player. Forking
and playing in it leave the original byte for byte as it was, and nobody but its director
can read it (so the real game's hidden orders are never seen through it)."""

from __future__ import annotations

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import Game, bearer, ok, problem, team_battle, tick
from tests.service.island_helpers import of_kind
from tests.service.publish_helpers import Sink, webhook_channel, worker

SECRET_TROOPS = [14, 4, 4, 4, 4]


async def snapshot(game: Game) -> list[bytes]:
    """Everything anyone can read of the game, as the bytes the API answers."""
    out = []
    for who in (None, "director", "a1", "b1"):
        for path in ("", "/view", "/events", "/posts"):
            out.append((await game.get(path, who)).content)
    out.append((await game.get("/timers", "director")).content)
    out.append((await game.get("/audit", "director")).content)
    out.append((await game.get("/orders", "director")).content)
    return out


async def test_a_sandbox_never_touches_the_game_and_shows_nothing_to_others(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client, {"dice": "high"})
    await webhook_channel(game)
    hidden = await game.order("a1", {"type": "deploy", "troops": SECRET_TROOPS})
    sink = Sink()
    deliver = worker(client, clock, sink)
    while await deliver.run_once():
        pass
    before = await snapshot(game)

    forked = ok(await game.post("/fork", "director", {}), 201)
    assert forked["sandbox"] is True and forked["forked_from"] == game.id
    box = Game(http=client, id=forked["id"], director=forked["director_token"], created=forked)
    box.players = {p["name"]: p for p in forked["players"]}
    mine = ok(await box.get("", "director"))
    assert mine["sandbox"] is True and mine["phase"] == "deployment"
    assert mine["seed_commitment"] != (await game.summary())["seed_commitment"]
    # The director acts as any player there: a1's hidden order is theirs to change.
    orders = ok(await box.get("/orders", "a1"))
    assert [o["body"]["troops"] for o in orders] == [SECRET_TROOPS]
    assert orders[0]["id"] != hidden["id"]
    await box.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    ok(await box.post("/advance", "director"))  # the sandbox's deployment closes
    assert (await box.view("director"))["phase"] == "command"
    undone = ok(await box.post("/undo", "director", {"steps": 1, "reason": "再试一次"}))
    assert undone["phase"] == "deployment"
    # Nobody else can read the sandbox: not the public, not the real game's players.
    for path in ("", "/view", "/events", "/posts", "/verify", "/archive", "/stream"):
        problem(await client.get(f"{box.url}{path}"), 404, "not_found")
    real_a1 = game.players["a1"]["token"]
    problem(await client.get(f"{box.url}/view", headers=bearer(real_a1)), 401, "unauthorized")
    page = await client.get(f"/g/{box.id}")
    # The page names the game in its links; nothing else of it may show (the id is random
    # letters and digits, so it can hold "14" itself).
    assert page.status_code == 404 and "14" not in page.text.replace(box.id, "")
    listed = await client.get("/")
    assert box.id not in listed.text
    # It cannot be published.
    problem(
        await box.post(
            "/channels",
            "director",
            {"kind": "webhook", "name": "x", "config": {"url": "https://example.com/h"}},
        ),
        409,
        "sandbox_unpublished",
    )
    # The original: byte for byte what it was, and nothing more was sent.
    assert await snapshot(game) == before
    sent = len(sink.accepted())
    while await deliver.run_once():
        pass
    assert len(sink.accepted()) == sent

    # Thrown away: gone whole.
    ok(await client.delete(box.url, headers=bearer(box.director)))
    problem(await box.get("", "director"), 404, "not_found")
    assert await snapshot(game) == before


async def test_a_sandbox_forked_at_an_earlier_step_starts_there(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client, {"dice": "high"})
    await game.order("a1", {"type": "deploy", "troops": [10, 5, 5, 5, 5]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await tick(client, clock, 3600)
    assert (await game.view())["phase"] == "command"
    problem(await game.post("/fork", "director", {"at_step": 999}), 422, "bad_step")
    problem(await game.post("/fork", "a1", {}), 403, "forbidden")
    forked = ok(await game.post("/fork", "director", {"at_step": 1}), 201)
    box = Game(http=client, id=forked["id"], director=forked["director_token"], created=forked)
    box.players = {p["name"]: p for p in forked["players"]}
    view = await box.view("director")
    assert view["phase"] == "deployment"
    assert ok(await box.get("/orders", "director")) == []  # no order was given yet then
    timers = ok(await box.get("/timers", "director"))
    assert [t["kind"] for t in timers] == ["phase"]
    await box.order("a1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    await box.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await tick(client, clock, 3600)  # the sandbox's own deadline runs like the game's
    assert (await box.view("director"))["phase"] == "command"
    events = await box.events("director")
    assert of_kind(events, "orders_sealed")
