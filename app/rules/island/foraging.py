"""Explore (IS-12), eat (IS-35) and hunt (IS-14)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.island.checks import (
    alive,
    check_proxy,
    malformed,
    need_stamina,
    not_in_pk,
    visible_player,
)
from app.rules.island.core import (
    JSON,
    Ctx,
    add_items,
    cell_of,
    director_and,
    require,
    spend_weapon_use,
    strength,
    terrain_id,
    watchers,
)
from app.rules.island.messages import violation
from app.rules.island.monsters import (
    apply_loss,
    meet_random_monster,
    random_monster,
)
from app.rules.island.tables import pk_outcomes, sample, weighted_choice


# --- explore (IS-12) -------------------------------------------------------------------
def order_explore(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    p = alive(ctx, pid)
    not_in_pk(ctx, pid, "IS-12")
    need_stamina(p, ctx.s.explore_cost, "IS-12")
    p["stamina"] -= ctx.s.explore_cost
    here = cell_of(p)
    table = None
    for cell in ctx.s.cells:
        if cell.at == here and cell.explore_table is not None:
            table = cell.explore_table
    if table is None:
        table = ctx.s.terrains[terrain_id(ctx.s, here)].explore_table
    line = table[weighted_choice([o.weight for o in table], ctx.rng)]
    result: JSON = {"found": line.kind}
    if line.kind == "item" and line.item is not None:
        add_items(ctx.s, p, line.item, line.count)
        result.update(item=line.item, count=line.count)
    elif line.kind == "food":
        p["food"] = int(p["food"]) + line.count
        result["count"] = line.count
    elif line.kind == "monster":
        kind = random_monster(ctx, here, line.monster)
        if kind is None:
            result["found"] = "nothing"
        else:
            result["encounter"] = meet_random_monster(ctx, pid, kind, deep_night=False)
    elif line.kind == "story" and line.story is not None:
        if ctx.s.story_triggers_once and line.story in ctx.state["stories_triggered"]:
            result["found"] = "nothing"
        else:
            story = next(st for st in ctx.s.stories if st.id == line.story)
            qid = ctx.next_id("q")
            ctx.state["stories_triggered"].append(line.story)
            ctx.state["story_queue"].append(
                {
                    "id": qid,
                    "story": story.id,
                    "title": story.title,
                    "at": list(here),
                    "player": pid,
                    "status": "open",
                    "forbid_flee": story.forbid_flee,
                    "day": ctx.state["day"],
                }
            )
            ctx.emit(
                "story_triggered",
                {
                    "queue_id": qid,
                    "story": story.id,
                    "title": story.title,
                    "text": story.text,
                    "player": pid,
                    "at": list(here),
                },
                "director",
            )
            result.update(story=qid, title=story.title)
    ctx.emit("explored", {"player": pid, **result}, *director_and(pid))
    ctx.reply["result"] = result
    return "resolved"


# --- eat (IS-35) -------------------------------------------------------------------------
def order_eat(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    n = int(body.get("food", 1))
    p = alive(ctx, pid)
    # IS-35: eating lowers hunger by the amount eaten. An order is eaten exactly as asked
    # or refused: never more food than held, never more than the hunger it can lower.
    require(int(p["hunger"]) > 0, "not_hungry", "IS-35")
    require(int(p["food"]) >= n, "no_food", "IS-35")
    require(n <= int(p["hunger"]), "more_than_hunger", "IS-35", hunger=p["hunger"])
    need_stamina(p, ctx.s.eat_cost, "IS-35")
    eaten = n
    p["stamina"] -= ctx.s.eat_cost
    p["food"] -= eaten
    p["hunger"] -= eaten
    ctx.reply["result"] = {"eaten": eaten, "hunger": p["hunger"], "food": p["food"]}
    ctx.emit("ate", {"player": pid, **ctx.reply["result"]}, *director_and(pid))
    return "resolved"


# --- hunt (IS-14) ----------------------------------------------------------------------
def order_hunt(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    mid = str(body["monster"])
    use_limited = bool(body.get("use_weapon", False))
    others = body.get("with", [])
    p = alive(ctx, pid)
    here = cell_of(p)
    m = ctx.state["monsters"].get(mid)
    if m is None or m["count"] <= 0 or tuple(m["at"]) != here:
        raise violation("not_found")
    hunters = [pid]
    for other in others:
        if other in hunters:
            continue
        o = visible_player(ctx, pid, other)
        require(cell_of(o) == here, "not_same_cell", "IS-14")
        # Hunting for a team mate is a proxy order (IS-39).
        check_proxy(ctx, pid, other)
        hunters.append(other)
    split = body.get("split")
    weights = dict.fromkeys(hunters, 1)
    if split is not None:
        if not all(k in hunters for k in split):
            raise malformed("'split' maps hunters to non-negative integer shares")
        weights = {h: int(split.get(h, 0)) for h in hunters}
        if sum(weights.values()) <= 0:
            raise malformed("'split' shares must not all be zero")
    for h in hunters:
        not_in_pk(ctx, h, "IS-14")
        need_stamina(ctx.player(h), ctx.s.hunt_cost, "IS-14")
    total = 0
    weapons: dict[str, str | None] = {}
    for h in hunters:
        hp = ctx.player(h)
        hp["stamina"] -= ctx.s.hunt_cost
        st, w = strength(ctx.s, hp, use_limited)
        total += st
        weapons[h] = w
    for h in hunters:
        spend_weapon_use(ctx.s, ctx.player(h), weapons[h])
    won = sample(pk_outcomes(total, int(m["power"])), ctx.rng) == "A"
    result: JSON = {
        "monster": mid,
        "kind": m["kind"],
        "hunters": hunters,
        "strength": total,
        "monster_power": m["power"],
    }
    if won:
        m["count"] -= 1
        shares = split_food(int(m["food"]), hunters, weights, ctx)
        for h, n in shares.items():
            ctx.player(h)["food"] = int(ctx.player(h)["food"]) + n
        result.update(result="won", food=shares)
    else:
        result["result"] = "lost"
        result["losses"] = {
            h: apply_loss(ctx, h, ctx.s.hunt_loss_power, forbid_flee=False, cause="hunt")
            for h in hunters
        }
    ctx.emit("hunt", result, *director_and(*hunters, *watchers(ctx, here)))
    ctx.reply["result"] = result
    return "resolved"


def split_food(food: int, hunters: list[str], weights: dict[str, int], ctx: Ctx) -> dict[str, int]:
    """IS-14: even split (or the declared shares); remainders one each to hunters drawn at
    random (weighted hunters only)."""
    total_w = sum(weights.values())
    shares = {h: food * weights[h] // total_w for h in hunters}
    rest = food - sum(shares.values())
    pool = [h for h in hunters if weights[h] > 0]
    ctx.rng.shuffle(pool)
    for i in range(rest):
        shares[pool[i % len(pool)]] += 1
    return shares
