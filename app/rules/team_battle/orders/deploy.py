"""Deploy (部署, TB-10): each side's troops over its slots; the latest one counts, and a
side that gives none is deployed evenly (or forfeits, by setting)."""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.messages import violation
from app.rules.team_battle.order_types import OrderDef


def check(state: JSON, side: str, definition: OrderDef, body: JSON, others: list[JSON]) -> None:
    """TB-10: every slot at least 1 troop, integers, summing to the side's total."""
    troops = body["troops"]
    slots = state["settings"]["slots"]
    total = state["sides"][side]["total"]
    if len(troops) != slots:
        raise violation(
            "bad_deployment",
            "TB-10",
            detail_zh=f"需要为全部{slots}个格子部署兵力，收到{len(troops)}个。",
            detail_en=f"Deploy all {slots} slots; got {len(troops)}.",
        )
    if min(troops) < 1:
        raise violation(
            "bad_deployment",
            "TB-10",
            detail_zh="每一格必须至少部署1兵力。",
            detail_en="Every slot must hold at least 1 troop.",
        )
    if sum(troops) != total:
        raise violation(
            "bad_deployment",
            "TB-10",
            detail_zh=f"兵力合计必须为{total}，收到{sum(troops)}。",
            detail_en=f"Troops must add up to {total}; got {sum(troops)}.",
        )


def even_deployment(total: int, slots: int) -> list[int]:
    """Missing-deployment default: as even as possible, left slots take the remainder."""
    base, extra = divmod(total, slots)
    return [base + (1 if i < extra else 0) for i in range(slots)]
