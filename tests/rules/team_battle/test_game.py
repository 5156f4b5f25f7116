"""Team Battle through the Ruleset contract: setup, phases, orders, information.

Each test arranges a game with :class:`Game`, acts through ``apply`` and asserts the
outcome; rule IDs are in the test names, the rule's line in the docstring.
"""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from app.rules.base import (
    PUBLIC_VIEWER,
    Actor,
    Player,
    RuleViolation,
)
from app.rules.team_battle import RULESET, TeamBattleSettings

from .helpers import ORIGINAL_A, ORIGINAL_B, Game, viewer

# ----- setup -------------------------------------------------------------------------------


def test_tb1_each_side_needs_a_player() -> None:
    """TB-1: Two sides."""
    settings = TeamBattleSettings()
    with pytest.raises(RuleViolation) as raised:
        RULESET.validate_roster(settings, [Player("a1", "Alice", "A")])
    assert raised.value.code == "side_empty" and raised.value.rule == "TB-1"
    RULESET.validate_roster(settings, [Player("a1", "Alice", "A"), Player("b1", "Bob", "B")])


@pytest.mark.parametrize("side", [None, "C", "a", ""])
def test_tb1_player_side_must_be_a_or_b(side: str | None) -> None:
    """TB-1: Two sides, A (甲) and B (乙)."""
    with pytest.raises(RuleViolation) as raised:
        RULESET.validate_player(TeamBattleSettings(), "Carol", side)
    assert raised.value.code == "bad_side" and raised.value.status == 422


def test_tb1_any_member_may_submit_and_changes_record_who() -> None:
    """TB-1: Default: any member may submit or revise the side's orders. Every change
    records who made it."""
    game = Game()
    game.deploy()
    order_id = game.order("A", {"type": "counter", "slot": 1})
    game.step(
        "revise",
        Actor("player", "a2", "A"),
        {"order_id": order_id, "order": {"type": "counter", "slot": 2}},
    )
    (order,) = [o for o in game.view(viewer("A"))["orders"] if o["id"] == order_id]
    assert [c["by"] for c in order["changes"]] == ["a1", "a2"]
    assert order["body"]["slot"] == 2


def test_tb1_commander_only_setting() -> None:
    """TB-1: a game setting can restrict this to a designated commander."""
    game = Game(commander_only=True)
    game.deploy()
    game.order("A", {"type": "rest"}, actor=Actor("player", "a2", "A"))  # no commander yet
    game.director("set_commander", side="A", player_id="a1")
    with pytest.raises(RuleViolation) as raised:
        game.order("A", {"type": "counter", "slot": 1}, actor=Actor("player", "a2", "A"))
    assert raised.value.code == "not_commander" and raised.value.rule == "TB-1"
    rest = game.state["orders"][-1]["id"]
    game.step(
        "revise",
        Actor("player", "a1", "A"),
        {"order_id": rest, "order": {"type": "counter", "slot": 1}},
    )
    with pytest.raises(RuleViolation):
        game.director("set_commander", side="A", player_id="b1")  # not on side A


def test_tb2_number_of_slots_is_a_setting() -> None:
    """TB-2: Each side has 5 parallel slots (Default: setting `slots`, 5)."""
    assert TeamBattleSettings().slots == 5
    game = Game(slots=3, troops={"A": 9, "B": 9})
    game.deploy([3, 3, 3], [2, 3, 4])
    assert game.view(PUBLIC_VIEWER)["sides"]["B"]["slots"] == [2, 3, 4]
    assert game.rejects("A", {"type": "counter", "slot": 4}).code == "slot_out_of_range"


def test_tb3_troop_total_per_side() -> None:
    """TB-3: Each side has a troop total, set per side by the director."""
    game = Game(troops={"A": 30, "B": 20})
    game.deploy(ORIGINAL_A, [4, 4, 4, 4, 4])
    sides = game.view(PUBLIC_VIEWER)["sides"]
    assert (sides["A"]["total_troops"], sides["B"]["total_troops"]) == (30, 20)


