"""Player orders: immediate actions (IS-10..IS-15, IS-36, IS-37), standing orders resolved
at 24:00 (IS-20..IS-26, IS-33), withdraw and revise (IS-11, IS-23), proxies (IS-39)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from app.rules.base import AUDIENCE_PUBLIC, TimerSpec
from app.rules.island.core import (
    DIRECTIONS,
    JSON,
    Cell,
    Ctx,
    add_items,
    aud_players,
    cell_busy,
    cell_of,
    director_and,
    in_window,
    inside,
    max_stamina,
    neighbour,
    open_challenge_of,
    remove_items,
    require,
    sees,
    spend_weapon_use,
    strength,
    terrain_id,
    watchers,
    weapon_for,
)
from app.rules.island.messages import text, violation
from app.rules.island.monsters import (
    apply_loss,
    meet_random_monster,
    random_monster,
    resident_monsters_at,
    roll_encounter,
)
from app.rules.island.tables import pk_outcomes, sample, weighted_choice

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


# --- body parsing (422 on malformed bodies) -----------------------------------------
def _bad(detail: str) -> Exception:
    return violation("bad_order", None, detail=detail)


def _str(body: Mapping[str, Any], key: str) -> str:
    v = body.get(key)
    if not isinstance(v, str) or not v:
        raise _bad(f"'{key}' must be a non-empty string")
    return v


def _int(body: Mapping[str, Any], key: str, default: int | None = None, low: int = 1) -> int:
    v = body.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise _bad(f"'{key}' must be an integer >= {low}")
    return v


def _bool(body: Mapping[str, Any], key: str) -> bool:
    v = body.get(key, False)
    if not isinstance(v, bool):
        raise _bad(f"'{key}' must be true or false")
    return v


def _direction(v: Any, key: str = "direction", rule: str = "IS-10") -> str:
    """IS-10: moves go to an orthogonally adjacent cell, never diagonally."""
    if v not in DIRECTIONS:
        raise violation("bad_direction", rule, key=key)
    return str(v)


def _check_keys(body: Mapping[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(body) - allowed - {"type", "for"})
    if extra:
        raise _bad(f"unknown field(s) {', '.join(extra)}")


# --- common checks --------------------------------------------------------------------
def _alive(ctx: Ctx, pid: str) -> JSON:
    """A dead player (power 0, IS-15; or assassinated, IS-20) gives no more orders."""
    p = ctx.player(pid)
    require(bool(p["alive"]), "dead", "IS-15")
    return p


def _stamina(p: JSON, need: int, rule: str) -> None:
    require(int(p["stamina"]) >= need, "not_enough_stamina", rule, need=need)


def _not_in_pk(ctx: Ctx, pid: str, rule: str = "IS-15") -> None:
    if ctx.s.pk_participants_locked:
        require(open_challenge_of(ctx.state, pid) is None, "in_pk", rule)


def visible_player(ctx: Ctx, viewer_id: str, target_id: Any) -> JSON:
    """A living player the viewer can see (IS-55); anything else is 404 ``not_found`` so an
    error never confirms another player's existence, location or state."""
    if not isinstance(target_id, str) or target_id not in ctx.state["players"]:
        raise violation("not_found")
    t = ctx.player(target_id)
    if not t["alive"] or not sees(ctx.s, ctx.player(viewer_id), cell_of(t)):
        raise violation("not_found")
    return t


def _pay_with_debt(p: JSON, cost: int, kind: str, rule: str) -> int:
    """IS-33: once per game an assassinate, once a guard, may be posted short of stamina;
    returns the shortfall owed."""
    if p["stamina"] >= cost:
        p["stamina"] -= cost
        return 0
    require(not p["debt_used"][kind], "not_enough_stamina", rule, need=cost)
    shortfall = cost - int(p["stamina"])
    p["stamina"] = 0
    p["debt"] = int(p["debt"]) + shortfall
    p["debt_used"][kind] = True
    return shortfall


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
    _check_keys(body, {"direction", "hidden"})
    direction = _direction(body.get("direction"))
    hidden = _bool(body, "hidden")
    p = _alive(ctx, pid)
    _not_in_pk(ctx, pid, "IS-11")
    dest = neighbour(cell_of(p), direction)
    require(inside(ctx.s, dest), "off_map", "IS-10")
    _stamina(p, ctx.s.move_cost, "IS-10")
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


