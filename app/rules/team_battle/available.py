"""What a side may order right now, and why not: the order forms' source of truth.

Each order of the current phase is judged by the same ``check_usable`` that submission
runs (phase, enabled, uses, once per game, cooldown, morale gate), so a form can never
offer what the engine would refuse for those reasons, nor refuse what it would take.
Targets are offered from the same facts the target checks use (own units, blood-battle
slots, announced Retreats and Gathers). Only the side's own orders and public facts are
read, as in validation.
"""

from __future__ import annotations

from app.rules.base import JSON, RuleViolation, Viewer
from app.rules.team_battle.messages import violation
from app.rules.team_battle.order_types import ORDERS, SEE_THROUGH_TARGETS, OrderDef
from app.rules.team_battle.orders.pursuit import pursuit_targets
from app.rules.team_battle.orders.retreat import free_extra_retreat_slots
from app.rules.team_battle.state import SIDES, blood_battle_slots, round_orders
from app.rules.team_battle.validate import check_usable


def _relevant(definition: OrderDef, phase: str) -> bool:
    if phase == "response":
        return definition.type in ("pursuit", "retreat")
    return definition.phase == phase


def _slot_choices(state: JSON, side: str, definition: OrderDef, others: list[JSON]) -> list[int]:
    n = int(state["settings"]["slots"])
    slots = state["sides"][side]["slots"] or [0] * n
    target = definition.target
    if target == "enemy_slot":
        return list(range(1, n + 1))
    if definition.type == "pursuit":
        faced = pursuit_targets(state, side)
        if not state["settings"]["pursuit_must_face_retreat"]:
            faced = list(range(1, n + 1))
        return [s for s in faced if slots[s - 1] > 0]
    if state["phase"] == "response" and definition.type == "retreat":
        return [s for s in free_extra_retreat_slots(state, side, others) if slots[s - 1] > 0]
    blocked = blood_battle_slots(state, side) if definition.phase != "command" else []
    choices = [s for s in range(1, n + 1) if s not in blocked]
    if target == "own_unit":
        choices = [s for s in choices if slots[s - 1] > 0]
    return choices


def available_orders(state: JSON, viewer: Viewer) -> list[JSON]:
    """Every order of the current phase for the viewer's side: ``allowed``, and when not,
    the ``code``, ``rule`` and message saying why; ``choices`` lists valid targets."""
    side = viewer.side
    phase = state["phase"]
    if viewer.role != "player" or side not in SIDES or phase in ("setup", "finished"):
        return []
    enabled = state["settings"]["enabled_orders"]
    current = round_orders(state, side, phase)
    out: list[JSON] = []
    for definition in ORDERS.values():
        if definition.type not in enabled or not _relevant(definition, phase):
            continue
        others = [] if definition.type == "deploy" else current
        entry: JSON = {
            "type": definition.type,
            "name_zh": definition.name_zh,
            "order_rule": definition.rule,
            "public": definition.public,
            "tier": definition.tier,
            "cost": definition.cost,
            "allowed": True,
            "code": None,
            "rule": None,
            "message_zh": None,
            "message_en": None,
            "choices": _choices(state, side, definition, others),
        }
        try:
            check_usable(state, side, definition, others)
            if _targets_needed(definition) and not entry["choices"].get("slot"):
                raise violation("no_target", definition.rule)
        except RuleViolation as why:
            entry.update(
                allowed=False,
                code=why.code,
                rule=why.rule,
                message_zh=why.message_zh,
                message_en=why.message_en,
            )
        out.append(entry)
    return out


def _targets_needed(definition: OrderDef) -> bool:
    return definition.target in ("own_slot", "own_unit", "gather", "enemy_slot")


def _choices(state: JSON, side: str, definition: OrderDef, others: list[JSON]) -> JSON:
    n = int(state["settings"]["slots"])
    target = definition.target
    if target == "troops":
        return {"slots": n, "total": state["sides"][side]["total"]}
    if target == "moves":
        slots = state["sides"][side]["slots"] or [0] * n
        return {
            "from": [s for s in range(1, n + 1) if slots[s - 1] > 0],
            "to": list(range(1, n + 1)),
        }
    if target == "order_type":
        enabled = state["settings"]["enabled_orders"]
        return {"order_type": [t for t in SEE_THROUGH_TARGETS if t in enabled]}
    if _targets_needed(definition):
        return {"slot": _slot_choices(state, side, definition, others)}
    return {}
