"""Sealed-order receipts over HTTP (app/publish/receipts.py): a player's reply carries the
receipt of their side's hidden orders; every close publishes one per side (or living
player), orders or none; the salts come out when the orders are revealed or the game
ends; anyone can recompute them, and GET /verify does."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from httpx import AsyncClient
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.models import EventRow
from app.services import verify as verify_service
from tests.service.helpers import ok, team_battle, tick
from tests.service.island_helpers import director, island_game, local, of_kind, pid, run_at


def recompute(salt: str, orders: list[dict[str, Any]]) -> str:
    """What anyone can run: SHA-256 of "<salt>:<orders as canonical JSON>"."""
    canonical = json.dumps(orders, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{salt}:{canonical}".encode()).hexdigest()


def sealed(events: list[dict[str, Any]], key: str) -> dict[str, str]:
    found = [e for e in of_kind(events, "orders_sealed") if e["key"] == key]
    assert len(found) == 1, key
    return {r["owner"]: r["receipt"] for r in found[0]["receipts"]}


def opened(events: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (r["key"], r["owner"]): r for e in of_kind(events, "receipts_opened") for r in e["receipts"]
    }


async def test_team_battle_receipts_are_sealed_replied_opened_and_verified(
    client: AsyncClient, clock: FakeClock, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    game = await team_battle(client, {"dice": "high"})
    deploy = await game.order("a1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    mine = deploy["receipt"]
    assert (mine["key"], mine["owner"], mine["order_ids"]) == ("r0-deployment", "A", [deploy["id"]])
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    before_close = await game.events()
    assert not of_kind(before_close, "orders_sealed")  # nothing is published before the close

    await tick(client, clock, 3600)  # deployment closes: sealed, and revealed at once (TB-10)
    public = await game.events()
    assert sealed(public, "r0-deployment")["A"] == mine["receipt"]
    deployment = opened(public)[("r0-deployment", "A")]
    assert deployment["orders"][0]["body"]["troops"] == [26, 1, 1, 1, 1]
    assert recompute(deployment["salt"], deployment["orders"]) == mine["receipt"]

    await tick(client, clock, 3600)  # command: nobody orders; both sides still get a receipt
    battle = await game.order("b1", {"type": "hold", "slot": 2})
    first = battle["receipt"]
    withdrawn = ok(await game.delete(f"/orders/{battle['id']}", "b1"))
    assert withdrawn["receipt"]["order_ids"] == [] and withdrawn["receipt"] != first
    hold = await game.order("b1", {"type": "hold", "slot": 1})
    assert hold["receipt"]["order_ids"] == [hold["id"]]
    public = await game.events()
    assert set(sealed(public, "r1-command")) == {"A", "B"}
    assert ("r1-command", "B") not in opened(public)  # salts stay secret until the end

    await tick(client, clock, 3600)  # battle closes; the round ends the game
    assert (await game.view())["phase"] == "finished"
    public = await game.events()
    assert sealed(public, "r1-battle")["B"] == hold["receipt"]["receipt"]
    everything = opened(public)
    held = everything[("r1-battle", "B")]
    assert [o["id"] for o in held["orders"]] == [hold["id"]]
    for (key, owner), item in everything.items():
        assert recompute(item["salt"], item["orders"]) == sealed(public, key)[owner]

    verified = ok(await game.get("/verify"))
    assert verified["ok"] is True
    assert verified["receipts"] == 6  # three closes × two sides

    # A receipt that no longer matches what was executed is caught.
    async with sessionmaker() as session, session.begin():
        row = (
            await session.scalars(
                select(EventRow).where(
                    EventRow.game_id == game.id, EventRow.kind == "orders_sealed"
                )
            )
        ).first()
        assert row is not None
        data = dict(row.data)
        data["receipts"] = [{**r, "receipt": "0" * 64} for r in data["receipts"]]
        await session.execute(
            update(EventRow)
            .where(EventRow.game_id == game.id, EventRow.seq == row.seq)
            .values(data=data)
        )
    # The record was changed behind the service's back: its remembered answer is stale.
    verify_service.forget(game.id)
    tampered = ok(await game.get("/verify"))
    assert tampered["ok"] is False
    assert any("receipt" in m["problem"] for m in tampered["mismatches"])


async def test_island_receipts_cover_every_living_player_at_midnight(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(
        client,
        clock,
        ["ann", "bob", "cat"],
        {"start_positions": {"ann": [1, 1], "bob": [1, 1], "cat": [5, 5]}},
    )
    clock.set(local(1, 21))
    stab = await game.order("ann", {"type": "assassinate", "target": pid(game, "bob")})
    assert stab["receipt"]["key"] == "d1"
    assert stab["receipt"]["order_ids"] == [stab["id"]]
    await run_at(client, clock, local(1, 24))
    public = await game.events()
    day1 = sealed(public, "d1")
    alive = {pid(game, n) for n in ("ann", "bob", "cat")}
    assert set(day1) == alive  # orders or none, every living player
    assert day1[pid(game, "ann")] == stab["receipt"]["receipt"]
    assert not opened(public)

    await director(game, "end_game")
    public = await game.events()
    ann = opened(public)[("d1", pid(game, "ann"))]
    assert ann["orders"][0]["type"] == "assassinate"
    assert recompute(ann["salt"], ann["orders"]) == day1[pid(game, "ann")]
    verified = ok(await game.get("/verify"))
    assert verified["ok"] is True and verified["receipts"] == 3


async def test_the_player_page_shows_the_receipt_the_thread_will_show(
    client: AsyncClient, clock: FakeClock, browser: Any
) -> None:
    """What the receipts post promises is checkable: the player's page shows their current
    receipt, the same the order's reply carries and the close then publishes."""
    from tests.service.test_web_player_pages import player
    from tests.service.web_helpers import browse

    game = await team_battle(client, {"dice": "high"})
    deploy = await game.order("a1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    phone = await player(game, browser, "a1")
    page = (await browse(phone, f"/play/{game.id}")).text
    assert 'id="receipt"' in page and deploy["receipt"]["receipt"] in page
    await tick(client, clock, 3600)
    assert sealed(await game.events(), "r0-deployment")["A"] == deploy["receipt"]["receipt"]
