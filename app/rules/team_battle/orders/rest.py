"""Rest (休整, TB-33) and Battle Rest (战斗休整, TB-44): not two rounds running (TB-14);
when one stands, its side has one more order of that phase next round."""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.turn import Turn, own


def _extra_use(turn: Turn, order: JSON, phase: str) -> None:
    """One more order of ``phase`` next round, told to the side alone until the end."""
    turn.state["sides"][order["side"]]["next_extra_uses"][phase] += 1
    turn.emit(
        "extra_use_granted",
        {"side": order["side"], "phase": phase, "round": turn.state["round"] + 1},
        own(order["side"]),
        reveal_at="end",
    )


def rest_at_close(turn: Turn, order: JSON) -> None:
    _extra_use(turn, order, "command")


def battle_rest_at_close(turn: Turn, order: JSON) -> None:
    _extra_use(turn, order, "battle")
