"""Pursuit (追杀, TB-45): a response, given only in the response window, by a side that
gave no battle-phase order this round, against an announced Retreat (or a Feigned Defeat
shown as one); its unit deals double damage to the retreating unit."""

from __future__ import annotations

from app.rules.base import JSON, RuleViolation
from app.rules.team_battle.messages import violation
from app.rules.team_battle.order_types import OrderDef
from app.rules.team_battle.orders.gates import check_slots
from app.rules.team_battle.state import announced, other, round_orders


def pursuit_targets(state: JSON, side: str) -> list[int]:
    """TB-45: slots where the opponent announced a Retreat (or what is shown as one)."""
    return sorted({o["body"]["slot"] for o in announced(state, other(side), "retreat")})


def announced_battle_orders(state: JSON, side: str) -> bool:
    return any(
        o.get("announced") and o["phase"] == "battle"
        for o in round_orders(state, side, "battle", ("resolved", "nullified"))
    )


def when(state: JSON, side: str, definition: OrderDef, others: list[JSON]) -> None:
    if state["phase"] != "response":
        raise _refuse(
            "追杀只能在战斗阶段指令公开后的响应阶段，回应对方的撤退时使用。",
            "Pursuit is only given in the response window, answering an announced Retreat.",
        )
    if round_orders(state, side, "battle", ("resolved", "void", "nullified")):
        raise _refuse(
            "己方本回合已提交战斗阶段指令。",
            "Your side gave a battle-phase order this round.",
        )
    if not pursuit_targets(state, side):
        raise _refuse("对方本回合没有公开的撤退可以追杀。", "The opponent announced no Retreat.")


def check(state: JSON, side: str, definition: OrderDef, body: JSON, others: list[JSON]) -> None:
    targets = pursuit_targets(state, side)
    if state["settings"]["pursuit_must_face_retreat"] and body["slot"] not in targets:
        raise _refuse(
            f"第{body['slot']}格对面没有公开的撤退。",
            f"No announced Retreat faces slot {body['slot']}.",
        )
    check_slots(state, side, definition, body, others)


def _refuse(zh: str, en: str) -> RuleViolation:
    return violation("pursuit_not_allowed", "TB-45", detail_zh=zh, detail_en=en)
