"""The 24:00 pipeline (IS-40): assassinations (IS-20..IS-26) with guards and counter-kills,
hunger (IS-35), deaths, the new day (IS-2, IS-33), expiry, and the three kinds of report."""

from __future__ import annotations

from app.rules.base import AUDIENCE_DIRECTOR, AUDIENCE_PUBLIC
from app.rules.island.core import (
    JSON,
    Cell,
    Ctx,
    cell_of,
    day_timers,
    director_and,
    effective_power,
    inside,
    local_now,
    max_stamina,
    neighbour,
    spend_weapon_use,
    strength,
)
from app.rules.island.messages import text
from app.rules.island.monsters import check_death, kill, meet_random_monster, random_monster
from app.rules.island.tables import assassination_outcomes, sample


def _night_step(ctx: Ctx, pid: str, direction: str, order_id: str) -> bool:
    """One deep-night move of an assassin (IS-22): costs stamina, may meet danger (IS-50),
    and what happens is hidden from everyone but the assassin and the director."""
    p = ctx.player(pid)
    dest = neighbour(cell_of(p), direction)
    if not inside(ctx.s, dest) or p["stamina"] < ctx.s.move_cost:
        return False
    p["stamina"] -= ctx.s.move_cost
    p["at"] = [dest[0], dest[1]]
    terrain = ctx.s.terrains[_terrain(ctx, dest)]
    chance = min(1.0, terrain.encounter_chance * ctx.s.deep_night_encounter_multiplier)
    if terrain.monster_table and chance > 0 and ctx.rng.random() < chance:
        kind = random_monster(ctx, dest)
        if kind is not None:
            enc = meet_random_monster(ctx, pid, kind, deep_night=True)
            ctx.emit(
                "night_encounter",
                {"order_id": order_id, "player": pid, "at": list(dest), **enc},
                *director_and(pid),
            )
            ctx.note(pid, {"kind": "night_encounter", "at": list(dest), **enc})
    return bool(p["alive"])


def _terrain(ctx: Ctx, c: Cell) -> str:
    from app.rules.island.core import terrain_id

    return terrain_id(ctx.s, c)


def _toward(a: Cell, b: Cell) -> str | None:
    """IS-24: the next step toward ``b`` (x first, then y)."""
    if a[0] < b[0]:
        return "right"
    if a[0] > b[0]:
        return "left"
    if a[1] < b[1]:
        return "down"
    if a[1] > b[1]:
        return "up"
    return None


_BACK = {"up": "down", "down": "up", "left": "right", "right": "left"}


def _resolve_assassinations(ctx: Ctx) -> None:
    orders = sorted(
        (
            o
            for o in ctx.state["orders"].values()
            if o["type"] == "assassinate" and o["status"] == "pending"
        ),
        key=lambda o: int(o["seq"]),
    )
    groups: dict[str, list[JSON]] = {}
    for o in orders:
        if not ctx.player(o["player"])["alive"]:
            continue
        members = groups.setdefault(o["target"], [])
        if len(members) >= ctx.s.max_assassins and ctx.s.excess_assassins_void:
            # IS-20: at most two assassins per target; later orders are void.
            o["status"] = "void"
            ctx.order_status[o["id"]] = "void"
            ctx.note(
                o["player"],
                {"kind": "assassination_void", "order_id": o["id"], "reason": "too_many_assassins"},
            )
            continue
        members.append(o)
    # IS-26: random order, except same-cell assassinations resolve before those that move.
    same: list[str] = []
    moving: list[str] = []
    for target, members in groups.items():
        tcell = cell_of(ctx.player(target))
        local = all(not m["path"] and cell_of(ctx.player(m["player"])) == tcell for m in members)
        (same if local else moving).append(target)
    order = sorted(same, key=ctx.state["player_order"].index)
    ctx.rng.shuffle(order)
    later = sorted(moving, key=ctx.state["player_order"].index)
    ctx.rng.shuffle(later)
    guards = [
        g for g in ctx.state["orders"].values() if g["type"] == "guard" and g["status"] == "pending"
    ]
    for target in order + later:
        _resolve_one(ctx, target, groups[target], guards)


