"""IS-50..IS-53 (monsters and danger), IS-55 (vision), view secrecy, scenarios, director."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from island_testkit import Game, local, settings

from app.rules.base import RuleViolation as RV
from app.rules.base import Viewer
from app.rules.island import RULESET, ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[3]


def _monster_world(chance: float, power: int, attack: float = 1.0, **kw: object) -> object:
    return settings(
        terrains={
            "plain": {
                "encounter_chance": chance,
                "monster_table": [{"kind": "wolf"}],
                "explore_table": [{"kind": "monster"}],
            }
        },
        monster_kinds={"wolf": {"power": power, "food": 2, "attack_chance": attack}},
        start_positions={"1": [1, 1], "2": [5, 5]},
        **kw,
    )


def test_is50_deep_night_multiplies_encounters_and_lowers_power() -> None:
    """IS-50: each move rolls for an encounter with the destination terrain's chance,
    multiplied in deep night; in deep night the player's power in that fight is reduced."""
    for seed in "abcdefgh":
        g = Game(_monster_world(0.34, 2), n=2, seed=seed)
        g.start()
        out = g.order("p1", {"type": "move", "direction": "right"}, now=local(22, 30))
        enc = out.reply["result"]["encounter"]  # 0.34 x 3 >= 1: always
        assert enc["player_strength"] == 1 and enc["result"] == "lost"  # 1 vs 2: 2A <= B
        assert g.p("p1")["power"] == 1
    g = Game(_monster_world(0.0, 2), n=2)
    g.start()
    assert (
        "encounter"
        not in g.order("p1", {"type": "move", "direction": "right"}, now=local(22, 30)).reply[
            "result"
        ]
    )


def test_is51_resident_monsters_seen_attack_in_window_never_respawn() -> None:
    """IS-51: Resident monsters are seen on entering their cell, have a fixed count and never
    respawn once cleared; during 20:00-24:00 they may attack players in their cell."""
    s = settings(
        monster_kinds={"rat": {"power": 0, "food": 1, "attack_chance": 1.0}},
        monsters=[{"id": "r", "kind": "rat", "at": [2, 1], "count": 2}],
        start_positions={"1": [1, 1], "2": [5, 5]},
    )
    g = Game(s, n=2)
    g.start()
    out = g.order("p1", {"type": "move", "direction": "right"})
    assert out.reply["result"]["monsters"] == [{"id": "r", "kind": "rat", "count": 2}]
    out = g.timer("monster_check", "20:00", {"time": "20:00"}, now=local(20))
    attack = next(e for e in out.events if e.kind == "monster_attack")
    assert attack.audience == ("director", "player:p1") and attack.data["result"] == "won"
    g.timer("monster_check", "21:00", {"time": "21:00"}, now=local(21))
    assert g.state["monsters"]["r"]["count"] == 0 and g.p("p1")["food"] == 4
    out = g.midnight()
    assert g.state["monsters"]["r"]["count"] == 0
    assert {t.key for t in out.timers if t.kind == "monster_check"} == {
        "20:00",
        "21:00",
        "22:00",
        "23:00",
    }


def test_is52_random_monster_on_explore_vanishes_if_no_one_attacks() -> None:
    """IS-52: Random monsters may appear when a player enters a cell or explores; they vanish
    after a fight, or when neither side attacks."""
    g = Game(_monster_world(0.0, 2, attack=0.0), n=2)
    g.start()
    out = g.order("p1", {"type": "explore"})
    assert out.reply["result"]["encounter"] == {"monster": "wolf", "result": "vanished"}
    g = Game(_monster_world(0.0, 0, attack=1.0), n=2)
    g.start()
    assert g.order("p1", {"type": "explore"}).reply["result"]["encounter"]["result"] == "won"


def test_is53_attacked_player_fights_or_flees() -> None:
    """IS-53: A player attacked by a monster may fight (PK table, IS-60) or flee (IS-13)."""
    g = Game(_monster_world(1.0, 100), n=2)
    g.start()
    g.order("p1", {"type": "flee", "standing": True})
    enc = g.order("p1", {"type": "move", "direction": "right"}).reply["result"]["encounter"]
    assert enc["result"] == "fled" and g.p("p1")["power"] == 2 and g.p("p1")["stamina"] == 2
    enc = g.order("p2", {"type": "move", "direction": "left"}).reply["result"]["encounter"]
    assert enc["result"] == "lost" and g.p("p2")["power"] == 1


