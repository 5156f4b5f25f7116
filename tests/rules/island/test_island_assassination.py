"""IS-20..IS-26: assassinations and guards resolved at 24:00."""

from __future__ import annotations

import pytest
from island_testkit import Game, settings

from app.rules.base import RuleViolation as RV

CLUB = {"club": {"weapon": True, "power_bonus": 2}}


def _game(n: int = 4, **kw: object) -> Game:
    base: dict[str, object] = {
        "items": CLUB,
        "start_positions": {str(i): [1, 1] for i in range(1, n + 1)},
    }
    base.update(kw)
    g = Game(settings(**base), n=n)
    g.start()
    return g


def _notes(out: object, pid: str) -> list[dict[str, object]]:
    ev = next(
        e for e in out.events if e.kind == "night_report" and e.audience == (f"player:{pid}",)
    )  # type: ignore[attr-defined]
    return list(ev.data["notes"])


def test_is20_assassination_kills_and_max_two_assassins() -> None:
    """IS-20 Assassinate (3): resolves at 24:00 by IS-61; at most 2 assassins per target;
    Default: success kills the target."""
    g = _game(4)
    g.director("grant_item", player="p1", item="club")  # 4 vs 2: certain
    g.order("p1", {"type": "assassinate", "target": "p4"}, oid="a1")
    g.order("p2", {"type": "assassinate", "target": "p4"}, oid="a2")
    g.order("p3", {"type": "assassinate", "target": "p4"}, oid="a3")
    assert g.p("p1")["stamina"] == 2 and g.p("p4")["alive"]
    out = g.midnight()
    assert not g.p("p4")["alive"]
    assert out.order_status["a3"] == "void" and out.order_status["a1"] == "resolved"
    report = next(e for e in out.events if e.kind == "director_report")
    assert report.data["assassinations"][0]["assassins"] == ["p1", "p2"]


def test_is21_failed_assassination_stays_anonymous_without_guard() -> None:
    """IS-21: If an assassination fails and the target did not guard against the assassin,
    the assassins stay unknown and there is no counter-kill."""
    g = _game(3)
    g.director("adjust_power", player="p2", delta=4)  # 2 vs 6: fails
    g.order("p1", {"type": "assassinate", "target": "p2"})
    out = g.midnight()
    notes = _notes(out, "p2")
    assert [n["kind"] for n in notes if "assassin" in str(n["kind"])] == [
        "assassination_attempt_failed"
    ]
    assert "p1" not in str(notes)
    assert g.p("p1")["alive"] and g.p("p2")["alive"]


def test_is22_move_and_assassinate_then_return_or_stay() -> None:
    """IS-22: the assassin first moves (a deep-night move, what they meet hidden from others),
    then strikes; returns if enough stamina is left, otherwise stays."""
    s = {
        "base_vision": 1,
        "terrains": {"plain": {"encounter_chance": 1.0, "monster_table": [{"kind": "ghost"}]}},
        "monster_kinds": {"ghost": {"power": 1, "attack_chance": 0.0}},
        "start_positions": {"1": [1, 1], "2": [2, 1], "3": [1, 1], "4": [5, 5]},
    }
    g = _game(4, **s)
    g.director("grant_item", player="p1", item="club")
    g.director("grant_item", player="p3", item="club")
    g.order("p1", {"type": "assassinate", "target": "p2", "path": ["right"]})
    out = g.midnight()
    assert not g.p("p2")["alive"] and g.p("p1")["at"] == [1, 1]
    enc = [e for e in out.events if e.kind == "night_encounter"]
    assert enc and all(e.audience == ("director", "player:p1") for e in enc)
    # not enough stamina to return: stays in the target's cell
    g.director("move_player", player="p4", to=[1, 2])
    g.order("p3", {"type": "assassinate", "target": "p4", "path": ["down"]})
    g.director("adjust_stamina", player="p3", delta=-1)  # 1 left: move there, no way back
    g.midnight()
    assert not g.p("p4")["alive"] and g.p("p3")["at"] == [1, 2]