@pytest.mark.parametrize(
    "settings",
    [
        {"slots": 0},
        {"troops": {"A": 3, "B": 30}},  # fewer troops than slots
        {"troops": {"A": 30}},
        {"mistyped_setting": True},
        {"dice": "loaded"},
        {"enabled_orders": ["gather", "gather", "deploy"]},
    ],
)
def test_settings_reject_nonsense(settings: dict[str, object]) -> None:
    """Settings are validated; typos are rejected (extra="forbid")."""
    with pytest.raises(ValidationError):
        TeamBattleSettings(**settings)  # type: ignore[arg-type]


def test_every_setting_cites_a_rule() -> None:
    """House rule 5: every number and interpretation is a setting with its rule ID."""
    for name, field in TeamBattleSettings.model_fields.items():
        assert field.description and (
            "TB-" in field.description
            or "Round structure" in field.description
            or "House" in field.description
            or "Original" in field.description
        ), name


@pytest.mark.parametrize(
    ("total", "whole", "morale"), [(30, False, 15), (25, False, 12.5), (25, True, 12)]
)
def test_tb4_starting_morale_is_half_the_troops(total: int, whole: bool, morale: float) -> None:
    """TB-4: Morale = total troops / 2 at the start; that is also the side's maximum
    morale. Default: morale arithmetic is exact (fractions allowed, e.g. 12.5); setting
    `whole_morale`: ⌊25/2⌋ = 12."""
    game = Game(troops={"A": total, "B": 30}, whole_morale=whole)
    side = game.view(PUBLIC_VIEWER)["sides"]["A"]
    assert side["morale"] == morale and side["max_morale"] == morale


# ----- deployment (TB-10) ----------------------------------------------------------------------


def test_tb10_original_example_deployments() -> None:
    """TB-10: Example from the original, total 30: A = 4,7,8,6,5; B = 6,6,7,5,6."""
    game = Game()
    game.deploy(ORIGINAL_A, ORIGINAL_B)
    assert game.slots("A") == [4, 7, 8, 6, 5] and game.slots("B") == [6, 6, 7, 5, 6]
    (revealed,) = game.events_of("deployment_revealed")
    assert revealed["A"] == ORIGINAL_A and revealed["B"] == ORIGINAL_B


@pytest.mark.parametrize(
    "troops",
    [[5, 7, 8, 6, 5], [0, 7, 8, 10, 5], [10, 10, 10], [4, 7, 8, 6, 5, 0], [-1, 8, 8, 10, 5]],
)
def test_tb10_bad_deployments_rejected(troops: list[int]) -> None:
    """TB-10: every slot must hold at least 1 troop; integers only; the sum must equal
    the total."""
    game = Game()
    game.start()
    violation = game.rejects("A", {"type": "deploy", "troops": troops})
    assert violation.code == "bad_deployment" and violation.rule == "TB-10"
    assert violation.message_zh and violation.message_en


def test_tb10_deployments_hidden_until_both_deployed() -> None:
    """TB-10 Default: deployments stay hidden until both sides have deployed, then are
    revealed together."""
    game = Game()
    game.start()
    game.order("A", {"type": "deploy", "troops": ORIGINAL_A})
    for who in (viewer("B"), PUBLIC_VIEWER):
        assert game.view(who)["sides"]["A"]["slots"] is None
        assert "orders" not in game.view(who) or all(
            o["side"] == "B" for o in game.view(who)["orders"]
        )
        assert not any("[4, 7, 8, 6, 5]" in json.dumps(e.data) for e in game.visible_events(who))
    assert game.view(viewer("A"))["orders"][0]["body"]["troops"] == ORIGINAL_A


