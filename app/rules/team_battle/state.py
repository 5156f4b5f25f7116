"""Small helpers over the JSON state shared by validation, the engine and the view.

Morale is stored exactly as an integer number of tenths (``MORALE_UNIT``): every morale
quantity of the rules is a multiple of 1/10 when troop totals are integers — max morale
is total/2, an annihilation is worth max/5 = total/10, and Hold halves an integer
penetration (TB-4, TB-27, TB-53). Views render it as an int when whole, else a float.
"""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.order_types import ORDERS

MORALE_UNIT = 10  # morale is stored in tenths
SIDES = ("A", "B")


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def morale_number(tenths: int) -> int | float:
    """Morale for display: 125 tenths -> 12.5, 150 tenths -> 15."""
    if tenths % MORALE_UNIT == 0:
        return tenths // MORALE_UNIT
    return tenths / MORALE_UNIT


def round_orders(
    state: JSON,
    side: str | None = None,
    phase: str | None = None,
    statuses: tuple[str, ...] = ("pending",),
    round_no: int | None = None,
) -> list[JSON]:
    """Orders of one round (the current one by default) in submission order."""
    wanted_round = state["round"] if round_no is None else round_no
    found: list[JSON] = []
    for order in state["orders"]:
        if order["round"] != wanted_round:
            continue
        if side is not None and order["side"] != side:
            continue
        if phase is not None and order["phase"] != phase:
            continue
        if statuses and order["status"] not in statuses:
            continue
        found.append(order)
    return found


def find_order(state: JSON, order_id: str) -> JSON | None:
    for order in state["orders"]:
        if order["id"] == order_id:
            return order
    return None


def order_uses(state: JSON, side: str, phase: str) -> int:
    """TB-11: one use per phase, plus any granted by Rest / Battle Rest (TB-33, TB-44)."""
    key = "command" if phase == "command" else "battle"
    return 1 + int(state["sides"][side]["extra_uses"][key])


def spent_uses(state: JSON, side: str, orders: list[JSON]) -> int:
    """TB-11 / TB-12: the phase's uses taken by ``orders`` (the side's orders of the current
    phase), "costs two" orders twice. In the response window the battle phase's standing
    orders count too, as Pursuit and the extra Retreat spend battle uses — the extra
    Retreat (TB-41) only when the setting ``extra_retreat_free`` is off."""
    free = state["settings"]["extra_retreat_free"]
    spent = 0
    for order in orders:
        if free and order["type"] == "retreat" and order["phase"] == "response":
            continue
        spent += ORDERS[order["type"]].cost
    if state["phase"] == "response":
        for order in round_orders(state, side, "battle", ("resolved", "nullified")):
            spent += ORDERS[order["type"]].cost
    return spent


def spy_active(state: JSON, side: str) -> bool:
    """TB-52: a Spy that stood last round shows this round's opposing hidden orders."""
    return bool(state["sides"][side]["spy_round"] == state["round"])


def scouted_slots(state: JSON, side: str) -> list[int]:
    """TB-35: the opponent's slots this side has scouted this round."""
    slots: list[int] = []
    for order in round_orders(state, side, "command", ("pending", "resolved")):
        if order["type"] == "scout" and order["body"]["slot"] not in slots:
            slots.append(order["body"]["slot"])
    return slots


def blood_battle_slots(state: JSON, side: str) -> list[int]:
    """TB-34: own slots in Blood Battle this round (standing or still pending)."""
    return [
        order["body"]["slot"]
        for order in round_orders(state, side, "command", ("pending", "resolved"))
        if order["type"] == "blood_battle"
    ]


def announced(state: JSON, side: str, shown: str) -> list[JSON]:
    """Announced, not seen-through orders of ``side`` this round by their public face."""
    return [
        o
        for o in round_orders(state, side, None, ("resolved",))
        if o.get("announced") and o.get("shown_type") == shown
    ]