def test_is55_vision_manhattan_radius_with_terrain_and_item_bonus() -> None:
    """IS-55: Vision starts at 0; vision 1 adds the orthogonally adjacent cells; each further
    point adds one more ring (Manhattan distance); terrain and items may add vision."""
    s = settings(
        terrains={
            "plain": {"encounter_chance": 0.0},
            "hill": {"vision_bonus": 1, "encounter_chance": 0.0},
        },
        cells=[{"at": [3, 3], "terrain": "hill"}],
        items={"scope": {"vision_bonus": 1}},
        start_positions={"1": [2, 2], "2": [3, 3], "3": [1, 1]},
    )
    g = Game(s, n=3)
    g.start()
    assert [c["at"] for c in g.view("p1")["visible_cells"]] == [[2, 2]]
    assert len(g.view("p2")["visible_cells"]) == 5
    g.director("grant_item", player="p2", item="scope")
    assert len(g.view("p2")["visible_cells"]) == 13
    # p1 (vision 0) does not see p2 — but a "move + assassinate" into a cell out of sight
    # is taken without telling whether p2 is there (IS-22).
    out = g.order("p1", {"type": "assassinate", "target": "p2", "path": ["right"]})
    assert out.reply["result"] == {"pending": True, "debt": 0}
    with pytest.raises(RV) as e:  # p1's own cell is in sight: p2 is not there
        g.order("p1", {"type": "assassinate", "target": "p2"})
    assert e.value.status == 404 and e.value.code == "not_found"


def test_player_view_never_leaks_others_stamina_hidden_moves_or_orders() -> None:
    """IS-1 / IS-55: a player never learns another's stamina, hidden order, or assassination."""
    g = Game(settings(base_vision=2, start_positions={"1": [1, 1], "2": [1, 1], "3": [1, 1]}), n=3)
    g.start()
    g.order("p2", {"type": "assassinate", "target": "p3"}, oid="secret-a")
    g.order("p2", {"type": "guard", "target": "p1"}, oid="secret-g")
    g.order("p3", {"type": "move", "direction": "down", "hidden": True}, oid="secret-m")
    g.director("adjust_stamina", player="p2", delta=-1)
    v = g.view("p1")
    blob = json.dumps(v)
    for secret in ("secret-a", "secret-g", "secret-m", '"target"', 'p3", "path'):
        assert secret not in blob
    for cell in v["visible_cells"]:
        for pl in cell["players"]:
            assert set(pl) == {"id", "name", "visible_actions"}
    assert v["orders"] == []
    assert [o["id"] for o in g.view("p2")["orders"]] == ["secret-a", "secret-g"]
    public = json.dumps(RULESET.view(g.state, Viewer(role="public")))
    assert "secret" not in public and "position" not in public and '"at"' not in public
    # events visible to p1 carry none of p2's orders
    for out in g.outcomes:
        for ev in out.events:
            if "player:p1" in ev.audience or "public" in ev.audience:
                assert "secret" not in json.dumps(ev.data)


def test_errors_never_confirm_invisible_players() -> None:
    g = Game(settings(start_positions={"1": [1, 1], "2": [5, 5]}), n=2)
    g.start()
    for body in (
        {"type": "assassinate", "target": "p2"},
        {"type": "give", "to": "p2", "item": "food"},
        {"type": "assassinate", "target": "ghost"},
    ):
        with pytest.raises(RV) as e:
            g.order("p1", body)
        assert (e.value.status, e.value.code) == (404, "not_found")


def test_example_scenario_loads_and_runs() -> None:
    s = load_scenario(ROOT / "scenarios" / "island-example.yaml")
    assert (s.width, s.height) == (5, 5) and s.items["flare_gun"].uses == 2
    g = Game(s, n=6)
    g.start()
    assert g.p("p6")["at"] == [1, 3]
    g.order("p1", {"type": "explore"})
    g.midnight()
    assert g.state["day"] == 2


def test_scenario_validation_lists_every_problem() -> None:
    bad = """
width: 3
height: 3
cells:
  - {at: [4, 1], terrain: plain}
  - {at: [1, 1], terrain: swamp}
  - {at: [1, 1], terrain: plain}
monsters:
  - {id: m, kind: dragon, at: [9, 9]}
starting_inventory: {sword: 1}
start_positions: {"1": [0, 2]}
"""
    with pytest.raises(ScenarioError) as e:
        load_scenario(bad)
    msg = str(e.value)
    for part in (
        "outside the 3x3 map",
        "unknown terrain 'swamp'",
        "listed twice",
        "unknown monster kind 'dragon'",
        "unknown item 'sword'",
        "start position of '1'",
    ):
        assert part in msg, part
    with pytest.raises(ScenarioError) as e:
        load_scenario('{"width": 0, "bogus": 1}')
    assert "bogus" in str(e.value) and "width" in str(e.value)


