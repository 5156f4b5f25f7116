"""IS-10..IS-15 (move, held move, explore, flee, hunt, PK) and IS-36..IS-39."""

from __future__ import annotations

import pytest
from island_testkit import Game, local, settings

from app.rules.base import RuleViolation as RV
from app.rules.base import Viewer
from app.rules.island import RULESET


def _dog_settings(**kw: object) -> object:
    return settings(
        monster_kinds={
            "dog": {"power": 1, "food": 3, "attack_chance": 1.0},
            "titan": {"power": 100, "food": 9, "attack_chance": 1.0},
        },
        monsters=[
            {"id": "d1", "kind": "dog", "at": [1, 1], "count": 2, "attack_chance": 0.0},
            {"id": "t1", "kind": "titan", "at": [2, 2], "attack_chance": 0.0},
        ],
        start_positions={"1": [1, 1], "2": [1, 1], "3": [1, 1], "4": [2, 2]},
        **kw,
    )


def test_is10_move_costs_1_and_is_announced_to_watchers() -> None:
    """IS-10 Move (1): to an orthogonally adjacent cell."""
    g = Game(settings(base_vision=1, start_positions={"1": [1, 1], "2": [3, 1]}), n=2)
    g.start()
    out = g.order("p1", {"type": "move", "direction": "right"})
    assert g.p("p1")["at"] == [2, 1] and g.p("p1")["stamina"] == 4
    # p2 (vision 1) sees the destination, not the origin (IS-55): told of the arrival only.
    (told,) = [e for e in out.events if e.kind == "moved" and "player:p2" in e.audience]
    assert (told.data["from"], told.data["to"]) == (None, [2, 1])
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "move", "direction": "up"})
    assert e.value.code == "off_map" and e.value.rule == "IS-10"


@pytest.mark.parametrize("direction", ["up-left", "diagonal", "northeast", None, 3])
def test_is10_diagonal_move_refused_with_the_rule(direction: object) -> None:
    """IS-10: to an orthogonally adjacent cell (横移或纵移) — never diagonally; the refusal
    names the rule, and a move + assassinate path names IS-22."""
    g = Game(settings(start_positions={"1": [2, 2], "2": [3, 3]}), n=2)
    g.start()
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "move", "direction": direction})
    assert (e.value.status, e.value.code, e.value.rule) == (422, "bad_direction", "IS-10")
    assert "斜" in e.value.message_zh and "diagonal" in e.value.message_en
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "assassinate", "target": "p2", "path": ["down-right"]})
    assert (e.value.code, e.value.rule) == ("bad_direction", "IS-22")
    assert g.p("p1")["stamina"] == 5


@pytest.mark.parametrize("both", [False, True])
def test_is10_move_tells_each_watcher_only_the_cells_they_see(both: bool) -> None:
    """IS-10 / IS-55 (the rules are silent; setting `move_shows_both_cells`): a move that is
    not hidden is told to whoever sees its origin or its destination. By default each
    learns only the cells in their vision: a watcher of the origin sees the player leave,
    not where to; a watcher of the destination sees them arrive, not from where."""
    starts = {"1": [3, 3], "2": [1, 3], "3": [5, 3], "4": [3, 1]}
    g = Game(settings(base_vision=1, start_positions=starts, move_shows_both_cells=both), n=4)
    g.start()
    g.director("move_player", player="p2", to=[2, 3])  # sees (3,3), not (4,3)
    g.director("move_player", player="p3", to=[5, 3])  # sees (4,3), not (3,3)
    g.director("move_player", player="p4", to=[3, 2])  # sees (3,3) only
    out = g.order("p1", {"type": "move", "direction": "right"})  # (3,3) -> (4,3)
    told = {
        pid: (e.data["from"], e.data["to"])
        for e in out.events
        if e.kind == "moved"
        for pid in ("p2", "p3", "p4")
        if f"player:{pid}" in e.audience
    }
    if both:
        assert told == {pid: ([3, 3], [4, 3]) for pid in ("p2", "p3", "p4")}
    else:
        assert told == {"p2": ([3, 3], None), "p3": (None, [4, 3]), "p4": ([3, 3], None)}
    (full,) = [e for e in out.events if e.kind == "moved" and "player:p1" in e.audience]
    assert full.data["to"] == [4, 3] and "director" in full.audience


