"""What a side may order now (the order forms) and the odds preview, judged by the engine.

Availability must agree with submission: every order offered as allowed is accepted with
any of its choices, and every refused one gives the engine's own reason and rule ID.
The odds preview reads only the side's view, so the other side's hidden orders cannot
move it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules.base import RuleViolation
from app.rules.team_battle.available import available_orders
from app.rules.team_battle.odds import preview
from tests.rules.team_battle.helpers import Game, viewer


def by_type(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["type"]: e for e in entries}


def test_only_the_current_phases_orders_are_offered() -> None:
    game = Game()
    game.start()
    offered = by_type(available_orders(game.state, viewer("A")))
    assert list(offered) == ["deploy"]
    assert offered["deploy"]["allowed"] and offered["deploy"]["choices"] == {
        "slots": 5,
        "total": 30,
    }
    game.deploy()
    offered = by_type(available_orders(game.state, viewer("A")))
    assert set(offered) == {"dispatch", "inspire", "counter", "rest", "blood_battle", "scout"}
    assert offered["counter"]["choices"]["slot"] == [1, 2, 3, 4, 5]


def test_tb13_a_tier_two_order_below_the_gate_says_why() -> None:
    """TB-13: tier 2 requires morale ≥ max morale × 2/3."""
    game = Game()
    game.deploy()
    game.director("set_morale", side="A", morale=9)
    game.ready_all()  # to the battle phase
    offered = by_type(available_orders(game.state, viewer("A")))
    spy = offered["spy"]
    assert spy["allowed"] is False
    assert (spy["code"], spy["rule"]) == ("morale_too_low", "TB-13")
    assert "10" in spy["message_zh"] and "10" in spy["message_en"]
    assert offered["retreat"]["allowed"] is True  # tier 1: 9 ≥ 5
    # The engine says the same.
    with pytest.raises(RuleViolation) as refused:
        game.order("A", {"type": "spy"})
    assert refused.value.code == spy["code"]


def test_tb11_uses_spent_and_tb14_cooldown_are_reasons() -> None:
    game = Game()
    game.deploy()
    game.order("A", {"type": "rest"})
    offered = by_type(available_orders(game.state, viewer("A")))
    assert (offered["counter"]["code"], offered["counter"]["rule"]) == ("no_order_uses", "TB-11")
    assert (offered["blood_battle"]["code"], offered["blood_battle"]["rule"]) == (
        "no_order_uses",
        "TB-12",
    )
    game.finish_round()
    offered = by_type(available_orders(game.state, viewer("A")))
    assert (offered["rest"]["code"], offered["rest"]["rule"]) == ("cooldown", "TB-14")
    # Rest granted one more command use this round (TB-33): two orders fit.
    game.order("A", {"type": "counter", "slot": 1})
    assert by_type(available_orders(game.state, viewer("A")))["scout"]["allowed"] is True


def test_every_offered_choice_is_accepted() -> None:
    game = Game()
    game.deploy(a=[1, 1, 1, 1, 26])
    game.ready_all()  # battle phase
    for entry in available_orders(game.state, viewer("A")):
        if not entry["allowed"] or "slot" not in entry["choices"]:
            continue
        for slot in entry["choices"]["slot"]:
            probe = Game()
            probe.state, probe.order_seq = game.state, game.order_seq
            probe.order("A", {"type": entry["type"], "slot": slot})


def test_tb45_pursuit_offers_only_slots_facing_an_announced_retreat() -> None:
    game = Game()
    game.deploy()
    game.ready_all()
    game.order("B", {"type": "retreat", "slot": 3})
    game.order("A", {"type": "gather", "slot": 1})
    game.ready_all()
    assert game.state["phase"] == "response"
    offered_a = by_type(available_orders(game.state, viewer("A")))
    assert set(offered_a) == {"pursuit", "retreat"}
    # A gave a battle order, so no Pursuit for it (TB-45); B faces A's Gather at slot 1.
    assert (offered_a["pursuit"]["allowed"], offered_a["pursuit"]["rule"]) == (False, "TB-45")
    offered_b = by_type(available_orders(game.state, viewer("B")))
    assert offered_b["retreat"]["choices"]["slot"] == [1]  # TB-41: the extra Retreat


def test_no_orders_for_the_public_or_after_the_end() -> None:
    from app.rules.base import PUBLIC_VIEWER

    game = Game()
    game.deploy()
    assert available_orders(game.state, PUBLIC_VIEWER) == []


# --- odds ----------------------------------------------------------------------------------
def odds(
    game: Game, side: str, draft: list[dict[str, Any]] | None = None, rounds: int = 2000
) -> Any:
    view = game.view(viewer(side))
    return preview(view, side, draft or [], random.Random(7), rounds)


def test_odds_need_the_opponents_deployment() -> None:
    game = Game()
    game.start()
    game.order("A", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    assert odds(game, "A") is None  # B's slots are not known yet (TB-10)


def test_odds_never_use_the_other_sides_hidden_orders() -> None:
    game = Game()
    game.deploy(a=[10, 5, 5, 5, 5], b=[4, 7, 7, 6, 6])
    game.ready_all()  # battle phase
    before = odds(game, "A")
    hidden = game.order("B", {"type": "hold", "slot": 1})  # hidden (TB-43)
    assert odds(game, "A") == before
    # B knows its own Hold: for B the picture changes (A's penetration at slot 1 halves).
    view_b = game.view(viewer("B"))
    with_hold = preview(view_b, "B", [], random.Random(7), 2000)
    without = preview(view_b, "B", [], random.Random(7), 2000, replacing=hidden)
    assert with_hold is not None and without is not None
    assert with_hold["expected_morale"]["B"] > without["expected_morale"]["B"]


def test_odds_follow_the_drafted_order_and_the_dice_setting() -> None:
    """With dice "high" every band is its upper bound: one resolution is exact."""
    game = Game(dice="high")
    game.deploy(a=[2, 2, 2, 2, 22], b=[6, 6, 6, 6, 6])
    game.ready_all()
    plain = odds(game, "A")
    assert plain["rounds"] == 1
    retreat = odds(game, "A", [{"type": "retreat", "slot": 1}])
    # A's slot 1 (2 vs 6) retreats: no damage either way there, so A loses less morale.
    assert retreat["expected_morale"]["A"] > plain["expected_morale"]["A"]
    assert sum(retreat["outcomes"].values()) == pytest.approx(1.0)


def test_odds_are_a_distribution_over_the_dice() -> None:
    game = Game()
    game.deploy(a=[10, 5, 5, 5, 5], b=[4, 7, 7, 6, 6])
    game.ready_all()
    result = odds(game, "A", rounds=5000)
    for side in ("A", "B"):
        assert sum(d["p"] for d in result["morale"][side]) == pytest.approx(1.0)
    # 10 vs 4 (TB-21): band 3–6 against 4 troops, so the penetration varies with the dice.
    assert len(result["morale"]["B"]) > 1
    assert result == odds(game, "A", rounds=5000)  # the same seed, the same preview


def test_the_exact_odds_agree_with_sampling_them() -> None:
    """Few enough ways for the dice to fall: each is resolved once and weighted exactly;
    sampling the same round many times lands close to it."""
    game = Game()
    game.deploy(a=[10, 2, 6, 6, 6], b=[4, 8, 6, 6, 6])
    game.ready_all()
    view = game.view(viewer("A"))
    exact = preview(view, "A", [], random.Random(3))
    sampled = preview(view, "A", [], random.Random(3), 20_000, enumerate_up_to=0)
    assert exact is not None and sampled is not None
    assert exact["exact"] and not sampled["exact"]
    assert sum(d["p"] for d in exact["morale"]["A"]) == pytest.approx(1.0)
    for side in ("A", "B"):
        assert sampled["expected_morale"][side] == pytest.approx(
            exact["expected_morale"][side], abs=0.1
        )
