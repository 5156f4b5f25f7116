"""How Team Battle's posts name a phase, an order with its target, a round and a phase."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from app.kit.formats import plain
from app.kit.post_parts import Ctx, order_name
from app.rules.team_battle.order_types import ORDERS

SIDES = ("A", "B")


def phase_name(ctx: Ctx, phase: str) -> str:
    """A phase as a sentence names it (``post.phase.<phase>``), else its raw name."""
    key = f"post.phase.{phase}"
    return ctx.phrase(key) if ctx.has(key) else phase


def post_order(ctx: Ctx, order_type: str) -> str:
    """An order's name as the pages and the order grammar say it (调兵, not 调度)."""
    key = f"post.order.{order_type}"
    return ctx.phrase(key) if ctx.has(key) else order_name(ctx, order_type)


def signed(value: Any) -> str:
    """A number with a true minus sign (−8), as every count and morale in a post is shown."""
    if isinstance(value, (int, float)) and value < 0:
        return "−" + plain(-value)
    return plain(value)


def order_text(ctx: Ctx, order_type: str, body: dict[str, Any]) -> Markup:
    """An order in the grammar's words: 调兵 3号位→2号位 4人, 反击 2号位…"""
    name = post_order(ctx, order_type)
    target = ORDERS[order_type].target if order_type in ORDERS else "none"
    if target == "troops":
        return Markup(f"{name} ") + ctx.fmt.esc(" / ".join(str(n) for n in body.get("troops", [])))
    if target == "moves":
        moves = [
            ctx.t("post.move", src=m["from"], dst=m["to"], n=m["troops"]) for m in body["moves"]
        ]
        return ctx.fmt.esc(name) + Markup(" ") + ctx.join(moves)
    if target == "gather":
        all_ = ctx.phrase("post.all")
        unit = "" if ctx.lang == "en" else "人"
        left = body.get("from_left")
        right = body.get("from_right")
        return ctx.t(
            "post.gather_order",
            order=name,
            slot=body["slot"],
            left=all_ if left is None else f"{left}{unit}",
            right=all_ if right is None else f"{right}{unit}",
        )
    if target == "enemy_slot":
        return ctx.t("post.scout_order", order=name, slot=body["slot"])
    if target in ("own_slot", "own_unit"):
        return ctx.t("post.slot_order", order=name, slot=body["slot"])
    if target == "order_type":
        return ctx.t("post.see_order", order=name, target=post_order(ctx, body["order_type"]))
    return ctx.fmt.esc(name)


def title_phase(ctx: Ctx, round_no: int, phase: str) -> str:
    if phase == "deployment":
        return phase_name(ctx, phase)
    if ctx.lang == "en":
        return f"Round {round_no} · {phase_name(ctx, phase)}"
    return f"第{round_no}回合·{phase_name(ctx, phase)}"


def round_phase(ctx: Ctx, round_no: int, phase: str) -> str:
    """When an order was given, in a sentence: 部署阶段, 第1回合·统御阶段."""
    if phase == "deployment" or not round_no:
        key = f"phase.{phase}"  # on a line of its own: the pages' name (Deployment)
        return ctx.phrase(key) if ctx.has(key) else phase_name(ctx, phase)
    return ctx.raw("post.orders.at", round=round_no, phase=phase_name(ctx, phase))
