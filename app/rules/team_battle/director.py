"""The director's tools in Team Battle: close the phase, set a side's commander (TB-1),
morale or troops — each one's check beside its effect."""

from __future__ import annotations

from typing import Any

from app.rules.base import JSON, RuleViolation
from app.rules.team_battle.messages import violation
from app.rules.team_battle.phases import close_phase
from app.rules.team_battle.state import MORALE_UNIT, SIDES, morale_number
from app.rules.team_battle.turn import OPEN_PHASES, Turn, own

DIRECTOR_ACTIONS = ("close_phase", "set_commander", "set_morale", "set_troops")


def _bad(zh: str, en: str) -> RuleViolation:
    return violation("bad_action", None, status=422, detail_zh=zh, detail_en=en)


def check_director(state: JSON, payload: Any) -> None:
    action = payload.get("action")
    if action not in DIRECTOR_ACTIONS:
        raise violation("unknown_action", None, status=422, action=action)
    if action == "close_phase":
        if state["phase"] not in OPEN_PHASES:
            raise violation(
                "wrong_phase",
                None,
                need="进行中的阶段",
                need_en="an open phase",
                now=state["phase"],
                now_en=state["phase"],
                order="关闭阶段",
                order_en="Closing a phase",
            )
        return
    side = payload.get("side")
    if side not in SIDES:
        raise violation("bad_side", "TB-1", status=422)
    if action == "set_commander":
        player_id = payload.get("player_id")
        if player_id is None:
            return
        if not any(p["id"] == player_id and p["side"] == side for p in state["roster"]):
            raise violation("unknown_player", "TB-1", status=422)
    elif action == "set_morale":
        morale = payload.get("morale")
        if isinstance(morale, bool) or not isinstance(morale, int | float):
            raise _bad("morale 必须是数字。", "'morale' must be a number.")
        if abs(morale * MORALE_UNIT - round(morale * MORALE_UNIT)) > 1e-9:
            raise _bad("士气最多保留一位小数。", "Morale has at most one decimal place.")
    elif action == "set_troops":
        if state["sides"][side]["slots"] is None:
            raise _bad(
                "部署公开之前不能修改兵力。", "Troops can be set once deployments are revealed."
            )
        slot, troops = payload.get("slot"), payload.get("troops")
        if not isinstance(slot, int) or isinstance(slot, bool):
            raise _bad("slot 必须是整数。", "'slot' must be an integer.")
        if not 1 <= slot <= state["settings"]["slots"]:
            raise violation(
                "slot_out_of_range",
                "TB-2",
                status=422,
                slots=state["settings"]["slots"],
                slot=slot,
            )
        if not isinstance(troops, int) or isinstance(troops, bool) or troops < 0:
            raise _bad("troops 必须是非负整数。", "'troops' must be an integer ≥ 0.")


def apply_director(turn: Turn, payload: Any) -> None:
    state = turn.state
    action = payload["action"]
    if action == "close_phase":
        turn.emit("director_closed_phase", {"round": state["round"], "phase": state["phase"]})
        close_phase(turn)
        return
    side = payload["side"]
    mine = state["sides"][side]
    if action == "set_commander":
        state["commanders"][side] = payload.get("player_id")
        turn.emit("commander_set", {"side": side, "player_id": payload.get("player_id")}, own(side))
    elif action == "set_morale":
        before = mine["morale"]
        mine["morale"] = int(round(payload["morale"] * MORALE_UNIT))
        turn.emit(
            "director_set_morale",
            {"side": side, "before": morale_number(before), "after": morale_number(mine["morale"])},
        )
    elif action == "set_troops":
        slot = payload["slot"]
        before = mine["slots"][slot - 1]
        mine["slots"][slot - 1] = payload["troops"]
        turn.emit(
            "director_set_troops",
            {
                "side": side,
                "slot": slot,
                "before": before,
                "after": payload["troops"],
                "slots": list(mine["slots"]),
            },
        )
