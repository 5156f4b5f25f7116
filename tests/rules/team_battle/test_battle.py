"""Battle-phase orders and the response window through ``apply`` (TB-5a, TB-6,
TB-40…TB-53)."""

from __future__ import annotations

import json

import pytest

from app.rules.base import DIRECTOR_VIEWER, PUBLIC_VIEWER, RuleViolation

from .helpers import Game, viewer


def battle_game(**settings: object) -> Game:
    """Round 1, battle phase, original deployments, exact dice unless told."""
    settings.setdefault("dice", "low")
    game = Game(**settings)  # type: ignore[arg-type]
    game.deploy()
    game.ready_all()
    assert game.state["phase"] == "battle"
    return game


def test_tb5a_response_window_skipped_when_nobody_may_respond() -> None:
    """TB-5a: If neither side is entitled to respond, the window is skipped."""
    game = battle_game()
    game.order("A", {"type": "hold", "slot": 1})
    game.ready_all()
    assert game.state["phase"] == "command" and game.state["round"] == 2
    assert not [e for e in game.events_of("phase_opened") if e["phase"] == "response"]


def test_tb5a_response_window_opens_for_a_gather() -> None:
    """TB-5a: after the battle phase closes, its public orders are announced and a short
    response window opens for the extra retreat of TB-41 and pursuit (TB-45)."""
    game = battle_game(response_seconds=600)
    game.order("A", {"type": "gather", "slot": 3})
    outcome = game.ready("B") and game.ready("A")
    assert game.state["phase"] == "response"
    (timer,) = outcome.timers
    assert timer.data == {"round": 1, "phase": "response"}
    assert timer.due_at == game.now + __import__("datetime").timedelta(seconds=600)
    view = game.view(viewer("B"))
    assert view["response"]["B"] == {"pursuit": False, "retreat_slots": [3]}
    assert game.state["sides"]["A"]["ready"] is True  # not entitled: ready already
    assert view["sides"]["B"]["ready"] is False


def test_tb6_hidden_orders_revealed_only_when_they_take_effect_and_all_at_end() -> None:
    """TB-6: Hidden orders are revealed only when they take effect. Default: once the game
    is over, everything is revealed."""
    game = battle_game()
    game.order("B", {"type": "stand_firm", "slot": 3})  # A's 8 beats B's 7 there
    game.order("A", {"type": "battle_rest"})
    assert all(e.kind != "stand_firm" for e in game.visible_events(viewer("A")))
    assert game.view(viewer("A"))["revealed"] == []
    game.ready_all()
    revealed = game.view(viewer("A"))["revealed"]
    assert [(o["side"], o["type"]) for o in revealed] == [("B", "stand_firm")]
    # Battle Rest took no visible effect: still hidden from B.
    assert all(o["type"] != "battle_rest" for o in game.view(viewer("B"))["revealed"])
    submitted = [
        e for e in game.events if e.kind == "order_submitted" and e.data["type"] == "battle_rest"
    ]
    assert submitted[0].reveal_at == "end"
    game.director("set_morale", side="B", morale=0)
    game.finish_round()
    assert game.state["phase"] == "finished"
    public = game.view(PUBLIC_VIEWER)
    assert any(o["type"] == "battle_rest" for o in public["orders"])
    assert any(e.kind == "order_submitted" for e in game.visible_events(PUBLIC_VIEWER))


def test_tb40_gather_amounts_validated_against_neighbours() -> None:
    """TB-40 Default: the order states how many come from each side (all by default)."""
    game = battle_game()
    violation = game.rejects("A", {"type": "gather", "slot": 2, "from_left": 5})
    assert violation.code == "not_enough_troops"  # slot 1 holds 4
    assert (
        game.rejects("A", {"type": "gather", "slot": 1, "from_left": 1}).code == "slot_out_of_range"
    )
    game.order("A", {"type": "gather", "slot": 2, "from_left": 3})
    game.finish_round()
    (moved,) = game.events_of("troops_gathered")
    assert (moved["from_left"], moved["from_right"]) == (3, 8)


