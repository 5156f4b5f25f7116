"""Fights with monsters, losses, deaths, encounters on moves (IS-50, IS-52) and the resident
monsters' evening attacks (IS-51, IS-53)."""

from __future__ import annotations

from typing import Any

from app.rules.island.core import (
    JSON,
    Cell,
    Ctx,
    director_and,
    effective_power,
    is_deep_night,
    open_challenge_of,
    players_at,
    strength,
    terrain_id,
)
from app.rules.island.tables import pk_outcomes, sample, weighted_choice


def kill(ctx: Ctx, pid: str, cause: str, *, public: bool = False) -> None:
    """A death (power 0, IS-15/IS-34/IS-35, or an assassination IS-20): void the dead
    player's standing orders; announced publicly at once or in the 24:00 report."""
    p = ctx.player(pid)
    if not p["alive"]:
        return
    p["alive"] = False
    ctx.state["deaths"].append(
        {"player": pid, "day": ctx.state["day"], "cause": cause, "announced": public}
    )
    for oid, order in ctx.state["orders"].items():
        if order["player"] == pid and order["status"] in ("pending", "held"):
            order["status"] = "void"
            ctx.order_status[oid] = "void"
    ctx.emit("death", {"player": pid, "name": p["name"], "cause": cause}, *director_and(pid))
    if public:
        ctx.emit("death_announced", {"player": pid, "name": p["name"]}, "public")
    ctx.note(pid, {"kind": "death", "cause": cause})


def check_death(ctx: Ctx, pid: str, cause: str, *, public: bool = False) -> bool:
    p = ctx.player(pid)
    if p["alive"] and effective_power(p) <= 0:
        kill(ctx, pid, cause, public=public)
        return True
    return not p["alive"]


def apply_loss(
    ctx: Ctx, pid: str, loss_power: int, *, forbid_flee: bool, cause: str, public: bool = False
) -> str:
    """IS-13: a loser keeps their power by fleeing when their standing "flee if I lose"
    choice is set, fleeing is allowed and stamina suffices; otherwise the loss applies."""
    p = ctx.player(pid)
    if p["flee_if_lose"] and not forbid_flee and p["stamina"] >= ctx.s.flee_cost:
        p["stamina"] -= ctx.s.flee_cost
        return "fled"
    p["power"] = max(0, int(p["power"]) - loss_power)
    if check_death(ctx, pid, cause, public=public):
        return "died"
    return "lost"


def fight_monster(
    ctx: Ctx, pid: str, kind: str, power: int, food: int, *, penalty: int, forbid_flee: bool
) -> JSON:
    """IS-53: the fight uses the PK table (IS-60) with the player as side A."""
    p = ctx.player(pid)
    mine, _weapon = strength(ctx.s, p)
    mine = max(0, mine - penalty)
    winner = sample(pk_outcomes(mine, power), ctx.rng)
    result: JSON = {"monster": kind, "player_strength": mine, "monster_power": power}
    if winner == "A":
        p["food"] = int(p["food"]) + food
        result.update(result="won", food=food)
    else:
        result["result"] = apply_loss(
            ctx, pid, ctx.s.monster_loss_power, forbid_flee=forbid_flee, cause="monster"
        )
    return result


def random_monster(ctx: Ctx, c: Cell, kind: str | None = None) -> str | None:
    """A random monster kind from the terrain's weighted table (IS-50, IS-52)."""
    if kind is not None:
        return kind
    table = ctx.s.terrains[terrain_id(ctx.s, c)].monster_table
    if not table:
        return None
    return table[weighted_choice([w.weight for w in table], ctx.rng)].kind


def meet_random_monster(ctx: Ctx, pid: str, kind: str, *, deep_night: bool) -> JSON:
    """IS-52: a random monster may attack; it vanishes after the fight, or at once when
    neither side attacks. In deep night the player's strength is lower (IS-50)."""
    mk = ctx.s.monster_kinds[kind]
    attacks = ctx.rng.random() < mk.attack_chance
    if not attacks:
        return {"monster": kind, "result": "vanished"}
    penalty = ctx.s.deep_night_power_penalty if deep_night else 0
    return fight_monster(ctx, pid, kind, mk.power, mk.food, penalty=penalty, forbid_flee=False)


def roll_encounter(ctx: Ctx, pid: str, dest: Cell) -> JSON | None:
    """IS-50: each move rolls the destination terrain's encounter chance (multiplied in
    deep night)."""
    terrain = ctx.s.terrains[terrain_id(ctx.s, dest)]
    deep = is_deep_night(ctx.s, ctx.now)
    chance = terrain.encounter_chance * (ctx.s.deep_night_encounter_multiplier if deep else 1.0)
    if not terrain.monster_table or chance <= 0:
        return None
    if ctx.rng.random() >= min(1.0, chance):
        return None
    kind = random_monster(ctx, dest)
    if kind is None:
        return None
    return meet_random_monster(ctx, pid, kind, deep_night=deep)


def resident_monsters_at(ctx: Ctx, c: Cell) -> list[JSON]:
    return [
        {"id": m["id"], "kind": m["kind"], "count": m["count"]}
        for m in ctx.state["monsters"].values()
        if m["count"] > 0 and tuple(m["at"]) == c
    ]


def monster_check(ctx: Ctx, data: dict[str, Any]) -> None:
    """IS-51: at each check time of the 20:00-24:00 window every resident monster stack
    with players in its cell attacks one of them with its attack chance (IS-53: the
    victim fights by IS-60, or flees by their standing choice)."""
    for mid in sorted(ctx.state["monsters"]):
        m = ctx.state["monsters"][mid]
        if m["count"] <= 0:
            continue
        here = [
            pid
            for pid in players_at(ctx, (m["at"][0], m["at"][1]))
            if open_challenge_of(ctx.state, pid) is None
        ]
        if not here:
            continue
        if ctx.rng.random() >= float(m["attack_chance"]):
            continue
        victim = here[ctx.rng.randrange(len(here))]
        result = fight_monster(
            ctx, victim, m["kind"], int(m["power"]), int(m["food"]), penalty=0, forbid_flee=False
        )
        if result["result"] == "won":
            m["count"] -= 1
        result.update(monster_id=mid, time=data.get("time"))
        ctx.emit("monster_attack", result, *director_and(victim))
        ctx.note(victim, {"kind": "monster_attack", **result})