def test_is10_hidden_move_is_not_announced() -> None:
    """IS-10: A move may be marked hidden: it is not announced, though anyone who can see the
    destination sees the player there afterwards."""
    g = Game(settings(base_vision=1, start_positions={"1": [1, 1], "2": [3, 1]}), n=2)
    g.start()
    out = g.order("p1", {"type": "move", "direction": "right", "hidden": True})
    moved = next(e for e in out.events if e.kind == "moved")
    assert moved.audience == ("director", "player:p1")
    cell = next(c for c in g.view("p2")["visible_cells"] if c["at"] == [2, 1])
    assert [pl["id"] for pl in cell["players"]] == ["p1"]


def test_is11_move_into_busy_cell_is_held_and_refundable() -> None:
    """IS-11: a player cannot enter a cell at once while another player there is in a PK;
    Default: the move is held and completes when the cell is free; cancel for a refund."""
    g = Game(settings(start_positions={"1": [1, 1], "2": [1, 1], "3": [2, 1], "4": [2, 1]}), n=4)
    g.start()
    pk = g.order("p1", {"type": "pk", "targets": ["p2"]}, now=local(20, 5))
    out = g.order("p3", {"type": "move", "direction": "left"}, now=local(20, 6), oid="m3")
    assert (
        out.order_status["m3"] == "held" and g.p("p3")["at"] == [2, 1] and g.p("p3")["stamina"] == 4
    )
    out = g.order("p4", {"type": "move", "direction": "left"}, now=local(20, 6), oid="m4")
    g.withdraw("p4", "m4")
    assert g.p("p4")["stamina"] == 5 and g.state["orders"]["m4"]["status"] == "withdrawn"
    cid = pk.reply["result"]["challenge"]
    out = g.timer("pk", cid, {"challenge": cid}, now=local(20, 40))
    assert g.p("p3")["at"] == [1, 1] and out.order_status["m3"] == "resolved"
    assert any(e.kind == "held_move_done" for e in out.events)


def test_is12_explore_uses_weighted_table_and_story_locks_cell() -> None:
    """IS-12 Explore (2): a story trigger goes to the director's queue and locks the cell."""
    s = settings(
        terrains={
            "plain": {
                "encounter_chance": 0.0,
                "explore_table": [{"kind": "story", "story": "altar"}],
            }
        },
        stories=[{"id": "altar", "title": "Altar", "text": "secret"}],
        items={"gem": {"name": "gem"}},
        cells=[
            {
                "at": [2, 1],
                "terrain": "plain",
                "explore_table": [{"kind": "item", "item": "gem", "count": 2}],
            }
        ],
        start_positions={"1": [1, 1], "2": [2, 1]},
    )
    g = Game(s, n=2)
    g.start()
    out = g.order("p2", {"type": "explore"})
    assert (
        out.reply["result"] == {"found": "item", "item": "gem", "count": 2}
        and g.p("p2")["stamina"] == 3
    )
    out = g.order("p1", {"type": "explore"})
    qid = out.reply["result"]["story"]
    story_ev = next(e for e in out.events if e.kind == "story_triggered")
    assert story_ev.audience == ("director",) and story_ev.data["text"] == "secret"
    held = g.order("p2", {"type": "move", "direction": "left"}, oid="h")
    assert held.order_status["h"] == "held"
    out = g.director(
        "resolve_story",
        queue_id=qid,
        text="You find a gem",
        changes=[{"action": "grant_item", "player": "p1", "item": "gem"}],
    )
    assert g.p("p1")["inventory"] == {"gem": 1} and g.p("p2")["at"] == [1, 1]
    # story triggers once (IS-12 "before other players")
    assert g.order("p2", {"type": "explore"}).reply["result"]["found"] == "nothing"


