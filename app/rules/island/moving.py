"""Moves (IS-10, IS-11, IS-50): a move and who sees it, the encounter on arrival, held
moves into busy cells, and the assassin told when a target moves (IS-23)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.island.checks import (
    alive,
    need_stamina,
    not_in_pk,
)
from app.rules.island.core import (
    JSON,
    Cell,
    Ctx,
    aud_players,
    cell_busy,
    cell_of,
    director_and,
    inside,
    neighbour,
    require,
    terrain_id,
    watchers,
)
from app.rules.island.messages import text
from app.rules.island.monsters import (
    resident_monsters_at,
    roll_encounter,
)


# --- moves (IS-10, IS-11, IS-50) -----------------------------------------------------
def notify_target_moved(ctx: Ctx, pid: str) -> None:
    """IS-23: when a target moves before 24:00 the assassin is told (privately)."""
    for oid, order in ctx.state["orders"].items():
        if (
            order["type"] == "assassinate"
            and order["status"] == "pending"
            and order["target"] == pid
        ):
            order["target_moved"] = True
            ctx.emit(
                "target_moved",
                {"order_id": oid, "target": pid, **text("target_moved")},
                *director_and(order["player"]),
            )


def complete_move(ctx: Ctx, pid: str, dest: Cell, *, hidden: bool, via: str) -> JSON:
    """Put ``pid`` on ``dest``: announce it to whoever sees either cell unless hidden, roll
    the encounter (IS-50) and show the resident monsters there (IS-51)."""
    p = ctx.player(pid)
    origin = cell_of(p)
    # Who sees which end is judged before the move, so the mover's own vision is theirs.
    saw_origin = [] if hidden else watchers(ctx, origin)
    p["at"] = [dest[0], dest[1]]
    notify_target_moved(ctx, pid)
    sees_dest = [] if hidden else watchers(ctx, dest)
    data = {
        "player": pid,
        "name": p["name"],
        "from": list(origin),
        "to": list(dest),
        "hidden": hidden,
        "via": via,
    }
    if ctx.s.move_shows_both_cells:
        full = [pid, *saw_origin, *sees_dest]
    else:
        # IS-55: a watcher learns what happens in the cells they see — the player leaving
        # one, or arriving in the other — not where a cell out of sight lies.
        full = [pid, *(x for x in saw_origin if x in sees_dest)]
        origin_only = [x for x in saw_origin if x not in full]
        dest_only = [x for x in sees_dest if x not in full]
        if origin_only:
            ctx.emit("moved", {**data, "to": None}, *aud_players(*origin_only))
        if dest_only:
            ctx.emit("moved", {**data, "from": None}, *aud_players(*dest_only))
    ctx.emit("moved", data, *director_and(*full))
    result: JSON = {"to": list(dest), "terrain": terrain_id(ctx.s, dest)}
    encounter = roll_encounter(ctx, pid, dest)
    if encounter is not None:
        result["encounter"] = encounter
        ctx.emit("encounter", {"player": pid, **encounter}, *director_and(pid))
    result["monsters"] = resident_monsters_at(ctx, dest)
    return result


def release_held_moves(ctx: Ctx, dest: Cell) -> None:
    """IS-11: held moves into ``dest`` complete, in the order posted, once it is free."""
    held = sorted(
        (o for o in ctx.state["orders"].values() if o["type"] == "move" and o["status"] == "held"),
        key=lambda o: o["seq"],
    )
    for order in held:
        if cell_busy(ctx.state, dest):
            return
        if tuple(order["dest"]) != dest:
            continue
        p = ctx.player(order["player"])
        order["status"] = "resolved"
        ctx.order_status[order["id"]] = "resolved"
        if not p["alive"]:
            continue
        if cell_of(p) != tuple(order["origin"]):
            order["status"] = "void"
            ctx.order_status[order["id"]] = "void"
            p["stamina"] = int(p["stamina"]) + int(order["paid"])
            continue
        result = complete_move(ctx, order["player"], dest, hidden=bool(order["hidden"]), via="held")
        ctx.emit(
            "held_move_done",
            {"order_id": order["id"], **result, **text("held_move_done")},
            *director_and(order["player"]),
        )


def order_move(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    direction = str(body["direction"])
    hidden = bool(body.get("hidden", False))
    p = alive(ctx, pid)
    not_in_pk(ctx, pid, "IS-11")
    dest = neighbour(cell_of(p), direction)
    require(inside(ctx.s, dest), "off_map", "IS-10")
    need_stamina(p, ctx.s.move_cost, "IS-10")
    p["stamina"] -= ctx.s.move_cost
    if ctx.s.hold_moves_into_busy_cells and cell_busy(ctx.state, dest):
        ctx.state["orders"][order_id] = {
            "id": order_id,
            "type": "move",
            "player": pid,
            "status": "held",
            "seq": ctx.next_id(""),
            "day": ctx.state["day"],
            "origin": list(cell_of(p)),
            "dest": list(dest),
            "hidden": hidden,
            "paid": ctx.s.move_cost,
        }
        ctx.reply["result"] = {"held": True, **text("held_move")}
        return "held"
    ctx.reply["result"] = complete_move(ctx, pid, dest, hidden=hidden, via="move")
    return "resolved"