def test_tb10_second_deploy_replaces_first() -> None:
    """TB-10: a side's latest deployment is the one that counts (the old one is replaced)."""
    game = Game()
    game.start()
    first = game.order("A", {"type": "deploy", "troops": ORIGINAL_A})
    game.order("A", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    assert game.outcomes[-1].order_status[first] == "replaced"
    game.order("B", {"type": "deploy", "troops": ORIGINAL_B})
    game.close()
    assert game.slots("A") == [6, 6, 6, 6, 6]


def test_tb10_missing_deployment_spread_evenly() -> None:
    """TB-10 (rules silent): a side that never deploys is spread as evenly as possible,
    left slots taking the remainder, and it is announced."""
    game = Game(troops={"A": 30, "B": 27})
    game.start()
    game.order("A", {"type": "deploy", "troops": ORIGINAL_A})
    game.timer()
    assert game.slots("B") == [6, 6, 5, 5, 5]
    assert game.events_of("deployment_revealed")[0]["defaulted"] == ["B"]
    assert game.state["phase"] == "command"


def test_tb10_missing_deployment_forfeit_setting() -> None:
    """TB-10 setting `missing_deployment="forfeit"`: the side that never deployed loses."""
    game = Game(missing_deployment="forfeit")
    game.start()
    game.order("A", {"type": "deploy", "troops": ORIGINAL_A})
    outcome = game.close()
    assert outcome.finished and game.state["winner"] == "A"


# ----- orders in general ------------------------------------------------------------------------


def test_tb11_one_order_per_phase() -> None:
    """TB-11: a side may use one order in the command phase and one in the battle phase.
    Using none is allowed."""
    game = Game()
    game.deploy()
    game.order("A", {"type": "counter", "slot": 1})
    violation = game.rejects("A", {"type": "scout", "slot": 1})
    assert violation.code == "no_order_uses" and violation.rule == "TB-11"
    game.ready_all()  # B used none
    game.order("A", {"type": "retreat", "slot": 1})
    assert game.rejects("A", {"type": "hold", "slot": 2}).code == "no_order_uses"


def test_tb12_costs_two_needs_two_uses() -> None:
    """TB-12: Orders marked "costs two" use two of that phase's order uses."""
    game = Game()
    game.deploy()
    violation = game.rejects("A", {"type": "blood_battle", "slot": 1})
    assert violation.code == "no_order_uses" and violation.rule == "TB-12"


def test_tb13_morale_gates_for_battle_orders() -> None:
    """TB-13: Tier 1 requires morale ≥ max morale × 1/3; tier 2 requires morale ≥ max
    morale × 2/3. Command-phase orders have no morale requirement."""
    game = Game()
    game.deploy()
    game.director("set_morale", side="A", morale=9.5)  # max 15: tier 2 needs 10
    game.order("A", {"type": "counter", "slot": 1})  # command: no gate
    game.ready_all()
    violation = game.rejects("A", {"type": "first_strike", "slot": 1})
    assert violation.code == "morale_too_low" and violation.rule == "TB-13"
    assert "10" in violation.message_zh and "9.5" in violation.message_en
    game.director("set_morale", side="A", morale=4.9)  # tier 1 needs 5
    assert game.rejects("A", {"type": "retreat", "slot": 1}).code == "morale_too_low"
    game.director("set_morale", side="A", morale=5)
    game.order("A", {"type": "retreat", "slot": 1})


def test_tb13_gate_rechecked_when_the_phase_closes() -> None:
    """TB-13 Default: the gate is checked against morale at submission time and again when
    the phase closes."""
    game = Game()
    game.deploy()
    game.ready_all()
    order_id = game.order("A", {"type": "first_strike", "slot": 2})
    game.director("set_morale", side="A", morale=3)
    game.ready_all()
    assert game.state["orders"][-1]["status"] == "void"
    (voided,) = game.events_of("order_voided")
    assert voided["order_id"] == order_id and voided["rule"] == "TB-13"
    event = [e for e in game.events if e.kind == "order_voided"][0]
    assert event.audience == ("side:A", "director")
    assert not game.events_of("first_strike")


def test_tb14_rest_not_twice_in_a_row() -> None:
    """TB-14: "Cannot be used if used last round" applies to Rest, Battle Rest and Stand
    Firm."""
    game = Game()
    game.deploy()
    game.play_round(
        command={"A": [{"type": "rest"}]}, battle={"A": [{"type": "stand_firm", "slot": 1}]}
    )
    assert game.rejects("A", {"type": "rest"}).code == "cooldown"
    game.order("A", {"type": "counter", "slot": 1})
    game.ready_all()
    violation = game.rejects("A", {"type": "stand_firm", "slot": 2})
    assert violation.code == "cooldown" and violation.rule == "TB-14"
    game.ready_all()
    game.play_round(command={"A": [{"type": "rest"}]})  # allowed again in round 3


def test_tb15_extra_uses_may_repeat_an_order() -> None:
    """TB-15: Extra order uses granted by Rest / Battle Rest may be spent on the same
    order twice."""
    game = Game()
    game.deploy()
    game.play_round(command={"A": [{"type": "rest"}]}, battle={"A": [{"type": "battle_rest"}]})
    game.order("A", {"type": "counter", "slot": 1})
    game.order("A", {"type": "counter", "slot": 2})
    assert game.rejects("A", {"type": "scout", "slot": 1}).code == "no_order_uses"
    game.ready_all()
    game.order("A", {"type": "retreat", "slot": 1})
    game.order("A", {"type": "retreat", "slot": 2})
    game.finish_round()
    assert game.state["round"] == 3


# ----- command-phase orders -----------------------------------------------------------------------


def test_tb30_footnote_simultaneous_dispatch() -> None:
    """TB-30: Both moves happen simultaneously: slots 1–3 hold 1, 3, 7; moving 4 from
    slot 3 to slot 2 and, at the same time, from slot 2 to slot 1 allows at most 3 into
    slot 1."""
    game = Game()
    game.deploy([1, 3, 7, 10, 9])
    violation = game.rejects(
        "A",
        {
            "type": "dispatch",
            "moves": [{"from": 3, "to": 2, "troops": 4}, {"from": 2, "to": 1, "troops": 4}],
        },
    )
    assert violation.code == "not_enough_troops" and violation.rule == "TB-30"
    assert violation.message_zh == "第2格只有3兵力，无法调出4兵力。"
    assert violation.message_en == "Slot 2 holds only 3 troops; cannot move 4."
    game.order(
        "A",
        {
            "type": "dispatch",
            "moves": [{"from": 3, "to": 2, "troops": 4}, {"from": 2, "to": 1, "troops": 3}],
        },
    )
    game.ready_all()
    assert game.slots("A") == [4, 4, 3, 10, 9]


@pytest.mark.parametrize(
    ("moves", "code"),
    [
        ([{"from": 1, "to": 3, "troops": 1}], "not_adjacent"),
        ([{"from": 5, "to": 6, "troops": 1}], "slot_out_of_range"),
        ([{"from": 1, "to": 2, "troops": 5}], "not_enough_troops"),
        ([{"from": 1, "to": 2, "troops": 1}] * 3, "bad_move"),
        ([{"from": 1, "to": 2}], "bad_order"),
    ],
)
def test_tb30_dispatch_validation(moves: list[dict[str, int]], code: str) -> None:
    """TB-30: name at most two of your units; each moves any number of its troops to one
    adjacent slot."""
    game = Game()
    game.deploy()
    assert game.rejects("A", {"type": "dispatch", "moves": moves}).code == code


def test_tb30_dispatch_may_empty_a_slot_without_annihilation() -> None:
    """TB-30: A slot may be emptied this way (no annihilation, TB-53 does not apply) and
    units may be merged."""
    game = Game(dice="low")
    game.deploy()  # A 4,7,8,6,5 — B 6,6,7,5,6
    game.order("A", {"type": "dispatch", "moves": [{"from": 1, "to": 2, "troops": 4}]})
    game.ready_all()
    assert game.slots("A") == [0, 11, 8, 6, 5]  # merged into slot 2
    assert (game.morale("A"), game.morale("B")) == (15, 15)  # nothing for the emptying
    game.director("set_morale", side="B", morale=12)  # room below B's cap (TB-5)
    game.finish_round()
    assert game.events_of("annihilated") == []
    # In resolution B's 6 faces the empty slot and penetrates with its own troops (TB-23):
    # A 15 − 6 = 9, not 15 − 6 − 3; B keeps 12, not 12 + 3.
    assert (game.morale("A"), game.morale("B")) == (9, 12)


def test_tb31_inspire_lifts_gates_once_per_game() -> None:
    """TB-31: Inspire (public, once per game): this round your battle-phase orders ignore
    the morale gates of TB-13."""
    game = Game()
    game.deploy()
    game.director("set_morale", side="A", morale=1)
    game.order("A", {"type": "inspire"})
    game.ready_all()
    game.order("A", {"type": "first_strike", "slot": 3})  # tier 2 at morale 1
    game.ready_all()
    if game.state["phase"] == "finished":
        return
    violation = game.rejects("A", {"type": "inspire"})
    assert violation.code == "once_per_game"


def test_tb32_counter_is_revealed_only_when_it_strikes() -> None:
    """TB-32 with TB-6: Counter is hidden until it takes effect."""
    game = Game(dice="high")
    game.deploy([4, 7, 8, 6, 5], [6, 6, 7, 5, 6])
    game.order("A", {"type": "counter", "slot": 1})  # B's 6 beats A's 4 there
    game.ready_all()
    assert game.view(viewer("B"))["revealed"] == []
    game.ready_all()
    (counter,) = game.events_of("counter")
    assert counter["side"] == "A" and counter["slot"] == 1
    revealed = game.view(viewer("B"))["revealed"]
    assert [(o["type"], o["body"]["slot"]) for o in revealed] == [("counter", 1)]


def test_tb33_rest_grants_a_command_use_next_round() -> None:
    """TB-33: next round you have one more command-phase order use."""
    game = Game()
    game.deploy()
    game.play_round(command={"A": [{"type": "rest"}]})
    assert game.view(viewer("A"))["sides"]["A"]["order_uses"]["command"] == 2
    assert game.view(viewer("B"))["sides"]["B"]["order_uses"]["command"] == 1
    assert "order_uses" not in game.view(viewer("B"))["sides"]["A"]


def test_tb34_blood_battle_slot_closed_to_battle_orders() -> None:
    """TB-34: This round your battle-phase orders may not name that slot or unit."""
    game = Game()
    game.deploy()
    game.play_round(command={"A": [{"type": "rest"}]})
    game.order("A", {"type": "blood_battle", "slot": 3})
    game.ready_all()
    violation = game.rejects("A", {"type": "retreat", "slot": 3})
    assert violation.code == "blood_battle_slot" and violation.rule == "TB-34"
    game.order("A", {"type": "retreat", "slot": 2})


def test_tb35_scout_shows_orders_naming_the_slot_live() -> None:
    """TB-35: name one of the opponent's slots. For the rest of this round, every opponent
    order that names that slot is shown to you as soon as it exists."""
    game = Game()
    game.deploy()
    early = game.order("B", {"type": "counter", "slot": 2})
    game.order("A", {"type": "scout", "slot": 2})
    assert [o["id"] for o in game.view(viewer("A"))["intel"]] == [early]
    assert game.view(viewer("A"))["intel"][0]["source"] == "scout"
    assert game.events[-1].kind == "intel" and game.events[-1].audience == ("side:A",)
    game.ready_all()
    other = game.order("B", {"type": "hold", "slot": 4})
    assert other not in [o["id"] for o in game.view(viewer("A"))["intel"]]
    game.revise("B", other, {"type": "stand_firm", "slot": 2})
    assert other in [o["id"] for o in game.view(viewer("A"))["intel"]]
    assert game.view(PUBLIC_VIEWER).get("intel") is None
    # Scout has taken effect: it can no longer be withdrawn (setting scout_locks_on_submit).
    scout = [o for o in game.state["orders"] if o["type"] == "scout"][0]
    assert scout["status"] == "resolved"


def test_tb35_scout_locked_once_submitted() -> None:
    """TB-35 Default: Scout takes effect as soon as it exists, so it cannot be withdrawn."""
    game = Game()
    game.deploy()
    scout = game.order("A", {"type": "scout", "slot": 2})
    with pytest.raises(RuleViolation) as raised:
        game.withdraw("A", scout)
    assert raised.value.code == "order_in_effect"