def test_is13_flee_from_pk_keeps_power_and_flee_move() -> None:
    """IS-13 Flee (2): power is not lost, stays in the cell; Flee + move (3) to an adjacent cell."""
    g = Game(n=3)
    g.start()
    pk = g.order("p1", {"type": "pk", "targets": ["p2", "p3"]}, now=local(20, 1))
    g.order("p2", {"type": "flee"}, now=local(20, 2))
    assert g.p("p2")["stamina"] == 3 and g.p("p2")["at"] == [1, 1]
    g.order("p3", {"type": "flee", "direction": "down"}, now=local(20, 2))
    assert g.p("p3")["stamina"] == 2 and g.p("p3")["at"] == [1, 2]
    cid = pk.reply["result"]["challenge"]
    out = g.timer("pk", cid, {"challenge": cid}, now=local(20, 30))
    res = next(e for e in out.events if e.kind == "pk_resolved")
    assert res.data["winner"] == "attack" and res.data["by_default"] and g.p("p2")["power"] == 2


def test_is13_standing_flee_if_lose_and_forbid_flee() -> None:
    """IS-13 Default: a standing "flee if I lose" applies when stamina allows; some PKs may
    forbid fleeing (director flag)."""
    s = settings(
        items={"club": {"weapon": True, "power_bonus": 2}},
        start_positions={str(i): [1, 1] for i in range(1, 4)},
    )
    g = Game(s, n=3)
    g.start()
    g.director("grant_item", player="p1", item="club")  # 4 vs 2: attacker always wins
    g.order("p2", {"type": "flee", "standing": True})
    pk = g.order("p1", {"type": "pk", "targets": ["p2"]}, now=local(20, 1))
    cid = pk.reply["result"]["challenge"]
    g.timer("pk", cid, {"challenge": cid}, now=local(20, 30))
    assert g.p("p2")["power"] == 2 and g.p("p2")["stamina"] == 3
    g.director("adjust_stamina", player="p1", delta=3)
    pk = g.order("p1", {"type": "pk", "targets": ["p3"]}, now=local(21, 1))
    cid = pk.reply["result"]["challenge"]
    g.order("p3", {"type": "flee", "standing": True})
    g.director("forbid_flee", challenge=cid)
    with pytest.raises(RV) as e:
        g.order("p3", {"type": "flee"}, now=local(21, 2))
    assert e.value.code == "flee_forbidden"
    g.timer("pk", cid, {"challenge": cid}, now=local(21, 30))
    assert g.p("p3")["power"] == 1


def test_is14_hunt_with_several_hunters_and_declared_split() -> None:
    """IS-14 Hunt (3): any number may join; resolves at once; food split evenly or as
    declared before hunting."""
    g = Game(_dog_settings(), n=4)
    g.start()
    g.director("set_faction", player="p2", faction="team")
    g.director("set_faction", player="p1", faction="team")
    out = g.order(
        "p1", {"type": "hunt", "monster": "d1", "with": ["p2"], "split": {"p1": 2, "p2": 1}}
    )
    res = out.reply["result"]
    assert res["result"] == "won" and res["food"] == {"p1": 2, "p2": 1}  # 4 vs 1: certain
    assert g.p("p1")["stamina"] == 2 and g.p("p2")["stamina"] == 2
    assert g.state["monsters"]["d1"]["count"] == 1
    out = g.order("p3", {"type": "hunt", "monster": "d1"})
    assert out.reply["result"]["food"] == {"p3": 3}
    assert g.state["monsters"]["d1"]["count"] == 0  # never respawns (IS-51)
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "hunt", "monster": "t1"})  # not in this cell
    assert e.value.status == 404