def _resolve_one(ctx: Ctx, target: str, members: list[JSON], guards: list[JSON]) -> None:
    t = ctx.player(target)
    strikers: list[JSON] = []
    moves: dict[str, list[str]] = {}
    for o in members:
        o["status"] = "resolved"
        ctx.order_status[o["id"]] = "resolved"
        pid = o["player"]
        made: list[str] = []
        if ctx.player(pid)["alive"] and t["alive"]:
            steps = list(o["path"])
            if o["follow"]:
                steps = []
                pos = cell_of(ctx.player(pid))
                goal = cell_of(t)
                while (d := _toward(pos, goal)) is not None:
                    steps.append(d)
                    pos = neighbour(pos, d)
            for d in steps:
                if not _night_step(ctx, pid, d, o["id"]):
                    break
                made.append(d)
        moves[pid] = made
        a = ctx.player(pid)
        if a["alive"] and t["alive"] and cell_of(a) == cell_of(t):
            strikers.append(o)
        else:
            ctx.note(pid, {"kind": "assassination_missed", "order_id": o["id"], "target": target})
    if strikers and t["alive"]:
        ids = [o["player"] for o in strikers]
        watched = {g["target"] for g in guards if g["player"] == target} & set(ids)
        total = 0
        detail = {}
        for o in strikers:
            st, w = strength(ctx.s, ctx.player(o["player"]), bool(o["use_weapon"]))
            spend_weapon_use(ctx.s, ctx.player(o["player"]), w)
            # IS-25: a guarded assassin's strength counts as 0.
            st = 0 if o["player"] in watched else st
            detail[o["player"]] = st
            total += st
        tstr, _ = strength(ctx.s, t)
        success = sample(assassination_outcomes(total, tstr), ctx.rng) == "success"
        record: JSON = {
            "target": target,
            "assassins": ids,
            "strengths": detail,
            "target_strength": tstr,
            "success": success,
            "guarded": sorted(watched),
        }
        if success:
            if ctx.s.assassination_kills:
                kill(ctx, target, "assassination")
            else:
                t["power"] = max(0, int(t["power"]) - ctx.s.assassination_power_loss)
                check_death(ctx, target, "assassination")
        for o in strikers:
            ctx.note(o["player"], {"kind": "assassination", "target": target, "success": success})
        if watched:
            # IS-25: whatever the outcome, the guard learns who the assassins were.
            ctx.note(target, {"kind": "assassins_revealed", "assassins": ids, "success": success})
        elif not success and ctx.s.tell_target_of_failed_attempt:
            # IS-21: a failed attempt without a matching guard stays anonymous.
            ctx.note(
                target, {"kind": "assassination_attempt_failed", **text("attempt_failed_on_you")}
            )
        if success and t["alive"] is False:
            ctx.note(target, {"kind": "assassinated", **text("assassinated")})
        counters = []
        if watched and t["alive"]:
            for x in sorted(watched, key=ctx.state["player_order"].index):
                xp = ctx.player(x)
                if not xp["alive"]:
                    continue
                mine, _ = strength(ctx.s, t)
                theirs, _ = strength(ctx.s, xp)
                ok = sample(assassination_outcomes(mine, theirs), ctx.rng) == "success"
                if ok:
                    if ctx.s.assassination_kills:
                        kill(ctx, x, "counter_kill")
                    else:
                        xp["power"] = max(0, int(xp["power"]) - ctx.s.assassination_power_loss)
                        check_death(ctx, x, "counter_kill")
                counters.append({"assassin": x, "success": ok})
                ctx.note(x, {"kind": "counter_kill", "by": target, "success": ok})
                ctx.note(target, {"kind": "counter_kill", "against": x, "success": ok})
        record["counter_kills"] = counters
        ctx.state.setdefault("night_log", []).append(record)
    # IS-22: return to the original cell if stamina allows, otherwise stay.
    for o in members:
        pid = o["player"]
        made = moves.get(pid, [])
        a = ctx.player(pid)
        if not made or not a["alive"]:
            continue
        if a["stamina"] >= len(made) * ctx.s.move_cost:
            for d in reversed(made):
                if not _night_step(ctx, pid, _BACK[d], o["id"]):
                    break
        ctx.note(pid, {"kind": "night_position", "at": list(cell_of(a))})