# --- explore (IS-12) -------------------------------------------------------------------
def order_explore(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    _check_keys(body, set())
    p = _alive(ctx, pid)
    _not_in_pk(ctx, pid, "IS-12")
    _stamina(p, ctx.s.explore_cost, "IS-12")
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


# --- flee (IS-13) -------------------------------------------------------------------------
def order_flee(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    _check_keys(body, {"direction", "standing"})
    p = _alive(ctx, pid)
    if "standing" in body:
        p["flee_if_lose"] = _bool(body, "standing")
        ctx.reply["result"] = {"flee_if_lose": p["flee_if_lose"]}
        return "resolved"
    direction = (
        _direction(body["direction"], rule="IS-13") if body.get("direction") is not None else None
    )
    cid = open_challenge_of(ctx.state, pid)
    require(cid is not None, "nothing_to_flee", "IS-13")
    assert cid is not None
    ch = ctx.state["challenges"][cid]
    require(not ch["forbid_flee"], "flee_forbidden", "IS-13")
    cost = ctx.s.flee_move_cost if direction else ctx.s.flee_cost
    dest = neighbour(cell_of(p), direction) if direction else None
    if dest is not None:
        require(inside(ctx.s, dest), "off_map", "IS-13")
    _stamina(p, cost, "IS-13")
    p["stamina"] -= cost
    for side in ("attackers", "defenders"):
        if pid in ch[side]:
            ch[side].remove(pid)
    ch["fled"].append(pid)
    _pk_emit(ctx, ch, "pk_fled", {"challenge": cid, "player": pid, "name": p["name"]})
    result: JSON = {"fled": cid}
    if dest is not None:
        result["move"] = complete_move(ctx, pid, dest, hidden=False, via="flee")
    ctx.reply["result"] = result
    return "resolved"


# --- eat (IS-35) -------------------------------------------------------------------------
def order_eat(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    _check_keys(body, {"food"})
    n = _int(body, "food", 1)
    p = _alive(ctx, pid)
    # IS-35: eating lowers hunger by the amount eaten. An order is eaten exactly as asked
    # or refused: never more food than held, never more than the hunger it can lower.
    require(int(p["hunger"]) > 0, "not_hungry", "IS-35")
    require(int(p["food"]) >= n, "no_food", "IS-35")
    require(n <= int(p["hunger"]), "more_than_hunger", "IS-35", hunger=p["hunger"])
    _stamina(p, ctx.s.eat_cost, "IS-35")
    eaten = n
    p["stamina"] -= ctx.s.eat_cost
    p["food"] -= eaten
    p["hunger"] -= eaten
    ctx.reply["result"] = {"eaten": eaten, "hunger": p["hunger"], "food": p["food"]}
    ctx.emit("ate", {"player": pid, **ctx.reply["result"]}, *director_and(pid))
    return "resolved"


# --- hunt (IS-14) ----------------------------------------------------------------------
def order_hunt(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    _check_keys(body, {"monster", "with", "split", "use_weapon"})
    mid = _str(body, "monster")
    use_limited = _bool(body, "use_weapon")
    others = body.get("with", [])
    if not isinstance(others, list) or not all(isinstance(x, str) for x in others):
        raise _bad("'with' must be a list of player ids")
    p = _alive(ctx, pid)
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
        _check_proxy(ctx, pid, other)
        hunters.append(other)
    split = body.get("split")
    weights = dict.fromkeys(hunters, 1)
    if split is not None:
        if not isinstance(split, dict) or not all(
            k in hunters and isinstance(v, int) and not isinstance(v, bool) and v >= 0
            for k, v in split.items()
        ):
            raise _bad("'split' maps hunters to non-negative integer shares")
        weights = {h: int(split.get(h, 0)) for h in hunters}
        if sum(weights.values()) <= 0:
            raise _bad("'split' shares must not all be zero")
    for h in hunters:
        _not_in_pk(ctx, h, "IS-14")
        _stamina(ctx.player(h), ctx.s.hunt_cost, "IS-14")
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


# --- PK (IS-15) -----------------------------------------------------------------------
def _pk_emit(ctx: Ctx, ch: JSON, kind: str, data: JSON) -> None:
    if ctx.s.pk_public:
        ctx.emit(kind, data, AUDIENCE_PUBLIC)
    else:
        members = [*ch["attackers"], *ch["defenders"], *ch["fled"]]
        at = (ch["at"][0], ch["at"][1])
        ctx.emit(kind, data, *director_and(*members, *watchers(ctx, at)))


def order_pk(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    _check_keys(body, {"targets", "use_weapon"})
    targets = body.get("targets")
    if not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets):
        raise _bad("'targets' must be a non-empty list of player ids")
    if len(set(targets)) != len(targets):
        raise _bad("'targets' has duplicates")
    use_limited = _bool(body, "use_weapon")
    p = _alive(ctx, pid)
    require(pid not in targets, "self_target", "IS-15")
    require(len(targets) <= ctx.s.max_pk_side, "pk_side_full", "IS-15", max=ctx.s.max_pk_side)
    if ctx.s.pk_window_enforced:
        require(
            in_window(ctx.s, ctx.now, ctx.s.pk_window_start),
            "outside_pk_window",
            "IS-15",
            start=ctx.s.pk_window_start,
        )
    here = cell_of(p)
    for t in targets:
        tp = visible_player(ctx, pid, t)
        require(cell_of(tp) == here, "not_same_cell", "IS-15")
        require(open_challenge_of(ctx.state, t) is None, "in_pk", "IS-15")
    _not_in_pk(ctx, pid)
    _stamina(p, ctx.s.pk_cost, "IS-15")
    p["stamina"] -= ctx.s.pk_cost
    cid = ctx.next_id("pk")
    lo, hi = ctx.s.pk_window_minutes
    due = ctx.now + timedelta(minutes=ctx.rng.randint(lo, hi))
    ch = {
        "id": cid,
        "at": list(here),
        "attackers": [pid],
        "defenders": list(targets),
        "fled": [],
        "status": "open",
        "day": ctx.state["day"],
        "due_at": due.isoformat(),
        "forbid_flee": False,
        "order_ids": [order_id],
        "use_weapon": {pid: use_limited},
        "winner": None,
    }
    ctx.state["challenges"][cid] = ch
    ctx.state["orders"][order_id] = {
        "id": order_id,
        "type": "pk",
        "player": pid,
        "status": "pending",
        "seq": ctx.next_id(""),
        "day": ctx.state["day"],
        "challenge": cid,
    }
    ctx.timers.append(TimerSpec(kind="pk", key=cid, due_at=due, data={"challenge": cid}))
    names = {x: ctx.player(x)["name"] for x in [pid, *targets]}
    _pk_emit(
        ctx,
        ch,
        "pk_posted",
        {
            "challenge": cid,
            "attackers": [pid],
            "defenders": list(targets),
            "names": names,
            "due_at": due.isoformat(),
        },
    )
    ctx.reply["result"] = {"challenge": cid, "due_at": due.isoformat()}
    return "pending"


def order_pk_join(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    _check_keys(body, {"challenge", "side", "use_weapon"})
    cid = _str(body, "challenge")
    side = body.get("side")
    if side not in ("attack", "defend"):
        raise _bad("'side' must be attack or defend")
    use_limited = _bool(body, "use_weapon")
    p = _alive(ctx, pid)
    ch = ctx.state["challenges"].get(cid)
    if ch is None or not sees(ctx.s, p, (ch["at"][0], ch["at"][1])):
        raise violation("not_found")
    require(ch["status"] == "open", "pk_closed", "IS-15")
    require(tuple(ch["at"]) == cell_of(p), "not_same_cell", "IS-15")
    require(pid not in ch["attackers"] and pid not in ch["defenders"], "already_in_pk", "IS-15")
    _not_in_pk(ctx, pid)
    key = "attackers" if side == "attack" else "defenders"
    require(len(ch[key]) < ctx.s.max_pk_side, "pk_side_full", "IS-15", max=ctx.s.max_pk_side)
    _stamina(p, ctx.s.pk_join_cost, "IS-15")
    p["stamina"] -= ctx.s.pk_join_cost
    ch[key].append(pid)
    ch["order_ids"].append(order_id)
    ch["use_weapon"][pid] = use_limited
    ctx.state["orders"][order_id] = {
        "id": order_id,
        "type": "pk_join",
        "player": pid,
        "status": "pending",
        "seq": ctx.next_id(""),
        "day": ctx.state["day"],
        "challenge": cid,
    }
    _pk_emit(
        ctx, ch, "pk_joined", {"challenge": cid, "player": pid, "name": p["name"], "side": side}
    )
    ctx.reply["result"] = {"challenge": cid, "side": side}
    return "pending"


def resolve_pk(ctx: Ctx, cid: str) -> None:
    """IS-15 / IS-60: sum each side's strength; there is always a winner; each loser loses
    power unless they flee (IS-13); power 0 means death."""
    ch = ctx.state["challenges"].get(cid)
    if ch is None or ch["status"] != "open":
        return
    ch["status"] = "resolved"
    for oid in ch["order_ids"]:
        if oid in ctx.state["orders"] and ctx.state["orders"][oid]["status"] == "pending":
            ctx.state["orders"][oid]["status"] = "resolved"
            ctx.order_status[oid] = "resolved"
    attackers = [x for x in ch["attackers"] if ctx.player(x)["alive"]]
    defenders = [x for x in ch["defenders"] if ctx.player(x)["alive"]]
    data: JSON = {
        "challenge": cid,
        "attackers": attackers,
        "defenders": defenders,
        "fled": list(ch["fled"]),
    }
    if not attackers or not defenders:
        winner = "attack" if attackers else ("defend" if defenders else None)
        data.update(winner=winner, by_default=True, losses={})
    else:
        sums = {}
        for side, members in (("attack", attackers), ("defend", defenders)):
            total = 0
            for x in members:
                st, w = strength(ctx.s, ctx.player(x), bool(ch["use_weapon"].get(x, False)))
                total += st
                spend_weapon_use(ctx.s, ctx.player(x), w)
            sums[side] = total
        winner = (
            "attack"
            if sample(pk_outcomes(sums["attack"], sums["defend"]), ctx.rng) == "A"
            else "defend"
        )
        losers = defenders if winner == "attack" else attackers
        losses = {
            x: apply_loss(
                ctx,
                x,
                ctx.s.pk_loss_power,
                forbid_flee=bool(ch["forbid_flee"]),
                cause="pk",
                public=ctx.s.pk_public,
            )
            for x in losers
        }
        data.update(winner=winner, strengths=sums, losses=losses)
    ch["winner"] = data["winner"]
    _pk_emit(ctx, ch, "pk_resolved", data)
    release_held_moves(ctx, (ch["at"][0], ch["at"][1]))


# --- assassinate and guard (IS-20..IS-26, IS-33) -------------------------------------
def _parse_assassination(ctx: Ctx, pid: str, body: Mapping[str, Any]) -> JSON:
    _check_keys(body, {"target", "path", "follow", "use_weapon"})
    target = _str(body, "target")
    path_raw = body.get("path") or []
    if not isinstance(path_raw, list):
        raise _bad("'path' must be a list of directions")
    path = [_direction(d, "path", "IS-22") for d in path_raw]
    follow = _bool(body, "follow")
    if follow and path:
        raise _bad("use either 'path' or 'follow', not both")
    use_limited = _bool(body, "use_weapon")
    p = _alive(ctx, pid)
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
    spec = _parse_assassination(ctx, pid, body)
    p = ctx.player(pid)
    for o in ctx.state["orders"].values():
        if (
            o["type"] == "assassinate"
            and o["status"] == "pending"
            and o["player"] == pid
            and o["target"] == spec["target"]
        ):
            raise violation("duplicate_order", "IS-20")
    shortfall = _pay_with_debt(p, ctx.s.assassinate_cost, "assassinate", "IS-33")
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
    _check_keys(body, {"target"})
    target = _str(body, "target")
    p = _alive(ctx, pid)
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
    shortfall = _pay_with_debt(p, ctx.s.guard_cost, "guard", "IS-33")
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


# --- give and equip (IS-36, IS-37) ------------------------------------------------------
def order_give(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    _check_keys(body, {"to", "item", "count"})
    item = _str(body, "item")
    count = _int(body, "count", 1)
    p = _alive(ctx, pid)
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
    _check_keys(body, {"item"})
    p = _alive(ctx, pid)
    item = body.get("item")
    if item is None:
        p["equipped"] = None
    else:
        if not isinstance(item, str):
            raise _bad("'item' must be an item id or null")
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


# --- proxies (IS-39) --------------------------------------------------------------------
def _check_proxy(ctx: Ctx, actor: str, subject: str) -> None:
    a, s = ctx.player(actor), ctx.player(subject)
    require(a["faction"] == s["faction"], "proxy_forbidden", "IS-39")
    require(subject not in ctx.state["proxies_invalid"], "proxy_invalid", "IS-39")


def subject_of(ctx: Ctx, actor: str, body: Mapping[str, Any]) -> str:
    """The player an order is for: the actor, or (IS-39) a same-faction player named in
    ``for``. An unknown ``for`` is 404."""
    target = body.get("for")
    if target is None or target == actor:
        return actor
    if not isinstance(target, str) or target not in ctx.state["players"]:
        raise violation("not_found")
    _check_proxy(ctx, actor, target)
    return target


def handle_order(ctx: Ctx, actor: str, payload: Mapping[str, Any]) -> None:
    order_id = payload.get("order_id")
    body = payload.get("order")
    if not isinstance(order_id, str) or not order_id:
        raise _bad("'order_id' must be a non-empty string")
    if not isinstance(body, Mapping):
        raise _bad("'order' must be an object")
    kind = body.get("type")
    if kind not in HANDLERS:
        raise violation("unknown_order_type", None, type=str(kind))
    require(actor in ctx.state["players"], "not_found")
    subject = subject_of(ctx, actor, body)
    if order_id in ctx.state["orders"]:
        raise _bad("'order_id' already used")
    status = HANDLERS[str(kind)](ctx, subject, body, order_id)
    if subject == actor:
        ctx.player(actor)["last_own_order_day"] = ctx.state["day"]
    if order_id in ctx.state["orders"]:
        ctx.state["orders"][order_id]["by"] = actor
    ctx.order_status[order_id] = status
    ctx.reply["order"] = {"id": order_id, "type": kind, "status": status, "for": subject}


# --- withdraw and revise (IS-11, IS-23, IS-25) ------------------------------------------
def _own_order(ctx: Ctx, actor: str, order_id: Any) -> JSON:
    if not isinstance(order_id, str):
        raise _bad("'order_id' must be a string")
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
    body = payload.get("order")
    if not isinstance(body, Mapping):
        raise _bad("'order' must be an object")
    # IS-23: only an assassination whose target moved may be changed.
    require(
        order["type"] == "assassinate" and order["status"] == "pending", "cannot_change", "IS-23"
    )
    require(bool(order["target_moved"]), "cannot_change", "IS-23")
    if body.get("type", "assassinate") != "assassinate":
        raise _bad("a revised assassination stays an assassination")
    spec = _parse_assassination(
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
