"""Battle-phase orders that move troops or watch (战斗阶段): Gather and Surprise (TB-40,
TB-47) and Spy (TB-52), each one's own checks beside its effects. (Hold, Stand Firm,
First Strike, Encircle, Feigned Defeat and Feint only mark their slot for the round's
resolution, or are shown as another order; Retreat, Pursuit and See Through have modules
of their own.)"""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.gates import check_slots, troops_of
from app.rules.team_battle.messages import violation
from app.rules.team_battle.orders import OrderDef
from app.rules.team_battle.resolve import SideForces
from app.rules.team_battle.turn import Turn


# --- Gather (聚集, TB-40) and Surprise (奇兵, TB-47) --------------------------------------
def check_gather(
    state: JSON, side: str, definition: OrderDef, body: JSON, others: list[JSON]
) -> None:
    """The slot as any slot order's, and each neighbour named holds what is drawn from it."""
    check_slots(state, side, definition, body, others)
    troops = troops_of(state, side)
    slot = body["slot"]
    for key, neighbour in (("from_left", slot - 1), ("from_right", slot + 1)):
        wanted = body.get(key)
        if not wanted:
            continue
        if not 1 <= neighbour <= len(troops):
            raise violation("slot_out_of_range", definition.rule, slots=len(troops), slot=neighbour)
        if wanted > troops[neighbour - 1]:
            raise violation(
                "not_enough_troops",
                definition.rule,
                slot=neighbour,
                have=troops[neighbour - 1],
                want=wanted,
            )


def gather_forces(forces: SideForces, order: JSON) -> None:
    """Neighbours' troops move in at resolution, in the order the side gave them."""
    body = order["body"]
    forces.gathers.append(
        (order["type"], body["slot"] - 1, body.get("from_left"), body.get("from_right"))
    )


# --- Spy (间谍, TB-52) ------------------------------------------------------------------
def spy_at_close(turn: Turn, order: JSON) -> None:
    """Next round its side sees the opponent's hidden orders as they are given."""
    turn.state["sides"][order["side"]]["spy_round"] = turn.state["round"] + 1
