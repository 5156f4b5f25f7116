"""Secrets hold across the whole API: every endpoint, walked as every role.

Whatever side A does in secret (deploy, hidden orders, revisions, withdrawals), what side B
and the public get from every endpoint is byte-for-byte what they got before — bodies,
error messages and counts alike — until the rules reveal it.
"""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import Game, ok, team_battle, tick

OUTSIDERS = (None, "b1")  # the public and the other side
READ_PATHS = ("", "/view", "/events", "/orders", "/audit", "/timers", "/verify")


async def everything(game: Game, who: str | None, probe_ids: list[str]) -> dict[str, Any]:
    """Every read endpoint, plus every endpoint that names an order, as ``who``."""
    seen: dict[str, Any] = {}
    for path in READ_PATHS:
        r = await game.get(path, who)
        seen[f"GET {path}"] = (r.status_code, r.json())
    for i, order_id in enumerate(probe_ids):
        for method, path in (
            ("GET", f"/orders/{order_id}/history"),
            ("DELETE", f"/orders/{order_id}"),
            ("PUT", f"/orders/{order_id}"),
        ):
            if method == "GET":
                r = await game.get(path, who)
            elif method == "DELETE":
                r = await game.delete(path, who)
            else:
                r = await game.put(path, who, {"type": "counter", "slot": 1})
            seen[f"{method} order#{i} {path.split('/')[-1] == order_id}"] = (
                r.status_code,
                r.json(),
            )
    return seen


async def test_nothing_of_a_sides_deployment_or_hidden_orders_leaks_to_the_other_side(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    made_up = ["nosuchorder1"]
    before = {who: await everything(game, who, made_up) for who in OUTSIDERS}

    # Deployment: A deploys, revises, B has not deployed yet (TB-10).
    deploy = await game.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    ok(
        await game.put(
            f"/orders/{deploy['id']}", "a2", {"type": "deploy", "troops": [5, 7, 8, 5, 5]}
        )
    )
    await game.ready("a1")
    for who in OUTSIDERS:
        assert await everything(game, who, made_up) == before[who], who
        # A's real order id answers exactly like a made-up one: existence is not confirmed.
        assert await everything(game, who, [deploy["id"]]) == before[who]
    assert (await game.view("b1"))["sides"]["A"]["slots"] is None

    await game.order("b1", {"type": "deploy", "troops": [6, 6, 7, 5, 6]})
    await tick(client, clock, 3600)
    assert (await game.view("b1"))["sides"]["A"]["slots"] == [5, 7, 8, 5, 5]  # revealed together

    # Command phase: A gives hidden orders (Counter, TB-32), revises and withdraws them.
    before = {who: await everything(game, who, made_up) for who in OUTSIDERS}
    withdrawn = await game.order("a2", {"type": "counter", "slot": 4})
    ok(await game.delete(f"/orders/{withdrawn['id']}", "a2"))
    counter = await game.order("a1", {"type": "counter", "slot": 2})
    ok(await game.put(f"/orders/{counter['id']}", "a1", {"type": "counter", "slot": 3}))
    for who in OUTSIDERS:
        assert await everything(game, who, made_up) == before[who], who
        assert await everything(game, who, [counter["id"]]) == before[who]
        assert await everything(game, who, [withdrawn["id"]]) == before[who]

    # Side A itself sees its own hidden order; the director sees everything.
    assert any(o["id"] == counter["id"] for o in ok(await game.get("/orders", "a2")))
    assert any(o["id"] == counter["id"] for o in ok(await game.get("/orders", "director")))
    director_events = ok(await game.get("/events", "director"))
    assert any(counter["id"] in str(e["data"]) for e in director_events)

    # Battle phase: a hidden Stand Firm (TB-51) stays hidden until it takes effect.
    await tick(client, clock, 3600)
    before = {who: await everything(game, who, made_up) for who in OUTSIDERS}
    stand = await game.order("a1", {"type": "stand_firm", "slot": 1})
    for who in OUTSIDERS:
        assert await everything(game, who, made_up) == before[who], who
        assert await everything(game, who, [stand["id"]]) == before[who]


async def test_event_numbers_have_no_gaps_that_count_hidden_events(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    await game.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 7, 5, 6]})
    await tick(client, clock, 3600)
    await game.order("a1", {"type": "counter", "slot": 2})
    await tick(client, clock, 3600)
    for who in (None, "a1", "b1"):
        numbers = [e["seq"] for e in await game.events(who)]
        assert numbers == list(range(1, len(numbers) + 1)), who
        # Paging by `after` continues the same numbering.
        assert [e["seq"] for e in await game.events(who, after=2)] == numbers[2:]
    assert "audience" not in (await game.events("b1"))[0]


async def test_after_the_end_everything_is_revealed(client: AsyncClient, clock: FakeClock) -> None:
    game = await team_battle(client, {"dice": "high"})
    await game.order("a1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await tick(client, clock, 3600)
    counter = await game.order("a1", {"type": "counter", "slot": 3})
    await tick(client, clock, 3600)
    seen_by_b = await game.events("b1")
    await tick(client, clock, 3600)
    public = await game.view()
    assert public["phase"] == "finished"
    assert any(o["id"] == counter["id"] for o in public.get("orders", []))
    # The events B saw keep their numbers; the secrets arrive as new events after them.
    after_end = await game.events("b1")
    assert after_end[: len(seen_by_b)] == seen_by_b
    revealed = [e for e in after_end if e["kind"] == "hidden_events_revealed"]
    assert len(revealed) == 1
    assert counter["id"] in str(revealed[0]["data"])
