"""Battle-phase orders that move troops or watch (战斗阶段): Gather and Surprise (TB-40,
TB-47), Encircle and Feigned Defeat's doubling (TB-50, TB-48) and Spy (TB-52), each
one's own checks beside its effects. (Hold, Stand Firm and Counter act inside the damage
of a facing pair, ``fight.py``; Feint is shown as a Gather; Retreat, Pursuit, First
Strike and See Through have modules of their own.)"""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.fight import Round
from app.rules.team_battle.forces import SIDE_NAMES, SideForces
from app.rules.team_battle.messages import violation
from app.rules.team_battle.order_types import OrderDef
from app.rules.team_battle.orders.gates import check_slots, troops_of
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


def gather_moves(fight: Round) -> None:
    """TB-40 / TB-47: neighbours' troops move in, in the order the side gave them."""
    n = fight.n
    for s in (0, 1):
        troops = fight.troops[s]
        for order_type, i, from_left, from_right in fight.sides[s].gathers:
            left = right = 0
            if i > 0:
                left = troops[i - 1] if from_left is None else min(from_left, troops[i - 1])
                troops[i - 1] -= left
                troops[i] += left
            if i < n - 1:
                right = troops[i + 1] if from_right is None else min(from_right, troops[i + 1])
                troops[i + 1] -= right
                troops[i] += right
            if fight.log is not None:
                fight.log.append(
                    {
                        "kind": "troops_gathered",
                        "side": SIDE_NAMES[s],
                        "order": order_type,
                        "slot": i + 1,
                        "from_left": left,
                        "from_right": right,
                        "slots": list(troops),
                    }
                )


# --- Encircle (围歼, TB-50) and Feigned Defeat (诈败, TB-48) in resolution -----------------
def judged_troops(fight: Round) -> list[list[int]]:
    """TB-50 Encircle and TB-48 Feigned Defeat doubling (when pursued)."""
    n = fight.n
    judged = [list(fight.troops[0]), list(fight.troops[1])]
    for s in (0, 1):
        troops = fight.troops[s]
        encircle = fight.sides[s].encircle
        if not any(encircle):
            continue
        bonus = [0] * n
        zeroed = [False] * n
        for i in range(n):
            if encircle[i] and troops[i] > 0:
                if i > 0:
                    bonus[i] += troops[i - 1]
                    zeroed[i - 1] = True
                if i < n - 1:
                    bonus[i] += troops[i + 1]
                    zeroed[i + 1] = True
        for i in range(n):
            judged[s][i] = 0 if zeroed[i] and not encircle[i] else judged[s][i] + bonus[i]
    for s in (0, 1):
        o = 1 - s
        for i in range(n):
            if fight.sides[s].feigned_defeat[i] and fight.sides[o].pursuit[i]:
                judged[s][i] *= 2
                fight.reveal(s, "feigned_defeat", i)  # it took effect as itself
    return judged


# --- Spy (间谍, TB-52) ------------------------------------------------------------------
def spy_at_close(turn: Turn, order: JSON) -> None:
    """Next round its side sees the opponent's hidden orders as they are given."""
    turn.state["sides"][order["side"]]["spy_round"] = turn.state["round"] + 1
