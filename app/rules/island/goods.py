"""Give and equip (IS-36, IS-37)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.island.checks import (
    alive,
    visible_player,
)
from app.rules.island.core import (
    Ctx,
    add_items,
    cell_of,
    director_and,
    remove_items,
    require,
    weapon_for,
)


# --- give and equip (IS-36, IS-37) ------------------------------------------------------
def order_give(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    item = str(body["item"])
    count = int(body.get("count", 1))
    p = alive(ctx, pid)
    to = visible_player(ctx, pid, body.get("to"))
    require(to["id"] != pid, "self_target", "IS-36")
    if ctx.s.give_same_cell_only:
        require(cell_of(to) == cell_of(p), "not_same_cell", "IS-36")
    if item == "food":
        require(int(p["food"]) >= count, "no_food", "IS-36")
        p["food"] -= count
        to["food"] = int(to["food"]) + count
    else:
        require(int(p["inventory"].get(item, 0)) >= count, "no_item", "IS-36")
        uses = remove_items(ctx.s, p, item, count)
        add_items(ctx.s, to, item, count, uses)
    data = {"from": pid, "to": to["id"], "item": item, "count": count}
    ctx.emit("gave", data, *director_and(pid, to["id"]))
    ctx.reply["result"] = data
    return "resolved"


def order_equip(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    p = alive(ctx, pid)
    item = body.get("item")
    if item is None:
        p["equipped"] = None
    else:
        require(int(p["inventory"].get(item, 0)) > 0, "no_item", "IS-37")
        it = ctx.s.items.get(item)
        require(it is not None and it.weapon, "not_weapon", "IS-37")
        p["equipped"] = item
    # IS-37: the answer names the weapon that now counts (null = none), not just the choice.
    ctx.reply["result"] = {
        "equipped": weapon_for(ctx.s, p, use_limited=False),
        "equipped_for_use_weapon": weapon_for(ctx.s, p, use_limited=True),
        "equipped_choice": p["equipped"],
    }
    return "resolved"
