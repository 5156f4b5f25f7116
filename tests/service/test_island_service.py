"""Island games through the service: scenario validation, local-time timers stored as UTC
(DST included), timers that run by themselves, audited director tools and the 24:00 reports."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import create_game, ok, problem
from tests.service.island_helpers import (
    director,
    example_settings,
    example_text,
    island_game,
    local,
    of_kind,
    pid,
    quiet_overrides,
    run_at,
)

NAMES = ["ann", "bob", "cat"]
STARTS = {"1": [1, 1], "2": [3, 3], "3": [5, 5]}


def quiet() -> dict[str, Any]:
    return {**quiet_overrides(), "start_positions": STARTS}


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


async def create(client: AsyncClient, body: dict[str, Any]) -> Any:
    return await client.post("/api/v1/games", json={"ruleset": "island", **body})


# --- scenario validation --------------------------------------------------------------
async def test_the_example_starts_with_three_players_and_verifies(
    client: AsyncClient, clock: FakeClock
) -> None:
    """IS-4: the example scenario (the create form's default) lists six start positions;
    three players start on the first three, and the finished game replays on /verify (it
    once refused to start: "起始位置指向不存在的玩家：4, 5, 6")."""
    game = await island_game(client, clock, NAMES, quiet_overrides())
    assert (await game.summary())["status"] == "running"
    assert [(await game.view(n))["position"] for n in NAMES] == [[1, 1], [5, 1], [1, 5]]
    await director(game, "end_game")
    assert ok(await game.get("/verify"))["ok"] is True


async def test_a_roster_beyond_the_scenario_is_refused_saying_how_many(
    client: AsyncClient, clock: FakeClock
) -> None:
    """IS-4: a seventh player for the six-player example is refused when added (409,
    Chinese first, with the rule, saying how many the scenario takes), and a roster that
    is outside the range at the start (one player) is refused there; the game stays in
    setup."""
    clock.set(local(1, 9))
    game = await create_game(client, "island", {}, scenario=example_text())
    for n in range(6):
        await game.add_player(f"玩家{n + 1}")
    full = problem(await game.post("/players", "director", {"name": "玩家7"}), 409, "roster_full")
    assert full["rule"] == "IS-4"
    assert full["detail"] == "名单已满：本剧本可容纳 2–6 名玩家。"
    assert len((await game.summary())["players"]) == 6  # nothing was added

    alone = await create_game(client, "island", {}, scenario=example_text())
    await alone.add_player("独行者")
    body = problem(await alone.post("/start", "director"), 409, "bad_roster")
    assert body["rule"] == "IS-4"
    assert body["detail"] == "本剧本可容纳 2–6 名玩家，现在有 1 名。"
    assert (await alone.summary())["status"] == "setup"


async def test_the_example_scenario_loads_from_yaml_text_with_overrides(
    client: AsyncClient,
) -> None:
    created = ok(
        await create(client, {"scenario": example_text(), "settings": {"starting_food": 4}}), 201
    )
    assert created["title"] == "另一面 · 示例岛"
    assert created["timezone"] == "Asia/Shanghai"
    s = created["settings"]
    assert (s["width"], s["height"], s["starting_food"]) == (5, 5, 4)
    assert s["pk_window_minutes"] == [20, 40]  # every effective value is listed
    assert {m["id"] for m in s["monsters"]} == {"bear1", "boars"}
    # The same scenario as a JSON object works too.
    as_object = {"title": "对象", "settings": example_settings()}
    assert ok(await create(client, {"scenario": as_object}), 201)["settings"] == {
        **s,
        "starting_food": 2,
    }


async def test_scenario_errors_are_422_problems_listing_every_problem(client: AsyncClient) -> None:
    broken = example_settings()
    broken["cells"].append({"at": [9, 2], "terrain": "forest"})  # outside the 5x5 map
    broken["cells"].append({"at": [1, 1], "terrain": "lava"})  # overlapping, unknown terrain
    broken["monsters"].append({"id": "ghost", "kind": "dragon", "at": [2, 2]})
    r = await create(client, {"scenario": {"title": "坏", "settings": broken}})
    body = problem(r, 422, "invalid_settings")
    listed = " ".join(body["errors"])
    for expected in (
        "cell [9, 2] is outside the 5x5 map",
        "cell [1, 1] is listed twice (overlapping)",
        "cell [1, 1]: unknown terrain 'lava'",
        "monster 'ghost': unknown monster kind 'dragon'",
    ):
        assert expected in listed, (expected, body)
        assert expected in body["detail"]

    # Not YAML at all.
    body = problem(
        await create(client, {"scenario": "width: [5, 5\nheight: 5"}), 422, "invalid_scenario"
    )
    assert "YAML" in body["detail"] or "YAML" in body["title"] or "JSON" in body["detail"]
    # YAML, but not a mapping.
    problem(await create(client, {"scenario": "- 1\n- 2\n"}), 422, "invalid_scenario")
    # A field the ruleset does not know, and a start position outside the map.
    body = problem(
        await create(client, {"scenario": example_text(), "settings": {"wdth": 5}}),
        422,
        "invalid_settings",
    )
    assert any("wdth" in e for e in body["errors"])
    body = problem(
        await create(
            client, {"scenario": example_text(), "settings": {"start_positions": {"1": [0, 3]}}}
        ),
        422,
        "invalid_settings",
    )
    assert "start position of '1' [0, 3] is outside the map" in " ".join(body["errors"])
    problem(
        await create(client, {"scenario": example_text(), "timezone": "Mars/Olympus"}),
        422,
        "bad_timezone",
    )


# --- timers in local time, stored as UTC --------------------------------------------------
async def test_midnight_is_24_00_shanghai_stored_as_utc(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, NAMES, quiet())
    timers = ok(await game.get("/timers", "director"))
    by_kind = {(t["kind"], t["key"]): utc(t["due_at"]) for t in timers}
    # Day 1 is 2026-03-10 local; 24:00 there is 16:00 UTC the same date.
    assert by_kind[("midnight", "midnight")] == datetime(2026, 3, 10, 16, 0, tzinfo=UTC)
    for hhmm, hour_utc in (("20:00", 12), ("21:00", 13), ("22:00", 14), ("23:00", 15)):
        assert by_kind[("monster_check", hhmm)] == datetime(2026, 3, 10, hour_utc, tzinfo=UTC)
    assert utc((await game.summary())["deadline"]) == datetime(2026, 3, 10, 16, 0, tzinfo=UTC)

    # One second before midnight nothing is due; at midnight the scheduler runs it alone.
    assert await run_at(client, clock, datetime(2026, 3, 10, 11, 59, 59, tzinfo=UTC)) == 0
    assert await run_at(client, clock, datetime(2026, 3, 10, 15, 59, 59, tzinfo=UTC)) == 4
    assert (await game.view())["day"] == 1
    # Due but not yet run: an order now is refused, never slipped into the next day.
    clock.set(datetime(2026, 3, 10, 16, 0, 0, tzinfo=UTC))
    problem(
        await game.post("/orders", "ann", {"type": "move", "direction": "up"}),
        409,
        "deadline_passed",
    )
    assert await run_at(client, clock, datetime(2026, 3, 10, 16, 0, 0, tzinfo=UTC)) == 1
    view = await game.view()
    assert (view["day"], view["date"]) == (2, "2026-03-11")
    next_midnight = {t["kind"]: utc(t["due_at"]) for t in ok(await game.get("/timers", "director"))}
    assert next_midnight["midnight"] == datetime(2026, 3, 11, 16, 0, tzinfo=UTC)


async def test_midnight_follows_dst_in_berlin(client: AsyncClient, clock: FakeClock) -> None:
    # Europe/Berlin springs forward on 2026-03-29 (02:00 CET -> 03:00 CEST).
    start = local(1, 12, tz="Europe/Berlin", first=datetime(2026, 3, 28).date())
    game = await island_game(
        client, clock, NAMES, quiet(), start_at=start, timezone="Europe/Berlin"
    )
    assert (await game.summary())["timezone"] == "Europe/Berlin"
    timers = {
        (t["kind"], t["key"]): utc(t["due_at"]) for t in ok(await game.get("/timers", "director"))
    }
    assert timers[("midnight", "midnight")] == datetime(2026, 3, 28, 23, 0, tzinfo=UTC)  # CET
    assert timers[("monster_check", "20:00")] == datetime(2026, 3, 28, 19, 0, tzinfo=UTC)
    await run_at(client, clock, datetime(2026, 3, 28, 23, 0, tzinfo=UTC))
    assert (await game.view())["date"] == "2026-03-29"
    timers = {
        (t["kind"], t["key"]): utc(t["due_at"]) for t in ok(await game.get("/timers", "director"))
    }
    # The change day has 23 hours: its 20:00 and 24:00 are CEST (UTC+2).
    assert timers[("monster_check", "20:00")] == datetime(2026, 3, 29, 18, 0, tzinfo=UTC)
    assert timers[("midnight", "midnight")] == datetime(2026, 3, 29, 22, 0, tzinfo=UTC)
    await run_at(client, clock, datetime(2026, 3, 29, 22, 0, tzinfo=UTC))
    view = await game.view()
    assert (view["day"], view["date"]) == (3, "2026-03-30")


# --- timers that run by themselves -----------------------------------------------------
async def test_the_pk_window_closes_by_itself(client: AsyncClient, clock: FakeClock) -> None:
    starts = {"1": [1, 1], "2": [1, 1], "3": [5, 5]}
    game = await island_game(client, clock, NAMES, {**quiet_overrides(), "start_positions": starts})
    bob = pid(game, "bob")
    clock.set(local(1, 20, 10))
    pk = await game.order("ann", {"type": "pk", "targets": [bob]})
    cid = pk["result"]["challenge"]
    due = utc(pk["result"]["due_at"])
    timers = ok(await game.get("/timers", "director"))
    assert [(t["key"], utc(t["due_at"])) for t in timers if t["kind"] == "pk"] == [(cid, due)]
    clock.set(due)
    clock.advance(-1)
    await run_at(client, clock, clock.now())
    assert of_kind(await game.events(), "pk_resolved") == []
    await run_at(client, clock, due)  # nobody calls /advance: the scheduler closes it
    resolved = of_kind(await game.events(), "pk_resolved")
    assert len(resolved) == 1 and resolved[0]["challenge"] == cid
    assert resolved[0]["winner"] in ("attack", "defend")  # 2 vs 2: an even roll (IS-60)
    assert (await game.view())["public_challenges"][0]["status"] == "resolved"
    pk_order = [o for o in ok(await game.get("/orders", "ann")) if o["id"] == pk["id"]][0]
    assert pk_order["status"] == "resolved"


async def test_resident_monsters_attack_at_the_check_times(
    client: AsyncClient, clock: FakeClock
) -> None:
    quiet = quiet_overrides()
    # The bear (power 5) always attacks; ann (2) loses for sure: 2 x 2 <= 5 (IS-60).
    quiet["monsters"] = [
        {**m, "attack_chance": 1.0 if m["id"] == "bear1" else 0.0} for m in quiet["monsters"]
    ]
    starts = {"1": [3, 2], "2": [1, 1], "3": [5, 5]}
    game = await island_game(client, clock, NAMES, {**quiet, "start_positions": starts})
    assert await run_at(client, clock, local(1, 19, 59)) == 0
    assert await run_at(client, clock, local(1, 20)) == 1
    attack = of_kind(await game.events("ann"), "monster_attack")
    assert attack == [
        {
            "monster": "bear",
            "player_strength": 2,
            "monster_power": 5,
            "result": "lost",
            "monster_id": "bear1",
            "time": "20:00",
        }
    ]
    assert (await game.view("ann"))["power"] == 1
    assert of_kind(await game.events("bob"), "monster_attack") == []
    # 21:00: 1 vs 5, she loses again and dies (power 0).
    await run_at(client, clock, local(1, 21))
    assert (await game.view("ann"))["alive"] is False
    assert len(of_kind(await game.events("ann"), "monster_attack")) == 2


# --- director tools, audit, reports -----------------------------------------------------
async def test_director_tools_are_audited_and_are_director_events(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, NAMES, quiet())
    ann, bob = pid(game, "ann"), pid(game, "bob")
    clock.set(local(1, 10))
    await director(game, "grant_item", player=ann, item="spear")
    await director(game, "adjust_stamina", player=ann, delta=-2)
    await director(game, "move_player", player=bob, to=[3, 3])
    await director(game, "adjust_food", player=bob, delta=3)
    problem(
        await game.post(
            "/director/actions", "ann", {"action": "adjust_food", "player": ann, "delta": 9}
        ),
        403,
        "forbidden",
    )
    problem(
        await game.post("/director/actions", "director", {"action": "no_such_tool"}),
        422,
        "unknown_action",
    )

    audit = ok(await game.get("/audit", "director"))
    tools = [a for a in audit if a["action"] not in ("add_player", "start")]
    assert [a["action"] for a in tools] == [
        "grant_item",
        "adjust_stamina",
        "move_player",
        "adjust_food",
    ]
    assert tools[0]["payload"] == {"action": "grant_item", "player": ann, "item": "spear"}
    assert all(a["actor"] == "director" for a in tools)
    for who, code in (("ann", 403), (None, 401)):
        assert (await game.get("/audit", who)).status_code == code

    director_events = [e for e in await game.events("director") if e["kind"] == "director_action"]
    assert [e["data"]["action"] for e in director_events] == [a["action"] for a in tools]
    assert all("director" in e["audience"] for e in director_events)
    # Each player sees the edits that concern them, and only those; the public none.
    assert [e["action"] for e in of_kind(await game.events("ann"), "director_action")] == [
        "grant_item",
        "adjust_stamina",
    ]
    assert [e["action"] for e in of_kind(await game.events("bob"), "director_action")] == [
        "move_player",
        "adjust_food",
    ]
    assert of_kind(await game.events(), "director_action") == []
    assert of_kind(await game.events("cat"), "director_action") == []
    ann_view, bob_view = await game.view("ann"), await game.view("bob")
    assert (ann_view["stamina"], ann_view["inventory"]) == (3, {"spear": 1})
    assert (bob_view["position"], bob_view["food"]) == ([3, 3], 5)

    # end_game finishes the game, reveals the seed, and the game verifies.
    await director(game, "end_game")
    summary = await game.summary()
    assert summary["status"] == "finished" and summary["seed"]
    assert ok(await game.get("/verify"))["ok"] is True


async def test_the_24_00_reports_have_the_right_audiences(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, NAMES, quiet())
    ids = {n: pid(game, n) for n in NAMES}
    await director(game, "adjust_food", player=ids["cat"], delta=-2)  # cat will go hungry
    await run_at(client, clock, local(1, 24))
    logged = await game.events("director")
    night = [e for e in logged if e["kind"] == "night_report"]
    assert sorted(e["audience"] for e in night) == sorted([[f"player:{i}"] for i in ids.values()])
    assert [e["audience"] for e in logged if e["kind"] == "day_report"] == [["public"]]
    assert [e["audience"] for e in logged if e["kind"] == "director_report"] == [["director"]]
    director_report = of_kind(logged, "director_report")[0]
    assert director_report["notes"][ids["cat"]] == [{"kind": "hungry", "hunger": 1}]
    for name in NAMES:
        mine = of_kind(await game.events(name), "night_report")
        assert len(mine) == 1, name
        assert of_kind(await game.events(name), "director_report") == []
        assert len(of_kind(await game.events(name), "day_report")) == 1
        expected = (
            [{"kind": "hungry", "hunger": 1}]
            if name == "cat"
            else [{"kind": "ate", "food_left": 1}]
        )
        assert mine[0]["notes"] == expected
    public = await game.events()
    assert of_kind(public, "night_report") == [] and of_kind(public, "director_report") == []
    assert of_kind(public, "day_report")[0]["deaths"] == []


async def test_an_immediate_action_returns_its_private_result_under_result(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, NAMES, quiet())
    clock.set(local(1, 10))
    moved = await game.order("ann", {"type": "move", "direction": "right"})
    assert moved["status"] == "resolved"
    assert moved["result"]["to"] == [2, 1]
