"""Order validation: shape (422) first, then the rules (409), before anything changes.

The same :func:`check_order` runs at submission and again when the phase closes
(TB-13 Default), against the side's other orders of the phase, so uses, troops and gates
are always judged the same way. Only the submitting side's own orders and public facts
are consulted or mentioned — never the opponent's hidden orders.
"""

from __future__ import annotations

from typing import Any

from app.rules.base import JSON, RuleViolation
from app.rules.team_battle.messages import PHASE_NAMES, malformed, order_names, violation
from app.rules.team_battle.orders import ORDERS, SEE_THROUGH_TARGETS, OrderDef
from app.rules.team_battle.state import (
    MORALE_UNIT,
    blood_battle_slots,
    inspired,
    morale_number,
    order_uses,
    other,
    round_orders,
    spent_uses,
)

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
    if definition.type == "deploy":
        _check_deployment(state, side, body)
        return
    if definition.type == "pursuit":
        _check_pursuit_target(state, side, body)
    elif state["phase"] == "response" and definition.type == "retreat":
        _check_extra_retreat(state, side, body, others)
    _check_target(state, side, definition, body, others)


def check_usable(
    state: JSON, side: str, definition: OrderDef, others: list[JSON], at_close: bool = False
) -> None:
    """Everything about giving ``definition`` now that does not depend on its target:
    the phase, whether it is enabled, uses (TB-11/12), once per game, cooldown (TB-14)
    and the morale gate (TB-13). ``available_orders`` asks exactly this."""
    settings = state["settings"]
    phase = state["phase"]
    names = order_names(definition.type)
    if phase == "finished":
        raise violation("game_finished", "TB-60")
    if definition.type not in settings["enabled_orders"]:
        raise violation("order_disabled", None, **names)

    extra_retreat = phase == "response" and definition.type == "retreat"
    if definition.type == "pursuit":
        _check_pursuit_allowed(state, side)
    elif not extra_retreat and definition.phase != phase:
        need_zh, need_en = PHASE_NAMES[definition.phase]
        now_zh, now_en = PHASE_NAMES[phase]
        raise violation(
            "wrong_phase",
            definition.rule,
            need=need_zh,
            need_en=need_en,
            now=now_zh,
            now_en=now_en,
            **names,
        )
    if definition.type == "deploy":
        return

    if extra_retreat:
        if not free_extra_retreat_slots(state, side, others):
            raise violation("retreat_not_allowed", "TB-41")
    if not extra_retreat or not settings["extra_retreat_free"]:
        # TB-41: the extra Retreat is outside the order count unless the setting says not.
        _check_uses(state, side, definition, others)
    _check_once_and_cooldown(state, side, definition, others)
    if not at_close or settings["recheck_morale_at_close"]:
        _check_morale_gate(state, side, definition, extra_retreat)


def _check_uses(state: JSON, side: str, definition: OrderDef, others: list[JSON]) -> None:
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