def test_director_tools_are_audited_and_unknown_is_422() -> None:
    g = Game(n=3)
    g.start()
    out = g.director("adjust_power", player="p1", delta=1)
    ev = out.events[-1]
    assert ev.kind == "director_action" and ev.audience == ("director", "player:p1")
    g.director("move_player", player="p2", to=[3, 3])
    assert g.p("p2")["at"] == [3, 3]
    g.director("take_item", player="p3", item="food", count=5)
    g.director("cure", player="p3")
    assert g.p("p3")["food"] == 0
    with pytest.raises(RV) as e:
        g.director("summon_dragon")
    assert (e.value.code, e.value.status) == ("unknown_action", 422)
    with pytest.raises(RV) as e:
        RULESET.validate_player(g.s, "X", "A")
    assert e.value.code == "bad_side"


# --- IS-4: the roster and where it starts ---------------------------------------------------
def _example() -> object:
    return load_scenario(ROOT / "scenarios" / "island-example.yaml")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_is4_example_starts_with_any_roster_up_to_its_maximum(n: int) -> None:
    """IS-4: the example lists six start positions; a smaller roster starts, each player on
    their own position, the absent players' positions unused (it once refused three
    players: "起始位置指向不存在的玩家：4, 5, 6")."""
    g = Game(_example(), n=n)
    g.start()
    listed = [[1, 1], [5, 1], [1, 5], [5, 5], [3, 5], [1, 3]]
    assert [g.p(f"p{i + 1}")["at"] for i in range(n)] == listed[:n]
    assert g.state["status"] == "running"


@pytest.mark.parametrize("n", [1, 7])
def test_is4_a_roster_outside_the_range_is_refused_saying_how_many(n: int) -> None:
    """IS-4: fewer than two, or more than the scenario's maximum, is refused at the start,
    and the refusal says how many players the scenario takes (Chinese first)."""
    g = Game(_example(), n=n)
    with pytest.raises(RV) as e:
        g.start()
    assert (e.value.status, e.value.code, e.value.rule) == (409, "bad_roster", "IS-4")
    assert e.value.message_zh == f"本剧本可容纳 2–6 名玩家，现在有 {n} 名。"
    assert e.value.message_en == f"This scenario takes 2 to 6 players; the roster has {n}."
    assert g.state["status"] == "setup"


def test_is4_player_range_is_what_the_create_form_shows() -> None:
    from app.rules.island.settings import player_range

    assert player_range(_example()) == (2, 6)  # type: ignore[arg-type]
    assert player_range(settings()) == (2, 25)  # one per cell of a 5x5 island
    assert player_range(settings(width=1, height=1)) == (2, 2)


def test_is4_random_placement_draws_free_cells_from_the_seed() -> None:
    """IS-4 start_placement "random": every player on a different cell, the scenario's
    positions ignored; the same seed and roster place the same way every time (so /verify
    replays it), another seed elsewhere."""

    def placed(seed: str, n: int = 6) -> list[list[int]]:
        s = settings(start_placement="random", start_positions={"1": [1, 1], "2": [1, 1]})
        g = Game(s, n=n, seed=seed)
        g.start()
        return [g.p(f"p{i + 1}")["at"] for i in range(n)]

    first = placed("s1")
    assert len({tuple(at) for at in first}) == 6
    assert placed("s1") == first
    assert any(placed(seed) != first for seed in ("s2", "s3", "s4"))
    # A 2x2 island holds four players on four different cells, whatever the seed.
    for seed in "abcd":
        g = Game(settings(width=2, height=2, start_placement="random"), n=4, seed=seed)
        g.start()
        assert sorted(tuple(g.p(f"p{i + 1}")["at"]) for i in range(4)) == [
            (1, 1),
            (1, 2),
            (2, 1),
            (2, 2),
        ]


def test_is4_unlisted_players_start_on_free_cells() -> None:
    """IS-4 "scenario": a player the scenario does not list starts on a cell nobody else
    starts on."""
    for seed in "abcdefgh":
        s = settings(width=2, height=1, start_positions={"P1": [1, 1]})
        g = Game(s, n=2, seed=seed)
        g.start()
        assert (g.p("p1")["at"], g.p("p2")["at"]) == ([1, 1], [2, 1])


def test_is4_random_placement_needs_a_cell_per_player() -> None:
    with pytest.raises(ValueError, match="max_players 5 is more than the 4 cells"):
        settings(width=2, height=2, start_placement="random", max_players=5)
