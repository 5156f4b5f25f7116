"""Dispatch (调度, TB-30) and Scout (侦察, TB-35), command-phase orders: each one's own
checks beside its effects. (Counter and Blood Battle only mark their slot for the round's
resolution; Inspire and Rest have modules of their own.)"""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.intel import emit_intel, intel_source
from app.rules.team_battle.messages import violation
from app.rules.team_battle.order_types import OrderDef
from app.rules.team_battle.orders.gates import check_slot, troops_of
from app.rules.team_battle.state import other, round_orders
from app.rules.team_battle.turn import Turn


# --- Dispatch (调度, TB-30) -----------------------------------------------------------
def check_dispatch(
    state: JSON, side: str, definition: OrderDef, body: JSON, others: list[JSON]
) -> None:
    """TB-30: at most two units, each to an adjacent slot, all moves simultaneous: each
    source gives only troops it held before the phase's moves (footnote [1])."""
    moves: list[JSON] = body["moves"]
    troops = troops_of(state, side)
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
        check_slot(state, move["from"])
        check_slot(state, move["to"])
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


def settle_dispatches(turn: Turn, standing: list[JSON]) -> None:
    """TB-30: all of a side's moves are simultaneous, from pre-move troops."""
    state = turn.state
    moves: dict[str, list[JSON]] = {"A": [], "B": []}
    for order in standing:
        if order["type"] == "dispatch" and order["status"] == "resolved":
            moves[order["side"]].extend(order["body"]["moves"])
    for side in ("A", "B"):
        if moves[side]:
            slots = state["sides"][side]["slots"]
            after = list(slots)
            for move in moves[side]:
                after[move["from"] - 1] -= move["troops"]
                after[move["to"] - 1] += move["troops"]
            state["sides"][side]["slots"] = after
            turn.emit(
                "troops_dispatched",
                {"side": side, "moves": moves[side], "before": list(slots), "after": list(after)},
            )


# --- Scout (侦察, TB-35) ----------------------------------------------------------------
def scout_on_submit(turn: Turn, order: JSON) -> None:
    """TB-35: the opponent's orders that already name the slot are shown at once."""
    side = order["side"]
    for existing in round_orders(turn.state, other(side), None, ("pending", "resolved")):
        if intel_source(turn.state, existing, side) == "scout":
            emit_intel(turn, existing, side, "scout")
