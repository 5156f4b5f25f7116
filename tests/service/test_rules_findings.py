"""Rules findings that show through the HTTP API (issue 7), on SQLite and PostgreSQL.

Each test is named after the rule it holds the service to; the rule-level tests of the
same findings are in tests/rules/.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from httpx import AsyncClient, Response

from app.clock import FakeClock
from tests.service.helpers import Game, ok, problem
from tests.service.island_helpers import (
    director,
    island_game,
    local,
    of_kind,
    pid,
    quiet_overrides,
    run_at,
)

NAMES = ["ann", "bob", "cat"]
STARTS = {"1": [1, 1], "2": [3, 3], "3": [5, 5]}


def quiet(**overrides: Any) -> dict[str, Any]:
    """The example island without chance events, three players apart (IS-50, IS-51)."""
    return {**quiet_overrides(), "start_positions": STARTS, **overrides}


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def anonymised(response: Response, ids: dict[str, str]) -> bytes:
    """The response body with every id replaced by a name, byte for byte otherwise."""
    body = response.content
    for real, name in ids.items():
        body = body.replace(real.encode(), name.encode())
    return body


async def _assassinate_out_of_sight(
    client: AsyncClient, clock: FakeClock, bob_at: list[int]
) -> tuple[Game, Response]:
    """ann stands alone at (1,1) with vision 0 (IS-55) and orders "move right and
    assassinate bob" (IS-22) — bob is at ``bob_at``."""
    starts = {"1": [1, 1], "2": bob_at, "3": [5, 5]}
    game = await island_game(
        client, clock, NAMES, quiet(start_positions=starts, monster_check_times=[])
    )
    await director(game, "grant_item", player=pid(game, "ann"), item="flare_gun")
    clock.set(local(1, 12))
    body = {
        "type": "assassinate",
        "target": pid(game, "bob"),
        "path": ["right"],
        "use_weapon": True,
    }
    return game, await game.post("/orders", "ann", body)


async def test_is22_move_and_assassinate_out_of_sight_answers_the_same_either_way(
    client: AsyncClient, clock: FakeClock
) -> None:
    """IS-22 with IS-55: "move + assassinate" into a cell the assassin cannot see is taken
    with the same answer whether or not the target is there; 24:00 decides."""
    there, there_r = await _assassinate_out_of_sight(client, clock, [2, 1])
    away, away_r = await _assassinate_out_of_sight(client, clock, [4, 4])
    answers = []
    for game, response in ((there, there_r), (away, away_r)):
        assert response.status_code == 201, response.text
        ids = {game.id: "GAME", response.json()["id"]: "ORDER"}
        # A sealed-order receipt is salted per game (app/publish/receipts.py): it differs
        # between any two games, whatever their orders.
        ids[response.json()["receipt"]["receipt"]] = "RECEIPT"
        ids.update({pid(game, name): name.upper() for name in NAMES})
        headers = {k: v for k, v in response.headers.items() if k not in ("date",)}
        answers.append((response.status_code, headers, anonymised(response, ids)))
    assert answers[0] == answers[1]
    # What ann reads afterwards is the same too: her view of her orders and her cell.
    views = []
    for game in (there, away):
        view = await game.view("ann")
        views.append(([o["type"] for o in view["orders"]], view["visible_cells"], view["stamina"]))
    assert views[0][0] == views[1][0] == ["assassinate"] and views[0][2] == views[1][2] == 2
    assert [c["at"] for c in views[0][1]] == [c["at"] for c in views[1][1]] == [[1, 1]]

    # 24:00 decides: 5 against 2 is certain where bob is (IS-61); a miss where he is not.
    assert await run_at(client, clock, local(1, 24)) == 2  # both games' 24:00
    assert [d["name"] for d in of_kind(await there.events(), "day_report")[-1]["deaths"]] == ["bob"]
    assert of_kind(await away.events(), "day_report")[-1]["deaths"] == []
    notes = of_kind(await away.events("ann"), "night_report")[-1]["notes"]
    assert "assassination_missed" in [n["kind"] for n in notes]


async def test_is40_an_early_advance_of_24_00_is_followed_by_tonights_24_00(
    client: AsyncClient, clock: FakeClock
) -> None:
    """IS-40 / IS-3: when the director runs 24:00 at noon with /advance, the next 24:00 is
    that night's (12 hours on), not the next day's (36 hours on)."""
    game = await island_game(client, clock, NAMES, quiet(monster_check_times=[]))
    clock.set(local(1, 12))
    advanced = ok(await game.post("/advance", "director"))
    assert advanced["advanced"]["timer"]["kind"] == "midnight"
    view = await game.view()
    assert (view["day"], view["date"]) == (2, "2026-03-10")
    timers = ok(await game.get("/timers", "director"))
    (midnight,) = [t for t in timers if t["kind"] == "midnight"]
    assert utc(midnight["due_at"]) == local(1, 24)
    assert await run_at(client, clock, local(1, 24)) == 1  # it runs by itself, on time
    assert ((await game.view())["day"], (await game.view())["date"]) == (3, "2026-03-11")


async def test_is35_eating_more_than_held_is_refused_and_changes_nothing(
    client: AsyncClient, clock: FakeClock
) -> None:
    """IS-35: a hungry player eats food to lower hunger by the amount eaten; asking for 3
    with 2 food is refused with the rule, not quietly turned into eating 1."""
    game = await island_game(client, clock, NAMES, quiet(starting_food=0))
    await run_at(client, clock, local(1, 24))  # nothing to eat: hunger 1
    ann = pid(game, "ann")
    await director(game, "adjust_food", player=ann, delta=2)
    clock.set(local(2, 9))
    before = await game.view("ann")
    assert (before["hunger"], before["food"]) == (1, 2)
    refused = problem(await game.post("/orders", "ann", {"type": "eat", "food": 3}), 409, "no_food")
    assert refused["rule"] == "IS-35"
    assert await game.view("ann") == before
    eaten = await game.order("ann", {"type": "eat", "food": 1})
    assert eaten["result"] == {"eaten": 1, "hunger": 0, "food": 1}


async def test_is37_equipped_names_a_weapon_that_counts(
    client: AsyncClient, clock: FakeClock
) -> None:
    """IS-37: the weapon with the largest power bonus is equipped by default, so the view
    names it as soon as the player has it (a limited-use one only for ``use_weapon``)."""
    game = await island_game(client, clock, NAMES, quiet())
    ann = pid(game, "ann")
    assert (await game.view("ann"))["equipped"] is None
    await director(game, "grant_item", player=ann, item="spear")
    await director(game, "grant_item", player=ann, item="flare_gun")
    view = await game.view("ann")
    assert (view["equipped"], view["equipped_for_use_weapon"]) == ("spear", "flare_gun")
    director_view: dict[str, Any] = await game.view("director")
    assert director_view["all_players"][ann]["equipped"] == "spear"


async def test_is15_and_is10_refusals_name_their_rule(
    client: AsyncClient, clock: FakeClock
) -> None:
    """IS-15: a dead player's order is refused citing the rule; IS-10: so is a diagonal
    move."""
    game = await island_game(client, clock, NAMES, quiet())
    clock.set(local(1, 10))
    diagonal = await game.post("/orders", "ann", {"type": "move", "direction": "up-left"})
    assert problem(diagonal, 422, "bad_direction")["rule"] == "IS-10"
    await director(game, "kill_player", player=pid(game, "bob"))
    dead = await game.post("/orders", "bob", {"type": "explore"})
    assert problem(dead, 409, "dead")["rule"] == "IS-15"
