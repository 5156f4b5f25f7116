"""Order validation: shape (422) first, then the rules (409), before anything changes.

The same :func:`check_order` runs at submission and again when the phase closes
(TB-13 Default), against the side's other orders of the phase, so uses, troops and gates
are always judged the same way: the checks every order shares (``gates``), then the
order's own (``orders/table.py``). Only the submitting side's own orders and public facts
are consulted or mentioned — never the opponent's hidden orders.
"""

from __future__ import annotations

from typing import Any

from app.rules.base import JSON
from app.rules.team_battle.messages import malformed, order_names, violation
from app.rules.team_battle.order_types import ORDERS, SEE_THROUGH_TARGETS, OrderDef
from app.rules.team_battle.orders.gates import (
    check_morale_gate,
    check_once_and_cooldown,
    check_uses,
)
from app.rules.team_battle.orders.retreat import is_extra_retreat
from app.rules.team_battle.orders.table import RULES

_FIELDS: dict[str, tuple[str, ...]] = {
    "none": (),
    "troops": ("troops",),
    "moves": ("moves",),
    "own_slot": ("slot",),
    "own_unit": ("slot",),
    "enemy_slot": ("slot",),
    "gather": ("slot", "from_left", "from_right"),
    "order_type": ("order_type",),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_order(body: Any) -> tuple[OrderDef, JSON]:
    """Check the body's shape (422 when malformed) and return (definition, clean body)."""
    if not isinstance(body, dict):
        raise malformed("指令必须是一个对象。", "The order must be a JSON object.")
    order_type = body.get("type")
    if not isinstance(order_type, str):
        raise malformed("缺少指令类型 type。", "Missing order 'type'.")
    definition = ORDERS.get(order_type)
    if definition is None:
        raise violation("unknown_order", None, status=422, type=order_type)
    allowed = _FIELDS[definition.target]
    extra = sorted(k for k in body if k != "type" and k not in allowed)
    if extra:
        raise malformed(f"多余的字段：{', '.join(extra)}。", f"Unexpected fields: {extra}.")
    clean: JSON = {"type": order_type}
    target = definition.target
    if target in ("own_slot", "own_unit", "enemy_slot", "gather"):
        clean["slot"] = _int_field(body, "slot")
    if target == "gather":
        for key in ("from_left", "from_right"):
            value = body.get(key)
            if value is not None:
                if not _is_int(value) or value < 0:
                    raise malformed(f"{key} 必须是非负整数。", f"'{key}' must be an integer ≥ 0.")
                clean[key] = value
    elif target == "troops":
        troops = body.get("troops")
        if not isinstance(troops, list) or not all(_is_int(t) for t in troops):
            raise malformed("troops 必须是整数列表。", "'troops' must be a list of integers.")
        clean["troops"] = list(troops)
    elif target == "moves":
        clean["moves"] = _parse_moves(body.get("moves"))
    elif target == "order_type":
        named = body.get("order_type")
        if named not in SEE_THROUGH_TARGETS:
            raise violation(
                "bad_order",
                "TB-52a",
                status=422,
                detail_zh="识破必须指定一项战斗阶段指令（识破除外）。",
                detail_en="See Through must name a battle-phase order type other than itself.",
            )
        clean["order_type"] = named
    return definition, clean


def _int_field(body: JSON, key: str) -> int:
    value = body.get(key)
    if not _is_int(value):
        raise malformed(f"缺少整数字段 {key}。", f"Missing integer field '{key}'.")
    assert isinstance(value, int)
    return value


def _parse_moves(moves: Any) -> list[JSON]:
    if not isinstance(moves, list) or not moves:
        raise malformed("moves 必须是非空列表。", "'moves' must be a non-empty list.")
    clean: list[JSON] = []
    for move in moves:
        if not isinstance(move, dict) or sorted(move) != ["from", "to", "troops"]:
            raise malformed(
                "每次调度需要 from、to、troops 三个字段。",
                "Each move needs exactly 'from', 'to' and 'troops'.",
            )
        if not all(_is_int(move[k]) for k in ("from", "to", "troops")):
            raise malformed("调度的字段必须是整数。", "Move fields must be integers.")
        clean.append({"from": move["from"], "to": move["to"], "troops": move["troops"]})
    return clean


def check_order(
    state: JSON,
    side: str,
    definition: OrderDef,
    body: JSON,
    others: list[JSON],
    at_close: bool = False,
) -> None:
    """Raise RuleViolation if ``side`` may not give this order now, next to ``others``
    (its other orders of the same phase and round, the order itself excluded)."""
    check_usable(state, side, definition, others, at_close)
    RULES[definition.type].check(state, side, definition, body, others)


def check_usable(
    state: JSON, side: str, definition: OrderDef, others: list[JSON], at_close: bool = False
) -> None:
    """Everything about giving ``definition`` now that does not depend on its target:
    the phase, whether it is enabled, uses (TB-11/12), once per game, cooldown (TB-14)
    and the morale gate (TB-13). ``available_orders`` asks exactly this."""
    settings = state["settings"]
    rules = RULES[definition.type]
    if state["phase"] == "finished":
        raise violation("game_finished", "TB-60")
    if definition.type not in settings["enabled_orders"]:
        raise violation("order_disabled", None, **order_names(definition.type))
    rules.when(state, side, definition, others)
    if rules.ungated:
        return
    # TB-41: the extra Retreat is outside the order count and the morale gate unless the
    # setting says not; then it counts as a tier 1 order.
    free = is_extra_retreat(state, definition) and settings["extra_retreat_free"]
    if not free:
        check_uses(state, side, definition, others)
    check_once_and_cooldown(state, side, definition, others)
    if not free and (not at_close or settings["recheck_morale_at_close"]):
        tier = 1 if is_extra_retreat(state, definition) else definition.tier
        check_morale_gate(state, side, definition, tier)
