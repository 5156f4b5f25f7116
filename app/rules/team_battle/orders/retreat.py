"""Retreat (撤退, TB-42): its unit deals and takes no damage this round. In the response
window (TB-41) a side may give an extra Retreat to a unit facing an announced Gather (or a
Feint shown as one), outside the order count and the morale gate unless the setting
``extra_retreat_free`` says otherwise."""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.messages import violation
from app.rules.team_battle.order_types import OrderDef
from app.rules.team_battle.orders.gates import check_phase, check_slots
from app.rules.team_battle.state import announced, other


def is_extra_retreat(state: JSON, definition: OrderDef) -> bool:
    return state["phase"] == "response" and definition.type == "retreat"


def extra_retreat_slots(state: JSON, side: str) -> list[int]:
    """TB-41: own slots facing an announced Gather (or a Feint shown as Gather)."""
    slots: list[int] = []
    for order in announced(state, other(side), "gather"):
        if order["body"]["slot"] not in slots:
            slots.append(order["body"]["slot"])
    return slots


def free_extra_retreat_slots(state: JSON, side: str, others: list[JSON]) -> list[int]:
    """TB-41: own slots facing an announced Gather that have no extra Retreat yet."""
    taken = {o["body"]["slot"] for o in others if o["type"] == "retreat"}
    return [s for s in extra_retreat_slots(state, side) if s not in taken]


def when(state: JSON, side: str, definition: OrderDef, others: list[JSON]) -> None:
    if not is_extra_retreat(state, definition):
        check_phase(state, side, definition, others)
    elif not free_extra_retreat_slots(state, side, others):
        raise violation("retreat_not_allowed", "TB-41")


def check(state: JSON, side: str, definition: OrderDef, body: JSON, others: list[JSON]) -> None:
    if is_extra_retreat(state, definition):
        slot = body["slot"]
        taken = [o["body"]["slot"] for o in others if o["type"] == "retreat"]
        if slot not in extra_retreat_slots(state, side) or slot in taken:
            raise violation("retreat_not_allowed", "TB-41")
    check_slots(state, side, definition, body, others)
