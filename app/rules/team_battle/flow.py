"""How a Team Battle game moves on: a phase opens with its deadline (TB-5, TB-5a), and the
game finishes with its winner and everything revealed (TB-60, TB-6)."""

from __future__ import annotations

from datetime import timedelta

from app.rules.base import JSON, TimerSpec, copy_json
from app.rules.team_battle.state import SIDES, morale_number
from app.rules.team_battle.turn import PHASE_TIMER, Turn


def entitled(response: JSON) -> bool:
    """Whether a side may give anything in the response window (TB-5a)."""
    return bool(response["pursuit"] or response["retreat_slots"])


def open_phase(turn: Turn, phase: str) -> None:
    state = turn.state
    state["phase"] = phase
    state["opened_at"] = turn.now.isoformat()
    for side in SIDES:
        may_act = phase != "response" or entitled(state["response"][side])
        state["sides"][side]["ready"] = not may_act
    seconds = state["settings"][f"{phase}_seconds"]
    data = {"round": state["round"], "phase": phase}
    if seconds is None:
        turn.cancel_timers.append(PHASE_TIMER)
    else:
        turn.timers.append(
            TimerSpec(
                kind="phase",
                key="phase",
                due_at=turn.now + timedelta(seconds=seconds),
                data=data,
            )
        )
    opened: JSON = dict(data)
    if phase == "response":
        opened["entitled"] = copy_json(state["response"])
    turn.emit("phase_opened", opened)


def finish(turn: Turn, winner: str, reason: str) -> None:
    """TB-60 and TB-6: the winner, and everything revealed."""
    state = turn.state
    state["phase"] = "finished"
    state["winner"] = winner
    state["finish_reason"] = reason
    state["response"] = None
    for side in SIDES:
        state["sides"][side]["ready"] = False
    turn.cancel_timers.append(PHASE_TIMER)
    turn.finished = True
    turn.emit(
        "game_over",
        {
            "winner": winner,
            "reason": reason,
            "round": state["round"],
            "morale": {s: morale_number(state["sides"][s]["morale"]) for s in SIDES},
            "troops": {s: sum(state["sides"][s]["slots"] or [0]) for s in SIDES},
        },
    )
    turn.emit(
        "orders_revealed",
        {
            "orders": [
                {
                    "id": o["id"],
                    "side": o["side"],
                    "round": o["round"],
                    "phase": o["phase"],
                    "type": o["type"],
                    "body": o["body"],
                    "status": o["status"],
                }
                for o in state["orders"]
                if o["status"] not in ("withdrawn", "replaced")
            ]
        },
    )