def _hunger(ctx: Ctx) -> None:
    """IS-35: after assassinations each player eats; without food, one more hunger level
    (max stamina and power halve); power 0 starves."""
    for pid in ctx.alive_ids():
        p = ctx.player(pid)
        if int(p["food"]) >= ctx.s.food_per_day:
            p["food"] -= ctx.s.food_per_day
            ctx.note(pid, {"kind": "ate", "food_left": p["food"]})
        else:
            p["hunger"] = int(p["hunger"]) + 1
            ctx.note(pid, {"kind": "hungry", "hunger": p["hunger"]})
            if effective_power(p) <= 0:
                kill(ctx, pid, "starvation")
                ctx.note(pid, {"kind": "starved", **text("starved")})


def run_midnight(ctx: Ctx) -> None:
    state = ctx.state
    s = ctx.s
    ended_day = int(state["day"])
    ended_date = state["date"]
    deaths_before = len(state["deaths"])
    # 1) assassinations and counter-kills
    state["night_log"] = []
    _resolve_assassinations(ctx)
    night_log = state.pop("night_log")
    # 2) hunger
    _hunger(ctx)
    # 3) deaths: everything not yet announced is announced now
    new_deaths = []
    for d in state["deaths"]:
        if not d["announced"]:
            d["announced"] = True
            new_deaths.append({"player": d["player"], "name": ctx.player(d["player"])["name"]})
    # 4) new day: refill minus debt (IS-2, IS-33); guards and unused orders expire
    state["day"] = ended_day + 1
    # The new day ends at the next 24:00 after now in the game's zone (IS-3, IS-40). On
    # time (at 00:00) that is the end of the new calendar date; run early by the director
    # it is tonight's midnight, not the one a calendar day later; run late, the next one.
    new_date = local_now(s, ctx.now).date()
    state["date"] = new_date.isoformat()
    for pid in state["player_order"]:
        p = ctx.player(pid)
        if not p["alive"]:
            continue
        full = max_stamina(p)
        debt = int(p["debt"]) if s.debt_from_next_refill else 0
        p["stamina"] = max(0, full - debt)
        p["debt"] = max(0, debt - full) if s.debt_from_next_refill else int(p["debt"])
    for oid, o in state["orders"].items():
        if o["status"] in ("pending", "held") and o["type"] in ("guard", "assassinate", "move"):
            o["status"] = "expired"
            ctx.order_status[oid] = "expired"
    # keep the order book small: drop everything finished before the day that just ended
    state["orders"] = {
        oid: o
        for oid, o in state["orders"].items()
        if o["status"] in ("pending", "held") or o["day"] >= ended_day
    }
    alive = ctx.alive_ids()
    # 5) reports
    for pid in state["player_order"]:
        p = ctx.player(pid)
        if not p["alive"] and not ctx.notes.get(pid):
            continue  # dead before tonight: nothing left to report to them
        ctx.emit(
            "night_report",
            {
                "day": ended_day,
                "new_day": state["day"],
                "alive": p["alive"],
                "notes": ctx.notes.get(pid, []),
                "stamina": p["stamina"],
                "max_stamina": max_stamina(p),
                "power": effective_power(p),
                "hunger": p["hunger"],
                "food": p["food"],
                "debt": p["debt"],
            },
            f"player:{pid}",
        )
    ctx.emit(
        "day_report",
        {
            "day": ended_day,
            "date": ended_date,  # the local date that ended (the forum report's heading)
            # run by the director before that date's 24:00 (on time it is the next date)
            "early": local_now(s, ctx.now).date().isoformat() <= ended_date,
            "new_day": state["day"],
            "deaths": new_deaths,
            "alive": [{"player": x, "name": ctx.player(x)["name"]} for x in alive],
        },
        AUDIENCE_PUBLIC,
    )
    ctx.emit(
        "director_report",
        {
            "day": ended_day,
            "assassinations": night_log,
            "deaths": new_deaths,
            "deaths_total": len(state["deaths"]) - deaths_before,
            "notes": {
                pid: ctx.notes.get(pid, []) for pid in state["player_order"] if ctx.notes.get(pid)
            },
            "story_queue_open": [q["id"] for q in state["story_queue"] if q["status"] == "open"],
        },
        AUDIENCE_DIRECTOR,
    )
    if len(alive) <= s.end_when_alive_at_most:
        state["status"] = "finished"
        ctx.finished = True
        ctx.emit("game_over", {"survivors": alive}, AUDIENCE_PUBLIC)
        return
    ctx.timers.extend(day_timers(s, new_date, ctx.now))