@pytest.mark.parametrize(("there", "killed"), [([2, 1], True), ([5, 5], False)])
def test_is22_move_and_assassinate_into_a_cell_out_of_sight(there: list[int], killed: bool) -> None:
    """IS-22 with IS-55: at the starting vision 0 the rules' own example, "move left and
    assassinate X", names a cell the assassin cannot see. It is accepted with the same
    answer whether or not X is there, and 24:00 decides: a miss if X is not in that cell."""
    g = _game(2, start_positions={"1": [1, 1], "2": there})
    g.director("grant_item", player="p1", item="club")  # 4 vs 2: certain if X is there
    out = g.order("p1", {"type": "assassinate", "target": "p2", "path": ["right"]}, oid="a")
    assert out.reply == {
        "result": {"pending": True, "debt": 0},
        "order": {"id": "a", "type": "assassinate", "status": "pending", "for": "p1"},
    }
    assert [(e.kind, e.audience) for e in out.events] == [
        ("order_posted", ("director", "player:p1"))
    ]
    out = g.midnight()
    assert g.p("p2")["alive"] is not killed
    kinds = [n["kind"] for n in _notes(out, "p1")]
    assert ("assassination" in kinds) is killed
    assert ("assassination_missed" in kinds) is not killed


def test_is22_what_the_assassin_sees_is_still_checked() -> None:
    """IS-22: "assassinate X" is X in the assassin's own cell; with X in sight elsewhere, or
    the end cell in sight without X, the order is refused as before."""
    g = _game(3, base_vision=1, start_positions={"1": [1, 1], "2": [1, 2], "3": [5, 5]})
    with pytest.raises(RV) as e:  # p2 is seen below, not to the right
        g.order("p1", {"type": "assassinate", "target": "p2", "path": ["right"]})
    assert (e.value.code, e.value.rule) == ("not_same_cell", "IS-22")
    with pytest.raises(RV) as e:  # (2,1) is in sight and p3 is not there
        g.order("p1", {"type": "assassinate", "target": "p3", "path": ["right"]})
    assert (e.value.status, e.value.code) == (404, "not_found")
    with pytest.raises(RV) as e:  # nobody by that id at all
        g.order("p1", {"type": "assassinate", "target": "ghost", "path": ["right", "right"]})
    assert (e.value.status, e.value.code) == (404, "not_found")
    g.order("p1", {"type": "assassinate", "target": "p3", "path": ["right", "right"]})


def test_is22_a_death_out_of_sight_is_not_told_before_it_is_announced() -> None:
    """IS-22 / IS-40: a target who died out of sight is still accepted (refusing would tell
    the death); once 24:00 has announced it, the target is refused like a made-up one."""
    g = _game(3, start_positions={"1": [1, 1], "2": [3, 1], "3": [5, 5]})
    g.director("kill_player", player="p3")
    g.order("p1", {"type": "assassinate", "target": "p3", "path": ["right"]})
    g.midnight()  # the death is announced in the day report
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "assassinate", "target": "p3", "path": ["right"]})
    assert (e.value.status, e.value.code) == (404, "not_found")


def test_is23_cannot_change_cancel_without_refund() -> None:
    """IS-23: A submitted assassination cannot be changed, only cancelled, with no refund."""
    g = _game(3)
    g.order("p1", {"type": "assassinate", "target": "p2"}, oid="a")
    with pytest.raises(RV) as e:
        g.revise("p1", "a", {"type": "assassinate", "target": "p3"})
    assert e.value.code == "cannot_change" and e.value.rule == "IS-23"
    out = g.withdraw("p1", "a")
    assert out.reply["result"]["refund"] == 0 and g.p("p1")["stamina"] == 2