def test_is14_losing_hunter_loses_power() -> None:
    """IS-14 Default: a losing hunter loses 1 power (setting) unless they flee."""
    g = Game(_dog_settings(), n=4)
    g.start()
    g.order("p4", {"type": "hunt", "monster": "t1"})
    assert g.p("p4")["power"] == 1 and g.state["monsters"]["t1"]["count"] == 1


def test_is15_pk_window_sides_and_resolution() -> None:
    """IS-15 PK (3): posting only 20:00-24:00; random 20-40 min window; at most 3 per side;
    joining either side; losers lose 1 power; power 0 means death."""
    s = settings(start_positions={str(i): [1, 1] for i in range(1, 9)})
    g = Game(s, n=8)
    g.start()
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "pk", "targets": ["p2"]}, now=local(19, 59))
    assert e.value.code == "outside_pk_window"
    out = g.order("p1", {"type": "pk", "targets": ["p2"]}, now=local(20, 0))
    t = out.timers[0]
    assert t.kind == "pk" and 20 * 60 <= (t.due_at - local(20, 0)).total_seconds() <= 40 * 60
    cid = t.key
    g.order("p3", {"type": "pk_join", "challenge": cid, "side": "attack"}, now=local(20, 1))
    g.order("p4", {"type": "pk_join", "challenge": cid, "side": "attack"}, now=local(20, 1))
    with pytest.raises(RV) as e:
        g.order("p5", {"type": "pk_join", "challenge": cid, "side": "attack"}, now=local(20, 1))
    assert e.value.code == "pk_side_full"
    out = g.timer("pk", cid, {"challenge": cid}, now=t.due_at)
    res = next(ev for ev in out.events if ev.kind == "pk_resolved")
    assert res.data["winner"] == "attack"  # 6 vs 2: certain
    assert g.p("p2")["power"] == 1 and g.p("p1")["stamina"] == 2 and g.p("p3")["stamina"] == 2
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "pk", "targets": ["p2", "p3", "p4", "p5"]}, now=local(21))
    assert e.value.code == "pk_side_full"


def test_is36_give_only_in_same_cell() -> None:
    """IS-36: Players may give and trade items; Default: only between players in the same cell."""
    s = settings(
        items={"rope": {}},
        starting_inventory={"rope": 1},
        base_vision=2,
        start_positions={"1": [1, 1], "2": [1, 1], "3": [2, 1]},
    )
    g = Game(s, n=3)
    g.start()
    g.order("p1", {"type": "give", "to": "p2", "item": "rope"})
    assert g.p("p2")["inventory"] == {"rope": 2} and "rope" not in g.p("p1")["inventory"]
    with pytest.raises(RV) as e:
        g.order("p2", {"type": "give", "to": "p3", "item": "rope"})
    assert e.value.code == "not_same_cell"
    g.order("p2", {"type": "give", "to": "p1", "item": "food", "count": 2})
    assert g.p("p1")["food"] == 4


def test_is37_weapons_best_by_default_limited_only_on_request() -> None:
    """IS-37: one weapon at a time, by default the largest power bonus; limited-use weapons
    are not used in PK or assassination unless the order says so; each use spends one."""
    from app.rules.island.core import settings_of, strength

    s = settings(
        items={
            "spear": {"weapon": True, "power_bonus": 1},
            "gun": {"weapon": True, "power_bonus": 3, "uses": 1},
            "knife": {"weapon": True, "power_bonus": 2},
        },
        starting_inventory={"spear": 1, "gun": 1, "knife": 1},
        start_positions={"1": [1, 1], "2": [1, 1], "3": [1, 1]},
    )
    g = Game(s, n=3)
    g.start()
    st = settings_of(g.state)
    assert strength(st, g.p("p1")) == (4, "knife")
    assert strength(st, g.p("p1"), use_limited=True) == (5, "gun")
    g.order("p1", {"type": "equip", "item": "spear"})
    assert strength(st, g.p("p1")) == (3, "spear")
    pk = g.order("p1", {"type": "pk", "targets": ["p2"], "use_weapon": True}, now=local(20, 1))
    g.order("p1", {"type": "equip", "item": "gun"})
    cid = pk.reply["result"]["challenge"]
    g.timer("pk", cid, {"challenge": cid}, now=local(20, 30))
    assert "gun" not in g.p("p1")["inventory"]  # the single use is spent
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "equip", "item": "food"})
    assert e.value.code == "no_item"


