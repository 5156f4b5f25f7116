"""The checks every order shares, whatever it does: its phase, its uses (TB-11/12), once
per game, the cooldown (TB-14), the morale gate (TB-13) and the slots it names (TB-2).

Each order's own checks sit beside its effect in ``orders/``; ``validate`` runs both.
Only the submitting side's own orders and public facts are consulted or mentioned.
"""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.messages import PHASE_NAMES, order_names, violation
from app.rules.team_battle.order_types import OrderDef
from app.rules.team_battle.orders.inspire import inspired
from app.rules.team_battle.state import (
    MORALE_UNIT,
    blood_battle_slots,
    morale_number,
    order_uses,
    spent_uses,
)


def check_phase(state: JSON, side: str, definition: OrderDef, others: list[JSON]) -> None:
    """An order is given in its own phase."""
    phase = state["phase"]
    if definition.phase != phase:
        need_zh, need_en = PHASE_NAMES[definition.phase]
        now_zh, now_en = PHASE_NAMES[phase]
        raise violation(
            "wrong_phase",
            definition.rule,
            need=need_zh,
            need_en=need_en,
            now=now_zh,
            now_en=now_en,
            **order_names(definition.type),
        )


def check_uses(state: JSON, side: str, definition: OrderDef, others: list[JSON]) -> None:
    """TB-11 / TB-12 / TB-15: the phase's uses, counting "costs two" orders twice."""
    phase = "command" if definition.phase == "command" else "battle"
    uses = order_uses(state, side, phase)
    spent = spent_uses(state, side, others)
    if spent + definition.cost > uses:
        raise violation(
            "no_order_uses",
            "TB-12" if definition.cost > 1 else "TB-11",
            uses=uses,
            cost=definition.cost,
            **order_names(definition.type),
        )


def check_once_and_cooldown(
    state: JSON, side: str, definition: OrderDef, others: list[JSON]
) -> None:
    own = state["sides"][side]
    names = order_names(definition.type)
    if definition.once_per_game and (
        definition.type in own["once_used"] or any(o["type"] == definition.type for o in others)
    ):
        raise violation("once_per_game", definition.rule, **names)
    if definition.cooldown and own["last_used"].get(definition.type) == state["round"] - 1:
        raise violation("cooldown", "TB-14", **names)


def morale_gate(state: JSON, side: str, tier: int) -> int:
    """TB-13: the morale (tenths) a tier needs; 0 for no gate."""
    settings = state["settings"]
    thirds = {1: settings["tier1_morale_thirds"], 2: settings["tier2_morale_thirds"]}.get(tier, 0)
    return int(state["sides"][side]["max_morale"]) * int(thirds)  # ×3, compared with morale×3


def meets_morale_gate(state: JSON, side: str, tier: int) -> bool:
    """TB-13, and TB-31: an inspired side passes every gate this round."""
    if tier == 0 or inspired(state, side):
        return True
    return int(state["sides"][side]["morale"]) * 3 >= morale_gate(state, side, tier)


def check_morale_gate(state: JSON, side: str, definition: OrderDef, tier: int) -> None:
    if meets_morale_gate(state, side, tier):
        return
    need_tenths = morale_gate(state, side, tier) / 3
    raise violation(
        "morale_too_low",
        "TB-13",
        tier=tier,
        need=_format_morale(need_tenths),
        have=morale_number(int(state["sides"][side]["morale"])),
        **order_names(definition.type),
    )


def _format_morale(tenths: float) -> str:
    value = tenths / MORALE_UNIT
    return str(int(value)) if value == int(value) else f"{value:.2f}".rstrip("0")


def check_slot(state: JSON, slot: int) -> None:
    slots = state["settings"]["slots"]
    if not 1 <= slot <= slots:
        raise violation("slot_out_of_range", "TB-2", slots=slots, slot=slot)


def troops_of(state: JSON, side: str) -> list[int]:
    """The side's troops per slot (all 0 before deployments are revealed)."""
    slots = state["sides"][side]["slots"]
    return list(slots) if slots is not None else [0] * state["settings"]["slots"]


def check_slots(
    state: JSON, side: str, definition: OrderDef, body: JSON, others: list[JSON]
) -> None:
    """The slot an order names exists (TB-2), holds a unit where it must, and is not in
    Blood Battle for a battle-phase order (TB-34)."""
    target = definition.target
    if target in ("own_slot", "own_unit", "gather", "enemy_slot"):
        slot = body["slot"]
        check_slot(state, slot)
        if target == "own_unit" and troops_of(state, side)[slot - 1] < 1:
            raise violation("no_unit", definition.rule, slot=slot)
        if definition.phase != "command" and slot in blood_battle_slots(state, side):
            raise violation("blood_battle_slot", "TB-34", slot=slot)