def test_tb41_extra_retreat_against_gather_outside_count_and_gate() -> None:
    """TB-41: When a Gather (or a Feint shown as Gather) is announced, the opponent gets
    one extra Retreat, usable only on its unit facing the gathered slot. Default: outside
    the order count and the morale gate."""
    game = battle_game()
    game.order("A", {"type": "gather", "slot": 3})
    game.order("B", {"type": "hold", "slot": 1})  # B's battle use is spent
    game.director("set_morale", side="B", morale=1)  # below every gate
    game.ready_all()
    assert game.state["phase"] == "response"
    violation = game.rejects("B", {"type": "retreat", "slot": 2})
    assert violation.code == "retreat_not_allowed" and violation.rule == "TB-41"
    game.order("B", {"type": "retreat", "slot": 3})
    assert game.rejects("B", {"type": "retreat", "slot": 3}).code == "retreat_not_allowed"
    game.ready("B")
    assert game.state["round"] == 2 or game.state["phase"] == "finished"
    assert not [e for e in game.events_of("damage") if e["slot"] == 3]


def test_tb41_extra_retreat_takes_a_use_when_not_free() -> None:
    """TB-41 setting `extra_retreat_free` off: the extra Retreat is inside the order count
    and the morale gate — a side whose battle use is spent cannot take it, one with a use
    left can."""
    game = battle_game(extra_retreat_free=False)
    game.order("A", {"type": "gather", "slot": 3})
    game.order("B", {"type": "hold", "slot": 1})  # B's one battle use
    game.ready_all()
    assert game.state["phase"] == "response"
    violation = game.rejects("B", {"type": "retreat", "slot": 3})
    assert (violation.code, violation.rule) == ("no_order_uses", "TB-11")

    game = battle_game(extra_retreat_free=False)
    game.order("A", {"type": "gather", "slot": 3})
    game.ready_all()
    game.order("B", {"type": "retreat", "slot": 3})  # B's use was still free: accepted
    game.director("set_morale", side="B", morale=4.5)  # tier 1 needs 5
    game.ready("B")
    assert game.state["orders"][-1]["status"] == "void"  # the gate, rechecked at close
    assert game.events_of("order_voided")[0]["rule"] == "TB-13"


def test_tb5a_response_window_setting_off() -> None:
    """TB-5a setting `response_window` off: no window after the battle phase; a Gather or a
    Retreat is resolved at once, with no extra Retreat (TB-41) and no Pursuit (TB-45)."""
    game = battle_game(response_window=False)
    game.order("A", {"type": "gather", "slot": 3})
    game.order("B", {"type": "retreat", "slot": 2})
    game.ready_all()
    assert game.state["round"] == 2 and game.state["phase"] == "command"
    assert not [e for e in game.events_of("phase_opened") if e["phase"] == "response"]
    assert game.events_of("troops_gathered")  # the round was resolved


def test_tb44_battle_rest_grants_a_battle_use() -> None:
    """TB-44: next round you have one more battle-phase order use."""
    game = battle_game()
    game.order("A", {"type": "battle_rest"})
    game.finish_round()
    assert game.view(viewer("A"))["sides"]["A"]["order_uses"]["battle"] == 2


def test_tb45_pursuit_only_in_answer_to_a_retreat() -> None:
    """TB-45: only for a side that submitted no battle-phase order this round; used when
    battle-phase orders are announced, in answer to an opponent's Retreat."""
    game = battle_game()
    violation = game.rejects("A", {"type": "pursuit", "slot": 1})
    assert violation.code == "pursuit_not_allowed" and violation.rule == "TB-45"
    game.order("B", {"type": "retreat", "slot": 2})
    game.ready_all()
    assert game.state["phase"] == "response"
    assert game.rejects("A", {"type": "pursuit", "slot": 1}).code == "pursuit_not_allowed"
    game.order("A", {"type": "pursuit", "slot": 2})
    game.ready("A")
    # A's 7 vs B's 6 at slot 2: band (1 – 1), doubled: B's unit loses 2, A's loses none.
    assert (game.slots("A")[1], game.slots("B")[1]) == (7, 4)


def test_tb45_no_pursuit_after_own_battle_order() -> None:
    """TB-45: only for a side that submitted no battle-phase order this round. The message
    names only the side's own order."""
    game = battle_game()
    game.order("A", {"type": "hold", "slot": 4})
    game.order("B", {"type": "retreat", "slot": 2})
    game.director("close_phase")
    # A announced nothing, so publicly it may still respond; its own hidden Hold bars it.
    assert game.state["phase"] == "response"
    violation = game.rejects("A", {"type": "pursuit", "slot": 2})
    assert violation.code == "pursuit_not_allowed"
    assert "己方" in violation.message_zh