def test_is37_equipped_names_the_weapon_that_counts() -> None:
    """IS-37: A player equips one weapon at a time, by default the one with the largest
    power bonus — a knife found while exploring is equipped at once, and the view says so
    (a limited-use weapon only for an order that asks for it)."""
    s = settings(
        terrains={
            "plain": {"encounter_chance": 0.0, "explore_table": [{"kind": "item", "item": "knife"}]}
        },
        items={
            "knife": {"weapon": True, "power_bonus": 2},
            "gun": {"weapon": True, "power_bonus": 3, "uses": 1},
        },
        start_positions={"1": [1, 1], "2": [1, 1]},
    )
    g = Game(s, n=2)
    g.start()
    assert g.view("p1")["equipped"] is None
    g.order("p1", {"type": "explore"})
    view = g.view("p1")
    assert view["inventory"] == {"knife": 1}
    assert (view["equipped"], view["equipped_for_use_weapon"]) == ("knife", "knife")
    g.director("grant_item", player="p1", item="gun")
    view = g.view("p1")
    assert (view["equipped"], view["equipped_for_use_weapon"]) == ("knife", "gun")
    out = g.order("p1", {"type": "equip", "item": "knife"})
    assert out.reply["result"]["equipped"] == "knife"
    director = RULESET.view(g.state, Viewer(role="director"))
    assert director["all_players"]["p1"]["equipped"] == "knife"


def test_is15_a_dead_players_order_is_refused_with_the_rule() -> None:
    """IS-15: power 0 means death; a dead player gives no more orders, and the refusal
    names the rule."""
    g = Game(settings(start_positions={"1": [1, 1], "2": [1, 1], "3": [1, 1]}), n=3)
    g.start()
    g.director("kill_player", player="p1")
    for body in ({"type": "move", "direction": "right"}, {"type": "explore"}):
        with pytest.raises(RV) as e:
            g.order("p1", body)
        assert (e.value.code, e.value.rule) == ("dead", "IS-15")


def test_is38_everyone_starts_in_own_faction_director_forms_factions() -> None:
    """IS-38: everyone starts in a faction of their own; factions form when the director says."""
    g = Game(n=3)
    g.start()
    assert {g.p(p)["faction"] for p in ("p1", "p2", "p3")} == {"p1", "p2", "p3"}
    g.director("set_faction", player="p2", faction="p1")
    assert g.p("p2")["faction"] == "p1"


def test_is39_proxy_orders_only_within_faction_and_director_can_invalidate() -> None:
    """IS-39: Proxy orders are forbidden between different factions; the director may declare
    proxy orders for idle players invalid."""
    g = Game(n=3)
    g.start()
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "explore", "for": "p2"})
    assert e.value.code == "proxy_forbidden"
    g.director("set_faction", player="p2", faction="p1")
    out = g.order("p1", {"type": "explore", "for": "p2"})
    assert (
        out.reply["order"]["for"] == "p2"
        and g.p("p2")["stamina"] == 3
        and g.p("p1")["stamina"] == 5
    )
    g.midnight()
    g.midnight()
    g.director("invalidate_proxies", all_idle=True)
    assert "p2" in g.state["proxies_invalid"]
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "explore", "for": "p2"})
    assert e.value.code == "proxy_invalid"
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "explore", "for": "nobody"})
    assert e.value.status == 404
