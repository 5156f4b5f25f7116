"""Director tools: each one an audited event (audience: the director, plus the player
concerned where they would know)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.rules.base import AUDIENCE_PUBLIC
from app.rules.island.actions import complete_move, release_held_moves
from app.rules.island.core import (
    JSON,
    Ctx,
    add_items,
    cell_of,
    director_and,
    inside,
    remove_items,
    require,
)
from app.rules.island.messages import violation
from app.rules.island.monsters import check_death, kill


def _bad(detail: str) -> Exception:
    return violation("bad_action", None, detail=detail)


def _pid(ctx: Ctx, a: Mapping[str, Any], key: str = "player") -> str:
    pid = a.get(key)
    if not isinstance(pid, str) or pid not in ctx.state["players"]:
        raise _bad(f"'{key}' must be a player id")
    return pid


def _int(a: Mapping[str, Any], key: str, low: int | None = None) -> int:
    v = a.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or (low is not None and v < low):
        raise _bad(f"'{key}' must be an integer" + (f" >= {low}" if low is not None else ""))
    return v


def _item(ctx: Ctx, a: Mapping[str, Any]) -> str:
    item = a.get("item")
    if not isinstance(item, str) or (item != "food" and item not in ctx.s.items):
        raise _bad("'item' must be a defined item id or 'food'")
    return item


def resolve_story(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    """IS-12: the director answers a triggered story; the cell unlocks (IS-11)."""
    qid = a.get("queue_id", a.get("story"))
    entry = next(
        (
            q
            for q in ctx.state["story_queue"]
            if q["id"] == qid or (q["story"] == qid and q["status"] == "open")
        ),
        None,
    )
    if entry is None:
        raise _bad("'queue_id' must name an entry of the story queue")
    require(entry["status"] == "open", "story_resolved", "IS-12")
    story_text = a.get("text", "")
    if not isinstance(story_text, str):
        raise _bad("'text' must be a string")
    changes = a.get("changes", [])
    if not isinstance(changes, list):
        raise _bad("'changes' must be a list of director actions")
    for ch in changes:
        if (
            not isinstance(ch, Mapping)
            or ch.get("action") not in ACTIONS
            or ch.get("action") == "resolve_story"
        ):
            raise _bad("each change must be a director action object")
    entry["status"] = "resolved"
    entry["text"] = story_text
    ctx.emit(
        "story_resolved",
        {"queue_id": entry["id"], "story": entry["story"], "text": story_text},
        *director_and(entry["player"]),
    )
    applied = []
    for ch in changes:
        res = ACTIONS[str(ch["action"])](ctx, ch)
        res.pop("_audience", None)
        applied.append({"action": ch["action"], **res})
    release_held_moves(ctx, (entry["at"][0], entry["at"][1]))
    return {"queue_id": entry["id"], "changes": applied, "_audience": [entry["player"]]}


def grant_item(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    pid, item, count = _pid(ctx, a), _item(ctx, a), _int(a, "count", 1) if "count" in a else 1
    p = ctx.player(pid)
    if item == "food":
        p["food"] = int(p["food"]) + count
    else:
        add_items(ctx.s, p, item, count)
    return {"player": pid, "item": item, "count": count, "_audience": [pid]}


def take_item(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    pid, item, count = _pid(ctx, a), _item(ctx, a), _int(a, "count", 1) if "count" in a else 1
    p = ctx.player(pid)
    if item == "food":
        taken = min(count, int(p["food"]))
        p["food"] -= taken
    else:
        taken = min(count, int(p["inventory"].get(item, 0)))
        if taken:
            remove_items(ctx.s, p, item, taken)
    return {"player": pid, "item": item, "count": taken, "_audience": [pid]}


def set_ill(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    """IS-34: current stamina, max stamina and power halve (rounding down); may kill."""
    pid = _pid(ctx, a)
    p = ctx.player(pid)
    if not p["ill"]:
        p["ill"] = True
        p["stamina"] = int(p["stamina"]) // 2
        check_death(ctx, pid, "illness")
    return {"player": pid, "ill": True, "alive": p["alive"], "_audience": [pid]}


def cure(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    pid = _pid(ctx, a)
    ctx.player(pid)["ill"] = False
    return {"player": pid, "ill": False, "_audience": [pid]}


def move_player(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    pid = _pid(ctx, a)
    to = a.get("to")
    if not isinstance(to, list) or len(to) != 2 or not all(isinstance(v, int) for v in to):
        raise _bad("'to' must be [x, y]")
    dest = (int(to[0]), int(to[1]))
    if not inside(ctx.s, dest):
        raise _bad("'to' is outside the map")
    require(bool(ctx.player(pid)["alive"]), "dead")
    origin = cell_of(ctx.player(pid))
    complete_move(ctx, pid, dest, hidden=bool(a.get("hidden", True)), via="director")
    return {"player": pid, "from": list(origin), "to": list(dest), "_audience": [pid]}


def forbid_flee(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    """IS-13: important stories and some PKs forbid fleeing."""
    forbid = bool(a.get("forbid", True))
    cid = a.get("challenge")
    if isinstance(cid, str) and cid in ctx.state["challenges"]:
        ctx.state["challenges"][cid]["forbid_flee"] = forbid
        ch = ctx.state["challenges"][cid]
        return {
            "challenge": cid,
            "forbid": forbid,
            "_audience": [*ch["attackers"], *ch["defenders"]],
        }
    qid = a.get("queue_id")
    entry = next((q for q in ctx.state["story_queue"] if q["id"] == qid), None)
    if entry is None:
        raise _bad("name a 'challenge' or a story 'queue_id'")
    entry["forbid_flee"] = forbid
    return {"queue_id": qid, "forbid": forbid, "_audience": [entry["player"]]}


def invalidate_proxies(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    """IS-39: in the middle and late game proxy orders for idle players may be declared
    invalid ("players": [...] or "all_idle": true)."""
    chosen: list[str] = []
    if a.get("all_idle"):
        day = int(ctx.state["day"])
        chosen = [
            pid
            for pid in ctx.alive_ids()
            if day - int(ctx.player(pid)["last_own_order_day"]) >= ctx.s.proxy_idle_days
        ]
    players = a.get("players", [])
    if not isinstance(players, list):
        raise _bad("'players' must be a list")
    for pid in players:
        if not isinstance(pid, str) or pid not in ctx.state["players"]:
            raise _bad("'players' must be player ids")
        chosen.append(pid)
    valid = bool(a.get("restore", False))
    current = set(ctx.state["proxies_invalid"])
    current = current - set(chosen) if valid else current | set(chosen)
    ctx.state["proxies_invalid"] = [p for p in ctx.state["player_order"] if p in current]
    return {"players": sorted(set(chosen)), "invalid": not valid, "_audience": sorted(set(chosen))}


def adjust_stamina(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    pid, delta = _pid(ctx, a), _int(a, "delta")
    p = ctx.player(pid)
    p["stamina"] = max(0, int(p["stamina"]) + delta)
    return {"player": pid, "delta": delta, "_audience": [pid]}


def adjust_power(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    pid, delta = _pid(ctx, a), _int(a, "delta")
    p = ctx.player(pid)
    p["power"] = max(0, int(p["power"]) + delta)
    check_death(ctx, pid, "director")
    return {"player": pid, "delta": delta, "alive": p["alive"], "_audience": [pid]}


def adjust_food(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    pid, delta = _pid(ctx, a), _int(a, "delta")
    p = ctx.player(pid)
    p["food"] = max(0, int(p["food"]) + delta)
    return {"player": pid, "delta": delta, "_audience": [pid]}


def set_faction(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    """IS-38: factions form when the director's conditions are met."""
    pid = _pid(ctx, a)
    faction = a.get("faction")
    if not isinstance(faction, str) or not faction:
        raise _bad("'faction' must be a non-empty string")
    ctx.player(pid)["faction"] = faction
    return {"player": pid, "faction": faction, "_audience": [pid]}