def test_tb46_feint_shown_as_gather() -> None:
    """TB-46: like Gather but moves no troops; it is announced as a Gather (so TB-41
    applies)."""
    game = battle_game()
    game.order("A", {"type": "feint", "slot": 2})
    game.ready_all()
    for who in (viewer("B"), PUBLIC_VIEWER):
        (shown,) = game.view(who)["announced"]
        assert shown["type"] == "gather"
        assert all(
            "feint" not in str(e.data) for e in game.visible_events(who) if e.kind != "game_started"
        )
    assert game.view(viewer("A"))["announced"][0]["type"] == "feint"
    assert game.view(DIRECTOR_VIEWER)["announced"][0]["type"] == "feint"
    assert game.state["response"]["B"]["retreat_slots"] == [2]
    game.ready("B")
    assert game.events_of("troops_gathered") == []


def test_tb47_surprise_costs_two_once_per_game() -> None:
    """TB-47: public, once per game, costs two battle uses; troops of the neighbouring
    slots may move into it. No extra retreat for the opponent."""
    # Large, even armies with low dice: nobody is near losing over four rounds.
    game = Game(dice="low", troops={"A": 100, "B": 100})
    game.deploy([20] * 5, [20] * 5)
    game.ready_all()
    violation = game.rejects("A", {"type": "surprise", "slot": 2})
    assert (violation.code, violation.rule) == ("no_order_uses", "TB-12")  # one use only
    game.order("A", {"type": "battle_rest"})  # TB-44: two battle uses in round 2
    game.finish_round()
    game.ready_all()
    before = game.slots("A")
    game.order("A", {"type": "surprise", "slot": 2, "from_left": 1, "from_right": 1})
    game.ready_all()
    # Resolved without a response window (no extra Retreat), troops moved in first.
    assert game.state["round"] == 3 and game.state["phase"] == "command"
    assert not [e for e in game.events_of("phase_opened") if e["phase"] == "response"]
    (moved,) = game.events_of("troops_gathered")
    assert moved["order"] == "surprise"
    assert moved["slots"][:3] == [before[0] - 1, before[1] + 2, before[2] - 1]
    # Round 3: another Battle Rest, so round 4 has two battle uses again…
    game.ready_all()
    game.order("A", {"type": "battle_rest"})
    game.finish_round()
    game.ready_all()
    assert game.state["round"] == 4 and game.state["phase"] == "battle"
    assert game.view(viewer("A"))["sides"]["A"]["order_uses"]["left_this_phase"] == 2
    # …and still no second Surprise: it is once per game.
    violation = game.rejects("A", {"type": "surprise", "slot": 4})
    assert (violation.code, violation.rule) == ("once_per_game", "TB-47")


def test_tb48_feigned_defeat_full_sequence() -> None:
    """TB-48 end to end: shown as Retreat, pursued, judged troops doubled — it has then
    taken effect as itself, so it is revealed (TB-6)."""
    game = battle_game()
    game.order("B", {"type": "battle_rest"})
    game.finish_round()
    game.ready_all()  # round 2 command
    # A 7 vs B 6 at slot 2 (after round 1's low dice); B feigns defeat there.
    order_id = game.order("B", {"type": "feigned_defeat", "slot": 2})
    game.ready_all()
    assert game.state["phase"] == "response"
    (shown,) = [o for o in game.view(viewer("A"))["announced"] if o["round"] == 2]
    assert shown["type"] == "retreat"
    assert (game.slots("A")[1], game.slots("B")[1]) == (7, 5)
    game.order("A", {"type": "pursuit", "slot": 2})
    game.ready("A")
    (hit,) = [e for e in game.events_of("damage") if e["slot"] == 2 and e["judged"] == [10, 7]]
    assert hit["side"] == "B" and hit["band"] == [1, 3]  # B's 5 judged as 10
    (revealed,) = game.events_of("order_revealed")
    assert (revealed["order_id"], revealed["type"]) == (order_id, "feigned_defeat")
    (shown,) = [o for o in game.view(PUBLIC_VIEWER)["announced"] if o["id"] == order_id]
    assert shown["type"] == "feigned_defeat"


def _disguise_twin(order_type: str) -> Game:
    """Round 2: B gives ``order_type`` at slot 3 (after a Battle Rest, so a Feigned Defeat's
    two uses are there); A answers with nothing and the round resolves."""
    game = Game(dice="random")
    game.deploy()
    game.ready_all()
    game.order("B", {"type": "battle_rest"})
    game.finish_round()
    game.ready_all()
    game.order("B", {"type": order_type, "slot": 3})
    game.ready_all()
    assert game.state["phase"] == "response"  # A may pursue either
    game.ready("A")
    assert game.state["round"] == 3
    return game


