"""Island secrets hold across the whole API, walked as an outsider and as the public.

Whatever a player does in secret — spend stamina, move hidden, assassinate, guard, revise or
withdraw — what another player (outside their vision) and the public get from every endpoint
is byte-for-byte what they got before, until the rules reveal it at 24:00. Errors about a
target outside vision read exactly like errors about something that does not exist.
"""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import Game, ok, problem
from tests.service.island_helpers import (
    island_game,
    local,
    names_in,
    of_kind,
    pid,
    quiet_overrides,
    run_at,
)

READ_PATHS = ("", "/view", "/events", "/orders", "/audit", "/timers", "/verify")
NAMES = ["olga", "sam", "tia", "ulf"]
# olga: alone on the beach at (1,1), vision 0. sam and tia share (4,4); ulf is at (5,5).
STARTS = {"1": [1, 1], "2": [4, 4], "3": [4, 4], "4": [5, 5]}
OUTSIDERS: tuple[str | None, ...] = (None, "olga")
MADE_UP = "nosuchorder1"


async def everything(game: Game, who: str | None, probe_ids: list[str]) -> dict[str, Any]:
    """Every read endpoint, plus every endpoint that names an order, as ``who``."""
    seen: dict[str, Any] = {}
    for path in READ_PATHS:
        r = await game.get(path, who)
        seen[f"GET {path}"] = (r.status_code, r.json())
    for i, order_id in enumerate(probe_ids):
        for method in ("GET", "DELETE", "PUT"):
            if method == "GET":
                r = await game.get(f"/orders/{order_id}/history", who)
            elif method == "DELETE":
                r = await game.delete(f"/orders/{order_id}", who)
            else:
                body = {"type": "assassinate", "target": pid(game, "olga")}
                r = await game.put(f"/orders/{order_id}", who, body)
            seen[f"{method} order#{i}"] = (r.status_code, r.json())
    return seen


async def snapshot(game: Game) -> dict[str | None, dict[str, Any]]:
    return {who: await everything(game, who, [MADE_UP]) for who in OUTSIDERS}


async def assert_unchanged(
    game: Game, before: dict[str | None, dict[str, Any]], real_ids: list[str]
) -> None:
    for who in OUTSIDERS:
        assert await everything(game, who, [MADE_UP]) == before[who], who
        for real in real_ids:
            # Another player's real order id answers exactly like a made-up one.
            assert await everything(game, who, [real]) == before[who], (who, real)


async def test_secret_actions_out_of_sight_change_nothing_an_outsider_can_read(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, NAMES, {**quiet_overrides(), "start_positions": STARTS})
    sam, tia, ulf = pid(game, "sam"), pid(game, "tia"), pid(game, "ulf")
    clock.set(local(1, 12))
    before = await snapshot(game)
    olga = await game.view("olga")
    assert [c["at"] for c in olga["visible_cells"]] == [[1, 1]]
    assert {"stamina", "food", "power"} <= set(olga)
    assert "all_players" not in olga and "orders" in olga and olga["orders"] == []

    # sam assassinates tia (same cell) and guards ulf; tia guards sam; ulf spends stamina.
    stab = await game.order("sam", {"type": "assassinate", "target": tia})
    guard_sam = await game.order("sam", {"type": "guard", "target": ulf})
    guard_tia = await game.order("tia", {"type": "guard", "target": sam})
    await game.order("ulf", {"type": "move", "direction": "up"})  # (5,5) -> (5,4), public move
    await game.order("ulf", {"type": "move", "direction": "down"})
    await assert_unchanged(game, before, [stab["id"], guard_sam["id"], guard_tia["id"]])

    # tia slips away hidden: sam is told his target moved (IS-23) and cancels for a refund.
    await game.order("tia", {"type": "move", "direction": "up", "hidden": True})
    assert names_in(await game.view("sam"), 4, 4) == ["sam"]
    moved = of_kind(await game.events("sam"), "target_moved")
    assert [m["order_id"] for m in moved] == [stab["id"]]
    assert of_kind(await game.events("sam"), "moved") == []  # but not where she went
    # A revision naming nobody at all is refused and changes nothing. (Re-targeting tia out
    # of sight with "move + assassinate" is taken whether or not she is there, IS-22:
    # tests/service/test_rules_findings.py.)
    ghost = await game.put(
        f"/orders/{stab['id']}", "sam", {"type": "assassinate", "target": "nobody", "path": ["up"]}
    )
    problem(ghost, 404, "not_found")
    withdrawn = ok(await game.delete(f"/orders/{stab['id']}", "sam"))
    assert withdrawn["result"] == {"withdrawn": stab["id"], "refund": 3}
    assert (await game.view("sam"))["stamina"] == 3  # 5 - 3 - 2 + 3
    await assert_unchanged(game, before, [stab["id"], guard_sam["id"]])

    # The players concerned see their own, and only their own, orders.
    assert [o["id"] for o in (await game.view("tia"))["orders"]] == [guard_tia["id"]]
    assert sorted(o["id"] for o in ok(await game.get("/orders", "sam"))) == sorted(
        [stab["id"], guard_sam["id"]]
    )
    for who in ("tia", "ulf"):
        problem(await game.get(f"/orders/{stab['id']}/history", who), 404, "not_found")
    # The director sees all of it.
    director_orders = {o["id"] for o in ok(await game.get("/orders", "director"))}
    assert {stab["id"], guard_sam["id"], guard_tia["id"]} <= director_orders

    # Errors never confirm a player outside vision: tia's real id answers like a made-up one.
    for body_for in (
        lambda t: {"type": "assassinate", "target": t},
        lambda t: {"type": "pk", "targets": [t]},
        lambda t: {"type": "give", "to": t, "item": "food"},
        lambda t: {"type": "hunt", "monster": "boars", "with": [t]},
    ):
        real = await game.post("/orders", "olga", body_for(tia))
        fake = await game.post("/orders", "olga", body_for("nosuchplayer"))
        assert real.status_code == fake.status_code, (real.text, fake.text)
        assert real.json() == fake.json()
    # A PK challenge out of sight is as unknown as a made-up one (posted in the window).
    await run_at(client, clock, local(1, 20, 5))
    await game.order("ulf", {"type": "move", "direction": "left"})  # (5,5) -> (4,5)
    await game.order("ulf", {"type": "move", "direction": "up"})  # -> (4,4), sam's cell
    pk = await game.order("sam", {"type": "pk", "targets": [ulf]})
    cid = pk["result"]["challenge"]
    real = await game.post(
        "/orders", "olga", {"type": "pk_join", "challenge": cid, "side": "attack"}
    )
    fake = await game.post(
        "/orders", "olga", {"type": "pk_join", "challenge": "pk999", "side": "attack"}
    )
    assert (real.status_code, real.json()) == (
        fake.status_code,
        fake.json(),
    ) and real.status_code == 404


