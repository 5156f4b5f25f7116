"""Three days on the example island over HTTP, time driven only by the fake clock.

Every outcome below follows from the rules with certainty: encounter and monster-attack
chances are set to 0, and every roll is decided by the tables (strength >= 2x wins/kills
for sure, IS-60/IS-61; a guarded assassin counts 0, IS-25). The story:

day 1  ann, bob and cat walk into the boars' forest (4,3) and hunt a boar together (IS-14);
       eve gives her food to dan and slips away with a hidden move (IS-10); at 24:00 eve
       has no food and goes hungry (IS-35).
day 2  dan, eve and fay join them at (4,3). At 20:30 dan challenges the weakened eve; fay and
       ann join the attack, bob the defence (IS-15). The PK resolves by its own timer: the
       attack wins, eve dies, bob loses power. Bob (on stamina debt, IS-33) assassinates
       ann, who guards against him: bob counts 0, fails, and ann counter-kills him and
       learns who he was (IS-25).
day 3  fay climbs the hill; dan (same cell) and fay ("move down + assassinate", IS-22)
       assassinate cat, who guarded the wrong player: it succeeds and stays anonymous
       (IS-21). fay ends the night in cat's cell, out of stamina to return. fay is out of
       food and goes hungry. Three are left: the game ends (end_when_alive_at_most: 3),
       the seed is revealed and the whole game verifies.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import Game, ok, problem
from tests.service.island_helpers import (
    director,
    island_game,
    local,
    names_in,
    of_kind,
    pid,
    quiet_overrides,
    run_at,
)

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]
STARTS = {"1": [4, 4], "2": [5, 3], "3": [3, 3], "4": [5, 5], "5": [5, 5], "6": [4, 2]}


async def stats(game: Game, who: str) -> dict[str, Any]:
    v = await game.view(who)
    keys = ("position", "stamina", "max_stamina", "power", "hunger", "food", "alive", "debt")
    return {k: v[k] for k in keys}


async def last_night_report(game: Game, who: str) -> dict[str, Any]:
    reports = of_kind(await game.events(who), "night_report")
    assert reports, who
    return reports[-1]


def note_kinds(report: dict[str, Any]) -> list[str]:
    return [n["kind"] for n in report["notes"]]


async def test_three_days_on_the_example_island(client: AsyncClient, clock: FakeClock) -> None:
    game = await island_game(
        client,
        clock,
        NAMES,
        {**quiet_overrides(), "start_positions": STARTS, "end_when_alive_at_most": 3},
    )
    ann, bob, cat, dan, eve, fay = (pid(game, n) for n in NAMES)
    name_of = {pid(game, n): n for n in NAMES}
    commitment = (await game.summary())["seed_commitment"]
    problem(await game.get("/verify"), 409, "seed_not_revealed")

    start = await stats(game, "ann")
    assert start == {
        "position": [4, 4],
        "stamina": 5,
        "max_stamina": 5,
        "power": 2,
        "hunger": 0,
        "food": 2,
        "alive": True,
        "debt": 0,
    }  # IS-1, starting_food 2
    # IS-55: fay stands on a hill (vision 1): her own cell and the four around it.
    fay_view = await game.view("fay")
    assert fay_view["vision"] == 1
    assert sorted(c["at"] for c in fay_view["visible_cells"]) == [
        [3, 2],
        [4, 1],
        [4, 2],
        [4, 3],
        [5, 2],
    ]
    assert [c["monsters"] for c in fay_view["visible_cells"] if c["at"] == [4, 3]] == [
        [{"id": "boars", "kind": "boar", "count": 2}]
    ]
    # ann on plain has vision 0: only her own cell.
    assert [c["at"] for c in (await game.view("ann"))["visible_cells"]] == [[4, 4]]

    # ---- day 1: moves -----------------------------------------------------------------
    clock.set(local(1, 10))
    moved = await game.order("ann", {"type": "move", "direction": "up"})
    assert moved["status"] == "resolved"
    assert moved["result"]["to"] == [4, 3]
    assert moved["result"]["monsters"] == [{"id": "boars", "kind": "boar", "count": 2}]
    await game.order("bob", {"type": "move", "direction": "left"})
    await game.order("cat", {"type": "move", "direction": "right"})
    for who in ("ann", "bob", "cat"):
        s = await stats(game, who)
        assert (s["position"], s["stamina"]) == ([4, 3], 4), who  # IS-10: 1 stamina
    # fay (hill) saw the three arrive; the moves are in her events.
    fay_moves = of_kind(await game.events("fay"), "moved")
    assert sorted(m["name"] for m in fay_moves) == ["ann", "bob", "cat"]
    assert names_in(await game.view("fay"), 4, 3) == ["ann", "bob", "cat"]

    # eve gives her food to dan (IS-36, same cell), then slips north, hidden (IS-10).
    gave = await game.order("eve", {"type": "give", "to": dan, "item": "food", "count": 2})
    assert gave["result"] == {"from": eve, "to": dan, "item": "food", "count": 2}
    dan_events_before = await game.events("dan")
    await game.order("eve", {"type": "move", "direction": "up", "hidden": True})
    assert await game.events("dan") == dan_events_before  # the hidden move is not announced
    assert names_in(await game.view("dan"), 5, 5) == ["dan"]
    assert (await stats(game, "eve"))["position"] == [5, 4]
    # dan follows (a normal move): now he sees eve where she went.
    await game.order("dan", {"type": "move", "direction": "up"})
    assert names_in(await game.view("dan"), 5, 4) == ["dan", "eve"]
    # eve, at the destination, sees dan arrive (a public move), dan never saw hers.
    assert [m["name"] for m in of_kind(await game.events("eve"), "moved")] == ["eve", "dan"]
    assert [m["name"] for m in of_kind(await game.events("dan"), "moved")] == ["dan"]

    # ---- day 1: the hunt (IS-14) ---------------------------------------------------------
    # Hunting together is one order for the team (a proxy, IS-39): the director first puts
    # the three hunters in one faction (IS-38).
    for who in (ann, bob, cat):
        await director(game, "set_faction", player=who, faction="hunters")
    clock.set(local(1, 11))
    hunt = await game.order("ann", {"type": "hunt", "monster": "boars", "with": [bob, cat]})
    result = hunt["result"]
    # 3 x power 2 = 6 >= 2 x boar 3: the hunters win for sure (IS-60); 3 food, 1 each.
    assert (result["result"], result["strength"], result["monster_power"]) == ("won", 6, 3)
    assert result["food"] == {ann: 1, bob: 1, cat: 1}
    for who in ("ann", "bob", "cat"):
        s = await stats(game, who)
        assert (s["stamina"], s["food"], s["power"]) == (1, 3, 2), who
    assert [c["monsters"] for c in (await game.view("ann"))["visible_cells"]] == [
        [{"id": "boars", "kind": "boar", "count": 1}]
    ]
    # fay watched it from the hill; dan and eve (out of sight) know nothing of it.
    assert len(of_kind(await game.events("fay"), "hunt")) == 1
    for who in ("dan", "eve", None):
        assert of_kind(await game.events(who), "hunt") == [], who

    # ---- day 1: 24:00 ----------------------------------------------------------------------
    # PKs are only posted 20:00-24:00 (IS-15); none today. The clock reaches 24:00.
    ran = await run_at(client, clock, local(1, 24))
    assert ran == 5  # four monster checks (20:00-23:00) and the midnight
    pub = await game.view()
    assert (pub["day"], pub["date"]) == (2, "2026-03-11")
    day1 = of_kind(await game.events(), "day_report")
    assert day1 == [
        {
            "day": 1,
            "date": "2026-03-10",
            "early": False,
            "new_day": 2,
            "deaths": [],
            "alive": [{"player": p, "name": name_of[p]} for p in (ann, bob, cat, dan, eve, fay)],
        }
    ]
    # IS-35: everyone eats one; eve has none and is hungry: power and max stamina halve.
    expect_food = {"ann": 2, "bob": 2, "cat": 2, "dan": 3, "eve": 0, "fay": 1}
    for who, food in expect_food.items():
        s = await stats(game, who)
        assert s["food"] == food, who
        report = await last_night_report(game, who)
        assert report["day"] == 1 and report["food"] == food
        if who == "eve":
            assert note_kinds(report) == ["hungry"]
            assert (s["hunger"], s["power"], s["max_stamina"], s["stamina"]) == (1, 1, 2, 2)
        else:
            assert note_kinds(report) == ["ate"]
            assert (s["hunger"], s["power"], s["max_stamina"], s["stamina"]) == (0, 2, 5, 5)

    # ---- day 2: everyone gathers at (4,3) ------------------------------------------------
    clock.set(local(2, 9))
    for who, steps in (("dan", ["left", "up"]), ("eve", ["left", "up"]), ("fay", ["down"])):
        for d in steps:
            await game.order(who, {"type": "move", "direction": d})
    assert names_in(await game.view("ann"), 4, 3) == sorted(NAMES)
    assert (await stats(game, "eve"))["stamina"] == 0  # hungry: only 2 stamina today
    problem(
        await game.post("/orders", "eve", {"type": "move", "direction": "up"}),
        409,
        "not_enough_stamina",
    )

    # ---- day 2: the PK (IS-15, IS-60) ----------------------------------------------------
    clock.set(local(2, 19, 59))
    early = problem(
        await game.post("/orders", "dan", {"type": "pk", "targets": [eve]}),
        409,
        "outside_pk_window",
    )
    assert early["rule"] == "IS-15"
    await run_at(client, clock, local(2, 20, 30))  # the 20:00 monster check runs (no attack)
    pk = await game.order("dan", {"type": "pk", "targets": [eve]})
    assert pk["status"] == "pending"
    challenge = pk["result"]["challenge"]
    due = pk["result"]["due_at"]
    minutes = (datetime.fromisoformat(due) - local(2, 20, 30)).total_seconds() / 60
    assert 20 <= minutes <= 40  # IS-15 response window
    clock.set(local(2, 20, 35))
    await game.order("fay", {"type": "pk_join", "challenge": challenge, "side": "attack"})
    await game.order("ann", {"type": "pk_join", "challenge": challenge, "side": "attack"})
    await game.order("bob", {"type": "pk_join", "challenge": challenge, "side": "defend"})
    problem(
        await game.post(
            "/orders", "cat", {"type": "pk_join", "challenge": challenge, "side": "attack"}
        ),
        409,
        "pk_side_full",
    )  # at most 3 per side
    # The public PK thread shows the sides while it is open.
    open_pk = (await game.view())["public_challenges"]
    assert open_pk == [
        {
            "id": challenge,
            "attackers": [dan, fay, ann],
            "defenders": [eve, bob],
            "status": "open",
            "winner": None,
            "due_at": due,
        }
    ]
    # PK members are locked in place until it resolves (IS-11).
    problem(await game.post("/orders", "bob", {"type": "move", "direction": "up"}), 409, "in_pk")
    await run_at(client, clock, local(2, 20, 45))
    assert (await game.view())["public_challenges"][0]["status"] == "open"
    # It resolves by its own timer: attack 2+2+2 = 6 >= 2 x (eve 1 + bob 2 = 3): certain.
    await run_at(client, clock, local(2, 21, 15))
    resolved = of_kind(await game.events(), "pk_resolved")
    assert resolved == [
        {
            "challenge": challenge,
            "attackers": [dan, fay, ann],
            "defenders": [eve, bob],
            "fled": [],
            "winner": "attack",
            "strengths": {"attack": 6, "defend": 3},
            "losses": {eve: "died", bob: "lost"},
        }
    ]
    # eve (power 2 halved by hunger to 1) loses 1 base power: 1 >> 1 = 0, she dies, and
    # a PK death is public at once; bob drops from 2 to 1.
    assert of_kind(await game.events(), "death_announced") == [{"player": eve, "name": "eve"}]
    assert (await game.view())["dead"] == [{"id": eve, "name": "eve"}]
    assert (await stats(game, "eve"))["alive"] is False
    assert (await stats(game, "bob"))["power"] == 1
    for who in ("dan", "fay", "ann"):
        assert (await stats(game, who))["power"] == 2
    assert of_kind(await game.events("eve"), "death") == [
        {"player": eve, "name": "eve", "cause": "pk"}
    ]

    # ---- day 2: guard and assassination (IS-20, IS-25, IS-33) ------------------------------
    clock.set(local(2, 21, 20))
    guard = await game.order("ann", {"type": "guard", "target": bob})
    assert guard["status"] == "pending"
    assert (await stats(game, "ann"))["stamina"] == 0  # 5 - 3 (join) - 2 (guard)
    clock.set(local(2, 21, 30))
    # bob has 2 stamina left: his once-per-game stamina debt covers the assassination.
    stab = await game.order("bob", {"type": "assassinate", "target": ann})
    assert stab["result"] == {"pending": True, "debt": 1}
    bob_now = await game.view("bob")
    assert (bob_now["stamina"], bob_now["debt"], bob_now["debt_available"]["assassinate"]) == (
        0,
        1,
        False,
    )
    # An assassination cannot be changed (IS-23), and nobody else sees it.
    problem(
        await game.put(f"/orders/{stab['id']}", "bob", {"type": "assassinate", "target": cat}),
        409,
        "cannot_change",
    )
    for who in ("ann", "cat", "dan", "fay", None):
        assert of_kind(await game.events(who), "order_posted") == (
            [{"order_id": guard["id"], "type": "guard", "target": bob, "debt": 0}]
            if who == "ann"
            else []
        ), who

    await run_at(client, clock, local(2, 24))
    # bob's strength counts 0 against the guard: 0 vs 2 fails for sure; ann then
    # counter-kills: 2 >= 2 x bob's 1, certain.
    assert (await stats(game, "bob"))["alive"] is False
    assert (await stats(game, "ann"))["alive"] is True
    ann_report = await last_night_report(game, "ann")
    assert {"kind": "assassins_revealed", "assassins": [bob], "success": False} in ann_report[
        "notes"
    ]
    assert {"kind": "counter_kill", "against": bob, "success": True} in ann_report["notes"]
    bob_report = await last_night_report(game, "bob")
    assert bob_report["alive"] is False
    assert {"kind": "assassination", "target": ann, "success": False} in bob_report["notes"]
    assert {"kind": "counter_kill", "by": ann, "success": True} in bob_report["notes"]
    assert {"kind": "death", "cause": "counter_kill"} in bob_report["notes"]
    # Nobody else learns who tried what: cat, dan and fay only ate.
    for who in ("cat", "dan", "fay"):
        assert note_kinds(await last_night_report(game, who)) == ["ate"], who
    day2 = of_kind(await game.events(), "day_report")[-1]
    assert day2["deaths"] == [{"player": bob, "name": "bob"}]  # eve was announced already
    assert [a["name"] for a in day2["alive"]] == ["ann", "cat", "dan", "fay"]
    assert "assassins" not in str(of_kind(await game.events(), "day_report"))
    director_report = of_kind(await game.events("director"), "director_report")[-1]
    assert director_report["assassinations"] == [
        {
            "target": ann,
            "assassins": [bob],
            "strengths": {bob: 0},
            "target_strength": 2,
            "success": False,
            "guarded": [bob],
            "counter_kills": [{"assassin": bob, "success": True}],
        }
    ]
    expect_food = {"ann": 1, "cat": 1, "dan": 2, "fay": 0}
    for who, food in expect_food.items():
        s = await stats(game, who)
        assert (s["food"], s["stamina"], s["power"], s["hunger"]) == (food, 5, 2, 0), who

    # ---- day 3: the unguarded assassination (IS-21, IS-22) ---------------------------------
    clock.set(local(3, 10))
    await game.order("fay", {"type": "move", "direction": "up"})
    assert (await stats(game, "fay"))["position"] == [4, 2]
    await game.order("cat", {"type": "guard", "target": ann})  # the wrong suspect
    await game.order("dan", {"type": "assassinate", "target": cat})
    # fay, on the hill, sees cat below her: "move down + assassinate" (IS-22).
    await game.order("fay", {"type": "assassinate", "target": cat, "path": ["down"]})
    assert (await stats(game, "fay"))["stamina"] == 1  # 5 - 1 - 3
    # ann, in the very cell, sees nothing of it.
    assert of_kind(await game.events("ann"), "order_posted")[-1]["type"] == "guard"

    await run_at(client, clock, local(3, 24))
    # dan 2 + fay 2 = 4 >= 2 x cat's 2: certain (IS-61). The guard on ann does not help.
    cat_report = await last_night_report(game, "cat")
    assert cat_report["alive"] is False
    assert "assassins_revealed" not in note_kinds(cat_report)
    assert {"kind": "death", "cause": "assassination"} in cat_report["notes"]
    assert str(dan) not in str(cat_report) and str(fay) not in str(cat_report)
    for who in ("dan", "fay"):
        report = await last_night_report(game, who)
        assert {"kind": "assassination", "target": cat, "success": True} in report["notes"]
    # fay spent her last stamina on the night move, so she stays in cat's cell (IS-22).
    fay_report = await last_night_report(game, "fay")
    assert {"kind": "night_position", "at": [4, 3]} in fay_report["notes"]
    # fay had no food left: hunger 1 (IS-35), power 2 -> 1, max stamina 5 -> 2.
    assert {"kind": "hungry", "hunger": 1} in fay_report["notes"]
    fay_now = await stats(game, "fay")
    assert fay_now == {
        "position": [4, 3],
        "stamina": 2,
        "max_stamina": 2,
        "power": 1,
        "hunger": 1,
        "food": 0,
        "alive": True,
        "debt": 0,
    }
    assert (await stats(game, "ann"))["food"] == 0
    assert (await stats(game, "dan"))["food"] == 1
    day3 = of_kind(await game.events(), "day_report")[-1]
    assert day3["deaths"] == [{"player": cat, "name": "cat"}]
    assert set(day3) == {
        "day",
        "date",
        "early",
        "new_day",
        "deaths",
        "alive",
    }  # IS-21: no assassins

    # ---- the end: three left, the seed is revealed, the game verifies ------------------
    assert of_kind(await game.events(), "game_over") == [{"survivors": [ann, dan, fay]}]
    summary = await game.summary()
    assert summary["status"] == "finished"
    assert hashlib.sha256(summary["seed"].encode()).hexdigest() == commitment
    problem(
        await game.post("/orders", "ann", {"type": "move", "direction": "up"}), 409, "game_finished"
    )
    verified = ok(await game.get("/verify"))
    assert verified["ok"] is True, verified
    assert verified["commitment_ok"] is True
    assert verified["steps"] >= 30