def test_tb48_feigned_defeat_is_a_retreat_to_everyone_else_until_pursued() -> None:
    """TB-48: It is announced as a Retreat (TB-6: nothing public may reveal it before the
    rules do). Unpursued, everything the public and the opponent can see — events and
    views — is exactly what a real Retreat would have produced."""
    feigned, retreat = _disguise_twin("feigned_defeat"), _disguise_twin("retreat")
    for who in (PUBLIC_VIEWER, viewer("A")):
        seen = [(e.kind, e.data) for e in feigned.visible_events(who)]
        assert seen == [(e.kind, e.data) for e in retreat.visible_events(who)]
        assert "feigned" not in json.dumps([e for e in seen if e[0] != "game_started"])
        assert feigned.view(who) == retreat.view(who)
    # Its own side knows; once the game is over everybody does (TB-6 Default).
    assert "feigned_defeat" in json.dumps(feigned.view(viewer("B"))["announced"])


def test_tb49_first_strike_through_the_engine() -> None:
    """TB-49: First Strike (public, tier 2): damage (1 – its troops/4) before resolution."""
    game = battle_game(dice="high")
    game.order("A", {"type": "first_strike", "slot": 3})  # 8 troops: band (1 – 2)
    game.ready_all()
    (strike,) = game.events_of("first_strike")
    assert strike["band"] == [1, 2] and strike["damage"] == 2


def test_tb50_encircle_costs_two() -> None:
    """TB-50: Encircle (public, costs two battle uses)."""
    game = battle_game()
    assert game.rejects("A", {"type": "encircle", "slot": 2}).code == "no_order_uses"


def test_tb51_stand_firm_is_tier_two() -> None:
    """TB-51: Stand Firm is a tier 2 order (morale ≥ 2/3 max)."""
    game = battle_game()
    game.director("set_morale", side="A", morale=9)
    assert game.rejects("A", {"type": "stand_firm", "slot": 1}).code == "morale_too_low"


def test_tb52_spy_shows_next_rounds_hidden_orders() -> None:
    """TB-52: next round you see all of the opponent's hidden orders as soon as they
    exist."""
    game = battle_game()
    game.order("A", {"type": "spy"})
    game.order("B", {"type": "hold", "slot": 1})
    assert game.view(viewer("A"))["intel"] == []  # not this round
    game.finish_round()
    counter = game.order("B", {"type": "counter", "slot": 5})
    game.order("A", {"type": "rest"})
    (seen,) = game.view(viewer("A"))["intel"]
    assert seen["id"] == counter and seen["source"] == "spy"
    assert [e.data["order_id"] for e in game.events if e.kind == "intel"] == [counter]
    assert game.view(viewer("B"))["intel"] == []


def test_tb52a_see_through_nullifies_the_named_type() -> None:
    """TB-52a: name one battle-phase order type other than See Through; the opponent's
    orders of that type this round have no effect."""
    game = battle_game()
    game.order("A", {"type": "see_through", "order_type": "retreat"})
    game.order("B", {"type": "retreat", "slot": 3})  # A's 8 vs B's 7
    game.ready_all()
    (seen,) = game.events_of("order_seen_through")
    assert seen["side"] == "A" and seen["order_type"] == "retreat" and seen["nullified"] == 1
    assert game.view(viewer("B"))["seen_through"][0]["type"] == "retreat"
    assert [e["side"] for e in game.events_of("damage") if e["slot"] == 3] == ["A"]
    violation = None
    try:
        game.order("A", {"type": "see_through", "order_type": "see_through"})
    except RuleViolation as v:
        violation = v
    assert violation is not None and violation.status == 422


def test_tb52a_voided_order_stays_hidden() -> None:
    """TB-52a with TB-6: the voided order never took effect, so it is not revealed: the
    public and the seer learn that See Through named Hold and voided one order, not which
    slot it named. Its own side is told which of its orders it was."""
    game = battle_game()
    seer = game.order("A", {"type": "see_through", "order_type": "hold"})
    voided = game.order("B", {"type": "hold", "slot": 4})
    game.ready_all()
    (event,) = [e for e in game.events if e.kind == "order_seen_through"]
    assert event.data == {
        "side": "A",
        "order_id": seer,
        "order_type": "hold",
        "nullified": 1,
        "rule": "TB-52a",
    }
    for who in (PUBLIC_VIEWER, viewer("A")):
        assert voided not in json.dumps([e.data for e in game.visible_events(who)])
        view = game.view(who)
        assert view["seen_through"] == [
            {"side": "B", "type": "hold", "status": "nullified", "round": 1, "phase": "battle"}
        ]
        assert voided not in json.dumps(view)
    # The See Through itself took effect: it is revealed with what it named.
    (shown,) = game.view(PUBLIC_VIEWER)["revealed"]
    assert shown["id"] == seer and shown["body"]["order_type"] == "hold"
    (told,) = [e for e in game.events if e.kind == "orders_nullified"]
    assert told.audience == ("side:B", "director") and told.reveal_at == "end"
    assert told.data["orders"] == [
        {"order_id": voided, "type": "hold", "body": {"type": "hold", "slot": 4}}
    ]
    assert game.view(viewer("B"))["seen_through"][0]["body"] == {"type": "hold", "slot": 4}