def test_is23_target_moved_assassin_told_may_change_or_cancel_with_refund() -> None:
    """IS-23: if the target moves before 24:00, the assassin is told and may change or cancel
    it, and a cancellation then is refunded."""
    g = _game(3, base_vision=1)
    g.order("p1", {"type": "assassinate", "target": "p2"}, oid="a")
    out = g.order("p2", {"type": "move", "direction": "right", "hidden": True})
    told = [e for e in out.events if e.kind == "target_moved"]
    assert told and told[0].audience == ("director", "player:p1")
    out = g.revise("p1", "a", {"type": "assassinate", "target": "p2", "path": ["right"]})
    assert g.state["orders"]["a"]["path"] == ["right"]
    g.order("p2", {"type": "move", "direction": "left"})
    out = g.withdraw("p1", "a")
    assert out.reply["result"]["refund"] == 3 and g.p("p1")["stamina"] == 5


def test_is24_follow_moves_toward_target() -> None:
    """IS-24: An order may follow a target: at 24:00 it moves toward X's current cell as
    stamina allows, then strikes."""
    g = _game(3, base_vision=1)
    g.director("grant_item", player="p1", item="club")
    g.order("p1", {"type": "assassinate", "target": "p2", "follow": True})
    g.order("p2", {"type": "move", "direction": "down"})
    g.order("p2", {"type": "move", "direction": "right"})
    g.midnight()
    assert not g.p("p2")["alive"]
    assert g.p("p1")["at"] == [2, 2]  # 2 moves used the last 2 stamina: no way back


def test_is25_guard_zeroes_assassin_reveals_and_counter_kills() -> None:
    """IS-25 Guard (2): If X assassinates you that day, X's strength counts as 0, you then
    counter-kill X once; whatever the outcome, you learn who the assassins were."""
    g = _game(3)
    g.director("grant_item", player="p2", item="club")
    g.order("p2", {"type": "guard", "target": "p1"})
    g.order("p1", {"type": "assassinate", "target": "p2"})
    out = g.midnight()
    assert g.p("p2")["alive"] and not g.p("p1")["alive"]  # 0 vs 4 fails; 4 vs 2 counter-kill
    notes = _notes(out, "p2")
    assert {"kind": "assassins_revealed", "assassins": ["p1"], "success": False} in notes
    assert any(n["kind"] == "counter_kill" and n["success"] for n in notes)


def test_is26_same_cell_assassinations_resolve_before_moving_ones() -> None:
    """IS-26: random, except that assassinations of a target in the assassin's own cell
    resolve before those that need a move."""
    for seed in ("a", "b", "c", "d", "e", "f"):
        s = settings(
            items=CLUB, base_vision=1, start_positions={"1": [1, 1], "2": [1, 1], "3": [2, 1]}
        )
        g = Game(s, n=3, seed=seed)
        g.start()
        g.director("grant_item", player="p1", item="club")
        g.director("adjust_power", player="p3", delta=-1)  # p2 (2) would surely kill p3 (1)
        g.order("p2", {"type": "assassinate", "target": "p3", "path": ["right"]})
        g.order("p1", {"type": "assassinate", "target": "p2"})
        g.midnight()
        assert not g.p("p2")["alive"] and g.p("p3")["alive"], seed


@pytest.mark.parametrize(("refund_setting", "stamina_after"), [(False, 3), (True, 5)])
def test_is25_withdrawn_guard_is_refunded_only_if_the_setting_says_so(
    refund_setting: bool, stamina_after: int
) -> None:
    """IS-25 Guard (2): the original is silent on withdrawing a guard; by default (like a
    withdrawn assassination, IS-23) it is not refunded — `refund_withdrawn_guard` changes that."""
    g = Game(
        settings(
            start_positions={str(i + 1): [1, 1] for i in range(4)},
            refund_withdrawn_guard=refund_setting,
        )
    )
    g.start()
    g.order("p2", {"type": "guard", "target": "p1"}, oid="guard-1")
    assert g.p("p2")["stamina"] == 3
    g.withdraw("p2", "guard-1")
    assert g.p("p2")["stamina"] == stamina_after