async def test_stamina_and_hidden_orders_are_private_to_their_player(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, NAMES, {**quiet_overrides(), "start_positions": STARTS})
    sam, tia = pid(game, "sam"), pid(game, "tia")
    clock.set(local(1, 12))
    await game.order("sam", {"type": "assassinate", "target": tia})
    await game.order("tia", {"type": "guard", "target": sam})
    # tia shares sam's cell: she sees him there, but not his stamina, his order or his debt.
    tia_view = await game.view("tia")
    here = [c for c in tia_view["visible_cells"] if c["at"] == [4, 4]][0]
    assert {p["name"] for p in here["players"]} == {"sam", "tia"}
    for p in here["players"]:
        assert set(p) == {"id", "name", "visible_actions"}
        assert p["visible_actions"] == []
    assert tia_view["stamina"] == 3 and (await game.view("sam"))["stamina"] == 2
    for who in ("olga", "tia", "ulf", None):
        for e in await game.events(who):
            data = e["data"]
            assert e["kind"] != "order_posted" or data["target"] != tia or who == "sam", (who, e)
            assert not (e["kind"] == "order_posted" and who != "tia" and data["type"] == "guard")
    # tia's guard and sam's assassination are each in their own player's order list only.
    assert {o["type"] for o in (await game.view("sam"))["orders"]} == {"assassinate"}
    assert {o["type"] for o in (await game.view("tia"))["orders"]} == {"guard"}

    # The rules reveal at 24:00: tia guarded sam, so she (only she) learns who came for her.
    await run_at(client, clock, local(1, 24))
    tia_report = of_kind(await game.events("tia"), "night_report")[-1]
    assert {"kind": "assassins_revealed", "assassins": [sam], "success": False} in tia_report[
        "notes"
    ]
    # Everyone else gets only the public day report (who is alive or dead, never why or by
    # whom; the counter-kill is a 1/3 roll, so sam may or may not be among the dead) and
    # their own night report.
    for who in ("olga", "ulf", None):
        events = await game.events(who)
        assert "assassin" not in str(events) and "guard" not in str(events), who
        for report in of_kind(events, "day_report"):
            assert set(report) == {"day", "date", "early", "new_day", "deaths", "alive"}
        for report in of_kind(events, "night_report"):
            assert [n["kind"] for n in report["notes"]] == ["ate"], who


async def test_a_hidden_move_into_sight_shows_the_player_but_not_the_move(
    client: AsyncClient, clock: FakeClock
) -> None:
    # olga stands on the hill at (2,4) (vision 1); sam comes from (3,5), outside it, to (3,4).
    starts = {"1": [2, 4], "2": [3, 5], "3": [5, 5], "4": [5, 1]}
    game = await island_game(client, clock, NAMES, {**quiet_overrides(), "start_positions": starts})
    clock.set(local(1, 12))
    events_before = await game.events("olga")
    assert names_in(await game.view("olga"), 3, 4) == []
    await game.order("sam", {"type": "move", "direction": "up", "hidden": True})
    assert names_in(await game.view("olga"), 3, 4) == ["sam"]  # seen there afterwards
    assert await game.events("olga") == events_before  # but never told of the move
    # A public move within her sight is announced to her.
    await game.order("sam", {"type": "move", "direction": "left"})
    assert [m["name"] for m in of_kind(await game.events("olga"), "moved")] == ["sam"]