def test_tb53_annihilation_through_the_engine() -> None:
    """TB-53: Each enemy unit annihilated raises your morale by your max morale / 5 and
    lowers the enemy's by the enemy's max morale / 5."""
    game = Game(dice="high", troops={"A": 30, "B": 20})  # max morale 15 and 10
    game.deploy([4, 7, 8, 6, 5], [1, 8, 8, 2, 1])
    game.director("set_morale", side="A", morale=5)  # far from the cap (TB-5)
    game.finish_round()
    # A's 4, 6 and 5 face B's 1, 2 and 1: each is ≥ double, rolls the band's top
    # (3, 4, 4), takes the 1, 2, 1 troops there and penetrates 2 + 2 + 3 = 7, × 3 units
    # = 21 (TB-23, TB-24).
    assert {(e["side"], e["slot"]) for e in game.events_of("annihilated")} == {
        ("B", 1),
        ("B", 4),
        ("B", 5),
    }
    assert game.slots("B") == [0, 8, 8, 0, 0]
    # A: 5 + 3 × 15/5 = 14. B: 10 − 21 − 3 × 10/5 = −17, and B loses (TB-60).
    assert (game.morale("A"), game.morale("B")) == (14, -17)
    assert game.state["winner"] == "A" and game.state["finish_reason"] == "morale"


@pytest.mark.parametrize(("morale_b", "winner"), [(0, "A"), (-2.5, "A"), (15, None)])
def test_tb60_game_ends_when_morale_reaches_zero(morale_b: float, winner: str | None) -> None:
    """TB-60: A side whose morale or total troops reaches 0 loses."""
    game = battle_game()
    game.director("set_morale", side="B", morale=morale_b)
    game.finish_round()
    assert game.state["winner"] == winner
    if winner:
        assert game.outcomes[-1].finished
        assert ("phase", "phase") in game.outcomes[-1].cancel_timers
        assert game.view(PUBLIC_VIEWER)["phase"] == "finished"


@pytest.mark.parametrize(("setting", "winner"), [("lower_morale_loses", "A"), ("draw", "draw")])
def test_tb60_both_out_of_troops_through_the_engine(setting: str, winner: str) -> None:
    """TB-60 (silent in the rules): both sides are out of troops when a round resolves and
    both still have morale; by default the lower morale loses, setting
    `both_out_of_troops="draw"` makes it a draw."""
    game = Game(dice="low", slots=2, troops={"A": 4, "B": 4}, both_out_of_troops=setting)
    game.deploy([2, 2], [2, 2])
    for side in ("A", "B"):  # the director's edits leave no unit on either side
        for slot in (1, 2):
            game.director("set_troops", side=side, slot=slot, troops=0)
    game.director("set_morale", side="B", morale=1)  # A keeps 2
    game.finish_round()
    assert game.state["phase"] == "finished"
    assert game.state["winner"] == winner


def test_resolution_settings_reach_the_resolution() -> None:
    """Every resolution setting of TB-4, TB-22, TB-25, TB-49 and the order of effects is
    handed to the resolution core (their outcomes are tested in test_resolution.py)."""
    from app.rules.team_battle.engine import resolution_rules
    from app.rules.team_battle.settings import TeamBattleSettings

    changed = TeamBattleSettings(
        whole_morale=True,
        quarter_band_rounding="up",
        damage_overflow="penetration",
        halve_before_doubling=True,
        first_strike_timing="before_moves",
    )
    rules = resolution_rules(changed.model_dump(mode="json"))
    assert (
        rules.whole_morale,
        rules.quarter_up,
        rules.overflow_to_penetration,
        rules.halve_before_doubling,
        rules.first_strike_before_moves,
    ) == (True, True, True, True, True)
    plain = resolution_rules(TeamBattleSettings().model_dump(mode="json"))
    assert not (plain.whole_morale or plain.quarter_up or plain.overflow_to_penetration)
    assert not (plain.halve_before_doubling or plain.first_strike_before_moves)
