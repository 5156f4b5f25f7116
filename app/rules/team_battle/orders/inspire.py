"""Inspire (激励, TB-31): once per game, in the command phase; when it stands, its side
passes every morale gate (TB-13) this round."""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.turn import Turn


def at_close(turn: Turn, order: JSON) -> None:
    turn.state["sides"][order["side"]]["inspired_round"] = turn.state["round"]


def inspired(state: JSON, side: str) -> bool:
    """TB-31: Inspire lifts the morale gates for this round's battle-phase orders."""
    return bool(state["sides"][side]["inspired_round"] == state["round"])
