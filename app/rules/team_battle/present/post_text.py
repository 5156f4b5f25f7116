"""How Team Battle's posts name a phase, an order with its target, a round and a phase."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx, order_name
from app.rules.team_battle.order_types import ORDERS

SIDES = ("A", "B")


def phase_name(ctx: Ctx, phase: str) -> str:
    """A phase as a sentence names it (``post.phase.<phase>``), else its raw name."""
    key = f"post.phase.{phase}"
    return ctx.phrase(key) if ctx.has(key) else phase


def order_text(ctx: Ctx, order_type: str, body: dict[str, Any]) -> Markup:
    """An order with what it names: 调度（第3格→第2格 4人）, 反击（第2格）…"""
    name = order_name(ctx, order_type)
    target = ORDERS[order_type].target if order_type in ORDERS else "none"
    if target == "troops":
        return Markup(f"{name} ") + ctx.fmt.esc(" / ".join(str(n) for n in body.get("troops", [])))
    if target == "moves":
        moves = [
            ctx.t("post.move", src=m["from"], dst=m["to"], n=m["troops"]) for m in body["moves"]
        ]
        return ctx.fmt.esc(name) + Markup(" ") + ctx.join(moves)
    if target == "gather":
        all_ = ctx.t("post.all")
        left = body.get("from_left")
        right = body.get("from_right")
        return ctx.t(
            "post.gather_order",
            order=name,
            slot=body["slot"],
            left=all_ if left is None else left,
            right=all_ if right is None else right,
        )
    if target == "enemy_slot":
        return ctx.t("post.scout_order", order=name, slot=body["slot"])
    if target in ("own_slot", "own_unit"):
        return ctx.t("post.slot_order", order=name, slot=body["slot"])
    if target == "order_type":
        return ctx.t("post.see_order", order=name, target=order_name(ctx, body["order_type"]))
    return ctx.fmt.esc(name)


def title_phase(ctx: Ctx, round_no: int, phase: str) -> str:
    if phase == "deployment":
        return phase_name(ctx, phase)
    if ctx.lang == "en":
        return f"Round {round_no} · {phase_name(ctx, phase)}"
    return f"第{round_no}回合·{phase_name(ctx, phase)}"
