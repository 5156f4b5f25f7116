"""PK (IS-15): a challenge, joining it, fleeing it (IS-13), and its resolution."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from app.rules.base import AUDIENCE_PUBLIC, TimerSpec
from app.rules.island.checks import (
    alive,
    need_stamina,
    not_in_pk,
    visible_player,
)
from app.rules.island.core import (
    JSON,
    Ctx,
    cell_of,
    director_and,
    in_window,
    inside,
    neighbour,
    open_challenge_of,
    require,
    sees,
    spend_weapon_use,
    strength,
    watchers,
)
from app.rules.island.messages import violation
from app.rules.island.monsters import (
    apply_loss,
)
from app.rules.island.moving import complete_move, release_held_moves
from app.rules.island.tables import draw, pk_outcomes


# --- PK (IS-15) -----------------------------------------------------------------------
def pk_emit(ctx: Ctx, ch: JSON, kind: str, data: JSON) -> None:
    if ctx.s.pk_public:
        ctx.emit(kind, data, AUDIENCE_PUBLIC)
    else:
        members = [*ch["attackers"], *ch["defenders"], *ch["fled"]]
        at = (ch["at"][0], ch["at"][1])
        ctx.emit(kind, data, *director_and(*members, *watchers(ctx, at)))


def _fight(ctx: Ctx, ch: JSON) -> JSON:
    """Who fights whom now, with names: a post about one fighter names the whole PK."""
    members = [*ch["attackers"], *ch["defenders"]]
    return {
        "attackers": list(ch["attackers"]),
        "defenders": list(ch["defenders"]),
        "names": {x: ctx.player(x)["name"] for x in members},
    }


def order_pk(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    targets = list(body["targets"])
    use_limited = bool(body.get("use_weapon", False))
    p = alive(ctx, pid)
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
    not_in_pk(ctx, pid)
    need_stamina(p, ctx.s.pk_cost, "IS-15")
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
    pk_emit(
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
    cid = str(body["challenge"])
    side = str(body["side"])
    use_limited = bool(body.get("use_weapon", False))
    p = alive(ctx, pid)
    ch = ctx.state["challenges"].get(cid)
    if ch is None or not sees(ctx.s, p, (ch["at"][0], ch["at"][1])):
        raise violation("not_found")
    require(ch["status"] == "open", "pk_closed", "IS-15")
    require(tuple(ch["at"]) == cell_of(p), "not_same_cell", "IS-15")
    require(pid not in ch["attackers"] and pid not in ch["defenders"], "already_in_pk", "IS-15")
    not_in_pk(ctx, pid)
    key = "attackers" if side == "attack" else "defenders"
    require(len(ch[key]) < ctx.s.max_pk_side, "pk_side_full", "IS-15", max=ctx.s.max_pk_side)
    need_stamina(p, ctx.s.pk_join_cost, "IS-15")
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
    pk_emit(
        ctx,
        ch,
        "pk_joined",
        {"challenge": cid, "player": pid, "name": p["name"], "side": side, **_fight(ctx, ch)},
    )
    ctx.reply["result"] = {"challenge": cid, "side": side}
    return "pending"


# --- flee (IS-13) -------------------------------------------------------------------------
def order_flee(ctx: Ctx, pid: str, body: Mapping[str, Any], order_id: str) -> str:
    p = alive(ctx, pid)
    if "standing" in body:
        p["flee_if_lose"] = bool(body["standing"])
        ctx.reply["result"] = {"flee_if_lose": p["flee_if_lose"]}
        return "resolved"
    direction = body.get("direction")
    cid = open_challenge_of(ctx.state, pid)
    require(cid is not None, "nothing_to_flee", "IS-13")
    assert cid is not None
    ch = ctx.state["challenges"][cid]
    require(not ch["forbid_flee"], "flee_forbidden", "IS-13")
    cost = ctx.s.flee_move_cost if direction else ctx.s.flee_cost
    dest = neighbour(cell_of(p), direction) if direction else None
    if dest is not None:
        require(inside(ctx.s, dest), "off_map", "IS-13")
    need_stamina(p, cost, "IS-13")
    p["stamina"] -= cost
    for side in ("attackers", "defenders"):
        if pid in ch[side]:
            ch[side].remove(pid)
    ch["fled"].append(pid)
    fled = {"challenge": cid, "player": pid, "name": p["name"], **_fight(ctx, ch)}
    pk_emit(ctx, ch, "pk_fled", fled)
    result: JSON = {"fled": cid}
    if dest is not None:
        result["move"] = complete_move(ctx, pid, dest, hidden=False, via="flee")
    ctx.reply["result"] = result
    return "resolved"


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
        # A gamble's roll is recorded so a post can show it: the attack wins on at most
        # chance x faces (IS-60). A sure thing (one face) is no roll worth telling.
        outcome, drawn, faces = draw(pk_outcomes(sums["attack"], sums["defend"]), ctx.rng)
        winner = "attack" if outcome == "A" else "defend"
        if faces > 1:
            data["roll"] = {"drawn": drawn, "faces": faces}
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
    pk_emit(ctx, ch, "pk_resolved", data)
    release_held_moves(ctx, (ch["at"][0], ch["at"][1]))