def kill_player(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    pid = _pid(ctx, a)
    kill(ctx, pid, str(a.get("cause", "director")))
    return {"player": pid, "_audience": [pid]}


def announce(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    msg = a.get("text")
    if not isinstance(msg, str) or not msg:
        raise _bad("'text' must be a non-empty string")
    entry = {"day": ctx.state["day"], "text": msg}
    ctx.state["announcements"].append(entry)
    ctx.emit("announcement", entry, AUDIENCE_PUBLIC)
    return {"text": msg, "_audience": []}


def end_game(ctx: Ctx, a: Mapping[str, Any]) -> JSON:
    ctx.state["status"] = "finished"
    ctx.finished = True
    ctx.emit("game_over", {"survivors": ctx.alive_ids(), "by": "director"}, AUDIENCE_PUBLIC)
    return {"_audience": []}


ACTIONS: dict[str, Callable[[Ctx, Mapping[str, Any]], JSON]] = {
    "resolve_story": resolve_story,
    "grant_item": grant_item,
    "take_item": take_item,
    "set_ill": set_ill,
    "cure": cure,
    "move_player": move_player,
    "forbid_flee": forbid_flee,
    "invalidate_proxies": invalidate_proxies,
    "adjust_stamina": adjust_stamina,
    "adjust_power": adjust_power,
    "adjust_food": adjust_food,
    "set_faction": set_faction,
    "kill_player": kill_player,
    "announce": announce,
    "end_game": end_game,
}


def handle_director(ctx: Ctx, payload: Mapping[str, Any]) -> None:
    action = payload.get("action")
    if action not in ACTIONS:
        raise violation("unknown_action", None, action=str(action))
    result = ACTIONS[str(action)](ctx, payload)
    concerned = [str(x) for x in result.pop("_audience", [])]
    args = {k: v for k, v in payload.items() if k != "action"}
    ctx.emit(
        "director_action",
        {"action": action, "args": args, "result": result},
        *director_and(*concerned),
    )
    ctx.reply["result"] = result