def _check_once_and_cooldown(
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
    if tier == 0 or inspired(state, side):
        return True
    return int(state["sides"][side]["morale"]) * 3 >= morale_gate(state, side, tier)


def _check_morale_gate(state: JSON, side: str, definition: OrderDef, extra_retreat: bool) -> None:
    tier = definition.tier
    if extra_retreat:
        # TB-41: the extra retreat is outside the morale gate unless the setting says not.
        if state["settings"]["extra_retreat_free"]:
            return
        tier = 1
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


def _check_slot(state: JSON, slot: int) -> None:
    slots = state["settings"]["slots"]
    if not 1 <= slot <= slots:
        raise violation("slot_out_of_range", "TB-2", slots=slots, slot=slot)


def _troops(state: JSON, side: str) -> list[int]:
    slots = state["sides"][side]["slots"]
    return list(slots) if slots is not None else [0] * state["settings"]["slots"]


def _check_target(
    state: JSON, side: str, definition: OrderDef, body: JSON, others: list[JSON]
) -> None:
    target = definition.target
    troops = _troops(state, side)
    if target in ("own_slot", "own_unit", "gather", "enemy_slot"):
        slot = body["slot"]
        _check_slot(state, slot)
        if target == "own_unit" and troops[slot - 1] < 1:
            raise violation("no_unit", definition.rule, slot=slot)
        if definition.phase != "command" and slot in blood_battle_slots(state, side):
            raise violation("blood_battle_slot", "TB-34", slot=slot)
    if target == "gather":
        slot = body["slot"]
        for key, neighbour in (("from_left", slot - 1), ("from_right", slot + 1)):
            wanted = body.get(key)
            if not wanted:
                continue
            if not 1 <= neighbour <= len(troops):
                raise violation(
                    "slot_out_of_range", definition.rule, slots=len(troops), slot=neighbour
                )
            if wanted > troops[neighbour - 1]:
                raise violation(
                    "not_enough_troops",
                    definition.rule,
                    slot=neighbour,
                    have=troops[neighbour - 1],
                    want=wanted,
                )
    elif target == "moves":
        _check_moves(state, side, body["moves"], others, troops)


def _check_moves(
    state: JSON, side: str, moves: list[JSON], others: list[JSON], troops: list[int]
) -> None:
    """TB-30: at most two units, each to an adjacent slot, all moves simultaneous: each
    source gives only troops it held before the phase's moves (footnote [1])."""
    if len(moves) > 2:
        raise violation(
            "bad_move",
            "TB-30",
            detail_zh="一次调度最多指定两个部队。",
            detail_en="A dispatch names at most two units.",
        )
    sources = [m["from"] for m in moves]
    if len(set(sources)) != len(sources):
        raise violation(
            "bad_move",
            "TB-30",
            detail_zh="同一部队在一次调度中只能指定一次。",
            detail_en="A dispatch names each unit at most once.",
        )
    outgoing: dict[int, int] = {}
    for order in others:
        if order["type"] == "dispatch":
            for move in order["body"]["moves"]:
                outgoing[move["from"]] = outgoing.get(move["from"], 0) + move["troops"]
    for move in moves:
        _check_slot(state, move["from"])
        _check_slot(state, move["to"])
        if abs(move["from"] - move["to"]) != 1:
            raise violation("not_adjacent", "TB-30", src=move["from"], dst=move["to"])
        if move["troops"] < 1:
            raise violation(
                "bad_move",
                "TB-30",
                detail_zh="调度兵力至少为1。",
                detail_en="A move carries at least 1 troop.",
            )
        have = troops[move["from"] - 1]
        want = outgoing.get(move["from"], 0) + move["troops"]
        if want > have:
            raise violation("not_enough_troops", "TB-30", slot=move["from"], have=have, want=want)


def _check_deployment(state: JSON, side: str, body: JSON) -> None:
    """TB-10: every slot at least 1 troop, integers, summing to the side's total."""
    troops = body["troops"]
    slots = state["settings"]["slots"]
    total = state["sides"][side]["total"]
    if len(troops) != slots:
        raise violation(
            "bad_deployment",
            "TB-10",
            detail_zh=f"需要为全部{slots}个格子部署兵力，收到{len(troops)}个。",
            detail_en=f"Deploy all {slots} slots; got {len(troops)}.",
        )
    if min(troops) < 1:
        raise violation(
            "bad_deployment",
            "TB-10",
            detail_zh="每一格必须至少部署1兵力。",
            detail_en="Every slot must hold at least 1 troop.",
        )
    if sum(troops) != total:
        raise violation(
            "bad_deployment",
            "TB-10",
            detail_zh=f"兵力合计必须为{total}，收到{sum(troops)}。",
            detail_en=f"Troops must add up to {total}; got {sum(troops)}.",
        )


def _announced(state: JSON, side: str, shown: str) -> list[JSON]:
    """Announced, not seen-through orders of ``side`` this round by their public face."""
    return [
        o
        for o in round_orders(state, side, None, ("resolved",))
        if o.get("announced") and o.get("shown_type") == shown
    ]


def pursuit_targets(state: JSON, side: str) -> list[int]:
    """TB-45: slots where the opponent announced a Retreat (or what is shown as one)."""
    return sorted({o["body"]["slot"] for o in _announced(state, other(side), "retreat")})


def extra_retreat_slots(state: JSON, side: str) -> list[int]:
    """TB-41: own slots facing an announced Gather (or a Feint shown as Gather)."""
    slots: list[int] = []
    for order in _announced(state, other(side), "gather"):
        if order["body"]["slot"] not in slots:
            slots.append(order["body"]["slot"])
    return slots


def announced_battle_orders(state: JSON, side: str) -> bool:
    return any(
        o.get("announced") and o["phase"] == "battle"
        for o in round_orders(state, side, "battle", ("resolved", "nullified"))
    )


def _check_pursuit_allowed(state: JSON, side: str) -> None:
    if state["phase"] != "response":
        raise _refuse_pursuit(
            "追杀只能在战斗阶段指令公开后的响应阶段，回应对方的撤退时使用。",
            "Pursuit is only given in the response window, answering an announced Retreat.",
        )
    if round_orders(state, side, "battle", ("resolved", "void", "nullified")):
        raise _refuse_pursuit(
            "己方本回合已提交战斗阶段指令。",
            "Your side gave a battle-phase order this round.",
        )
    if not pursuit_targets(state, side):
        raise _refuse_pursuit(
            "对方本回合没有公开的撤退可以追杀。", "The opponent announced no Retreat."
        )


def _check_pursuit_target(state: JSON, side: str, body: JSON) -> None:
    targets = pursuit_targets(state, side)
    if state["settings"]["pursuit_must_face_retreat"] and body["slot"] not in targets:
        raise _refuse_pursuit(
            f"第{body['slot']}格对面没有公开的撤退。",
            f"No announced Retreat faces slot {body['slot']}.",
        )


def _refuse_pursuit(zh: str, en: str) -> RuleViolation:
    return violation("pursuit_not_allowed", "TB-45", detail_zh=zh, detail_en=en)


def free_extra_retreat_slots(state: JSON, side: str, others: list[JSON]) -> list[int]:
    """TB-41: own slots facing an announced Gather that have no extra Retreat yet."""
    taken = {o["body"]["slot"] for o in others if o["type"] == "retreat"}
    return [s for s in extra_retreat_slots(state, side) if s not in taken]


def _check_extra_retreat(state: JSON, side: str, body: JSON, others: list[JSON]) -> None:
    slot = body["slot"]
    taken = [o["body"]["slot"] for o in others if o["type"] == "retreat"]
    if slot not in extra_retreat_slots(state, side) or slot in taken:
        raise violation("retreat_not_allowed", "TB-41")
