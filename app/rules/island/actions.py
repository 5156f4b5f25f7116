"""Player orders by type: immediate actions (IS-10..IS-15, IS-36, IS-37), standing orders
resolved at 24:00 (IS-20..IS-26, IS-33), withdraw and revise (IS-11, IS-23), proxies
(IS-39). Each order's handler is in the module of its family; ``HANDLERS`` lists them.

The shell checks every body against the order model (``schema.py``) before a step runs,
and a replayed step's body passed the same check, so the handlers read a well-formed body
and judge only the rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.rules.island.checks import (
    check_proxy,
    malformed,
)
from app.rules.island.core import (
    JSON,
    Ctx,
    aud_players,
    cell_of,
    director_and,
    max_stamina,
    require,
)
from app.rules.island.foraging import order_eat, order_explore, order_hunt
from app.rules.island.goods import order_equip, order_give
from app.rules.island.messages import violation
from app.rules.island.moving import complete_move, order_move, release_held_moves
from app.rules.island.night_orders import order_assassinate, order_guard, parse_assassination
from app.rules.island.pk import order_flee, order_pk, order_pk_join, resolve_pk

ORDER_TYPES = (
    "move",
    "explore",
    "flee",
    "eat",
    "hunt",
    "pk",
    "pk_join",
    "assassinate",
    "guard",
    "give",
    "equip",
)


HANDLERS: dict[str, Callable[[Ctx, str, Mapping[str, Any], str], str]] = {
    "move": order_move,
    "explore": order_explore,
    "flee": order_flee,
    "eat": order_eat,
    "hunt": order_hunt,
    "pk": order_pk,
    "pk_join": order_pk_join,
    "assassinate": order_assassinate,
    "guard": order_guard,
    "give": order_give,
    "equip": order_equip,
}


def subject_of(ctx: Ctx, actor: str, body: Mapping[str, Any]) -> str:
    """The player an order is for: the actor, or (IS-39) a same-faction player named in
    ``for``. An unknown ``for`` is 404."""
    target = body.get("for")
    if target is None or target == actor:
        return actor
    if target not in ctx.state["players"]:
        raise violation("not_found")
    check_proxy(ctx, actor, target)
    return target


def handle_order(ctx: Ctx, actor: str, payload: Mapping[str, Any]) -> None:
    order_id = payload.get("order_id")
    body: Mapping[str, Any] = payload["order"]
    if not isinstance(order_id, str) or not order_id:
        raise malformed("'order_id' must be a non-empty string")
    kind = str(body["type"])
    require(actor in ctx.state["players"], "not_found")
    subject = subject_of(ctx, actor, body)
    if order_id in ctx.state["orders"]:
        raise malformed("'order_id' already used")
    status = HANDLERS[kind](ctx, subject, body, order_id)
    if subject == actor:
        ctx.player(actor)["last_own_order_day"] = ctx.state["day"]
    if order_id in ctx.state["orders"]:
        ctx.state["orders"][order_id]["by"] = actor
    ctx.order_status[order_id] = status
    ctx.reply["order"] = {"id": order_id, "type": kind, "status": status, "for": subject}


# --- withdraw and revise (IS-11, IS-23, IS-25) ------------------------------------------
def _own_order(ctx: Ctx, actor: str, order_id: Any) -> JSON:
    if not isinstance(order_id, str):
        raise malformed("'order_id' must be a string")
    order = ctx.state["orders"].get(order_id)
    if order is None:
        raise violation("not_found")
    if order["player"] != actor:
        a, s = ctx.player(actor), ctx.player(order["player"])
        if a["faction"] != s["faction"] or order.get("by") != actor:
            raise violation("not_found")
    result: JSON = order
    return result


def handle_withdraw(ctx: Ctx, actor: str, payload: Mapping[str, Any]) -> None:
    order = _own_order(ctx, actor, payload.get("order_id"))
    p = ctx.player(order["player"])
    kind, status = order["type"], order["status"]
    refund = 0
    if kind in ("assassinate", "guard") and status == "pending":
        # IS-23: an assassination is refunded only if its target moved before 24:00;
        # a guard as the game's setting says (IS-25).
        if kind == "assassinate":
            refunded = bool(order["target_moved"])
        else:
            refunded = ctx.s.refund_withdrawn_guard
        if refunded:
            refund = int(order["paid"])
            if order.get("debt"):  # IS-33: the once-per-game debt is given back too
                p["debt"] = max(0, int(p["debt"]) - int(order["debt"]))
                p["debt_used"][kind] = False
    elif kind == "move" and status == "held":
        refund = int(order["paid"]) if ctx.s.refund_cancelled_held_move else 0
    else:
        raise violation("cannot_withdraw", "IS-23" if kind == "assassinate" else None)
    p["stamina"] = min(max_stamina(p), int(p["stamina"]) + refund) if refund else p["stamina"]
    order["status"] = "withdrawn"
    ctx.order_status[order["id"]] = "withdrawn"
    ctx.emit(
        "order_withdrawn",
        {"order_id": order["id"], "type": kind, "refund": refund},
        *director_and(order["player"], actor),
    )
    ctx.reply["result"] = {"withdrawn": order["id"], "refund": refund}


def handle_revise(ctx: Ctx, actor: str, payload: Mapping[str, Any]) -> None:
    order = _own_order(ctx, actor, payload.get("order_id"))
    body = payload["order"]
    # IS-23: only an assassination whose target moved may be changed.
    require(
        order["type"] == "assassinate" and order["status"] == "pending", "cannot_change", "IS-23"
    )
    require(bool(order["target_moved"]), "cannot_change", "IS-23")
    if body.get("type", "assassinate") != "assassinate":
        raise malformed("a revised assassination stays an assassination")
    spec = parse_assassination(
        ctx, order["player"], {k: v for k, v in body.items() if k not in ("type", "for")}
    )
    order.update(spec)
    order["target_moved"] = False
    order["origin"] = list(cell_of(ctx.player(order["player"])))
    ctx.order_status[order["id"]] = "pending"
    ctx.emit(
        "order_revised", {"order_id": order["id"], **spec}, *director_and(order["player"], actor)
    )
    ctx.reply["result"] = {"revised": order["id"], **spec}


__all__ = [
    "ORDER_TYPES",
    "aud_players",
    "handle_order",
    "handle_withdraw",
    "handle_revise",
    "resolve_pk",
    "complete_move",
    "release_held_moves",
]
