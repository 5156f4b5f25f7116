"""Standing orders resolved at 24:00: assassinate and guard (IS-20..IS-26, IS-33)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.island.checks import (
    alive,
    pay_with_debt,
    visible_player,
)
from app.rules.island.core import (
    JSON,
    Ctx,
    cell_of,
    director_and,
    inside,
    neighbour,
    require,
    sees,
)
from app.rules.island.messages import violation


# --- assassinate and guard (IS-20..IS-26, IS-33) -------------------------------------
def parse_assassination(ctx: Ctx, pid: str, body: Mapping[str, Any]) -> JSON:
    target = str(body["target"])
    path = [str(d) for d in body.get("path") or []]
    follow = bool(body.get("follow", False))
    use_limited = bool(body.get("use_weapon", False))
    p = alive(ctx, pid)
    require(target != pid, "self_target", "IS-20")
    end = cell_of(p)
    for d in path:
        end = neighbour(end, d)
        require(inside(ctx.s, end), "off_map", "IS-22")
    if follow:
        visible_player(ctx, pid, target)  # IS-24 follows someone the assassin sees
    elif _seen(ctx, pid, target) or sees(ctx.s, p, end):
        # IS-22: "assassinate X" is X in your cell; "move + assassinate" X in the end cell.
        # Only what the assassin sees is checked: a target in sight elsewhere, or an end
        # cell in sight without the target, is refused.
        tp = visible_player(ctx, pid, target)
        require(cell_of(tp) == end, "not_same_cell", "IS-22")
    else:
        # IS-22 / IS-55: the end cell is out of sight (at vision 0, any move), so the order
        # is taken whether or not X is there — the answer must not tell — and 24:00
        # decides: a miss if X is not in that cell then. Only a target the public knows
        # to be dead, or no player at all, is refused.
        _known_living(ctx, target)
    return {"target": target, "path": path, "follow": follow, "use_weapon": use_limited}


def _seen(ctx: Ctx, viewer_id: str, target_id: str) -> bool:
    t = ctx.state["players"].get(target_id)
    return bool(t and t["alive"] and sees(ctx.s, ctx.player(viewer_id), cell_of(t)))


def _known_living(ctx: Ctx, target_id: str) -> None:
    """A roster player whose death has not been announced (IS-40); 404 otherwise."""
    if target_id not in ctx.state["players"]:
        raise violation("not_found")
    announced = {d["player"] for d in ctx.state["deaths"] if d["announced"]}
    if target_id in announced:
        raise violation("not_found")


def order_assassinate(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    spec = parse_assassination(ctx, pid, body)
    p = ctx.player(pid)
    for o in ctx.state["orders"].values():
        if (
            o["type"] == "assassinate"
            and o["status"] == "pending"
            and o["player"] == pid
            and o["target"] == spec["target"]
        ):
            raise violation("duplicate_order", "IS-20")
    shortfall = pay_with_debt(p, ctx.s.assassinate_cost, "assassinate", "IS-33")
    ctx.state["orders"][order_id] = {
        "id": order_id,
        "type": "assassinate",
        "player": pid,
        "status": "pending",
        "seq": ctx.next_id(""),
        "day": ctx.state["day"],
        "origin": list(cell_of(p)),
        "target_moved": False,
        "paid": ctx.s.assassinate_cost - shortfall,
        "debt": shortfall,
        **spec,
    }
    ctx.emit(
        "order_posted",
        {"order_id": order_id, "type": "assassinate", **spec, "debt": shortfall},
        *director_and(pid),
    )
    ctx.reply["result"] = {"pending": True, "debt": shortfall}
    return "pending"


def order_guard(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    target = str(body["target"])
    p = alive(ctx, pid)
    require(target != pid, "self_target", "IS-25")
    # Guarding names a suspect who need not be in sight; only the roster is checked.
    if target not in ctx.state["players"]:
        raise violation("not_found")
    for o in ctx.state["orders"].values():
        if (
            o["type"] == "guard"
            and o["status"] == "pending"
            and o["player"] == pid
            and o["target"] == target
        ):
            raise violation("duplicate_order", "IS-25")
    shortfall = pay_with_debt(p, ctx.s.guard_cost, "guard", "IS-33")
    ctx.state["orders"][order_id] = {
        "id": order_id,
        "type": "guard",
        "player": pid,
        "status": "pending",
        "seq": ctx.next_id(""),
        "day": ctx.state["day"],
        "target": target,
        "paid": ctx.s.guard_cost - shortfall,
        "debt": shortfall,
    }
    ctx.emit(
        "order_posted",
        {"order_id": order_id, "type": "guard", "target": target, "debt": shortfall},
        *director_and(pid),
    )
    ctx.reply["result"] = {"pending": True, "debt": shortfall}
    return "pending"
