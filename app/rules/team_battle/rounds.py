"""A round's resolution as the engine runs it (TB-20 onwards): the sides' forces from
their standing orders, the fighting (``resolve.py``), its events, and the next round or
the end (TB-60)."""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.flow import finish, open_phase
from app.rules.team_battle.order_types import ORDERS
from app.rules.team_battle.orders.table import RULES
from app.rules.team_battle.resolve import (
    ResolutionRules,
    SideForces,
    judge_victory,
    resolve_round,
)
from app.rules.team_battle.settings import setting
from app.rules.team_battle.state import MORALE_UNIT, SIDES, morale_number, round_orders
from app.rules.team_battle.turn import Turn

# TB-48: an unpursued Feigned Defeat is announced as a Retreat and acts like one, so the
# public log gives the Retreat's reason (TB-6).
_FEIGNED_FACE = {"own_feigned_defeat": "own_retreat", "facing_feigned_defeat": "facing_retreat"}


def resolve(turn: Turn) -> None:
    state = turn.state
    settings = state["settings"]
    forces = [side_forces(state, side) for side in SIDES]
    rules = resolution_rules(settings)
    log: list[JSON] = []
    turn.emit(
        "resolution_started",
        {
            "round": state["round"],
            "slots": {s: list(state["sides"][s]["slots"]) for s in SIDES},
            "morale": {s: morale_number(state["sides"][s]["morale"]) for s in SIDES},
        },
    )
    result = resolve_round(forces[0], forces[1], rules, turn.rng, log)
    for index, order_type, slot in result.revealed:
        side = SIDES[index]
        for order in round_orders(state, side, None, ("resolved",)):
            if order["type"] == order_type and order["body"].get("slot") == slot:
                if not order["revealed"]:
                    order["revealed"] = True
                    turn.emit(
                        "order_revealed",
                        {
                            "order_id": order["id"],
                            "side": side,
                            "type": order_type,
                            "slot": slot,
                            "rule": ORDERS[order_type].rule,
                        },
                    )
    for entry in log:
        kind = entry.pop("kind")
        if kind == "no_damage" and entry["reason"] in _FEIGNED_FACE:
            entry["reason"] = _FEIGNED_FACE[entry["reason"]]
        turn.emit(str(kind), entry)
    for index, side in enumerate(SIDES):
        state["sides"][side]["slots"] = result.troops[index]
        state["sides"][side]["morale"] = result.morale[index]
    totals = [sum(result.troops[0]), sum(result.troops[1])]
    turn.emit(
        "round_resolved",
        {
            "round": state["round"],
            "slots": {"A": list(result.troops[0]), "B": list(result.troops[1])},
            "morale": {s: morale_number(result.morale[i]) for i, s in enumerate(SIDES)},
            "penetration": {s: result.penetration[i] / MORALE_UNIT for i, s in enumerate(SIDES)},
            "annihilated": {s: result.annihilated[i] for i, s in enumerate(SIDES)},
        },
    )
    winner, reason = judge_victory(
        result.morale,
        totals,
        settings["draw_on_exact_tie"],
        setting(settings, "both_out_of_troops") == "draw",
    )
    if winner is not None:
        finish(turn, winner, str(reason))
        return
    state["round"] += 1
    state["response"] = None
    for side in SIDES:
        own = state["sides"][side]
        own["extra_uses"] = own["next_extra_uses"]  # TB-33 / TB-44 take effect
        own["next_extra_uses"] = {"command": 0, "battle": 0}
    open_phase(turn, "command")


def side_forces(state: JSON, side: str) -> SideForces:
    """A side's troops and morale, marked by each of its standing orders of the round."""
    own = state["sides"][side]
    forces = SideForces.plain(list(own["slots"]), own["morale"], own["max_morale"])
    for order in round_orders(state, side, None, ("resolved",)):
        mark = RULES[order["type"]].forces
        if mark is not None:
            mark(forces, order)
    return forces


def resolution_rules(settings: JSON) -> ResolutionRules:
    return ResolutionRules(
        dice=settings["dice"],
        double_band_lower_up=settings["double_band_lower_rounding"] == "up",
        halve_up=settings["halving_rounding"] == "up",
        hold_halves_exactly=settings["hold_halves_exactly"],
        morale_cap=settings["morale_cap"],
        penetration_counts_positive_only=settings["penetration_counts_positive_only"],
        blood_battle_doubles_penetration=settings["blood_battle_doubles_penetration"],
        first_strike_annihilates=settings["first_strike_annihilates"],
        first_strike_before_moves=setting(settings, "first_strike_timing") == "before_moves",
        quarter_up=setting(settings, "quarter_band_rounding") == "up",
        overflow_to_penetration=setting(settings, "damage_overflow") == "penetration",
        halve_before_doubling=setting(settings, "halve_before_doubling"),
        whole_morale=setting(settings, "whole_morale"),
    )
