"""``view``: the ONE place that decides what a viewer sees of an island game.

A player sees their own stats, the cells within their vision (IS-55) and their own orders;
never another player's stamina (IS-1), hidden move, assassination or guard. The public sees
the day, who is alive and the announcements; the director sees everything.
"""

from __future__ import annotations

from datetime import datetime

from app.rules.base import Viewer
from app.rules.island.core import (
    JSON,
    cell_busy,
    cell_of,
    effective_power,
    manhattan,
    max_stamina,
    settings_of,
    terrain_id,
    vision,
    weapon_for,
)
from app.rules.island.settings import IslandSettings


def _public_alive(state: JSON) -> tuple[list[JSON], list[JSON]]:
    announced = {d["player"] for d in state["deaths"] if d["announced"]}
    alive: list[JSON] = []
    dead: list[JSON] = []
    for pid in state["player_order"]:
        entry = {"id": pid, "name": state["players"][pid]["name"]}
        (dead if pid in announced else alive).append(entry)
    return alive, dead


def _base(state: JSON) -> JSON:
    s = settings_of(state)
    alive, dead = _public_alive(state)
    return {
        "ruleset": "island",
        "status": state["status"],
        "day": state["day"],
        "date": state["date"],
        "timezone": s.timezone,
        "pk_window_start": s.pk_window_start,
        "deep_night_start": s.deep_night_start,
        "width": s.width,
        "height": s.height,
        "players": alive,
        "dead": dead,
        "announcements": list(state["announcements"]),
        "public_challenges": _public_challenges(state) if s.pk_public else [],
    }


def _local(state: JSON, s: object) -> str | None:
    """The game's local time at the last step (IS-3), for clients without a clock."""
    from zoneinfo import ZoneInfo

    as_of = state.get("as_of")
    if not as_of:
        return None
    tz = ZoneInfo(str(getattr(s, "timezone", "UTC")))
    return datetime.fromisoformat(str(as_of)).astimezone(tz).isoformat()


def _public_challenges(state: JSON) -> list[JSON]:
    return [
        {
            "id": cid,
            "attackers": list(ch["attackers"]),
            "defenders": list(ch["defenders"]),
            "status": ch["status"],
            "winner": ch["winner"],
            "due_at": ch["due_at"],
        }
        for cid, ch in state["challenges"].items()
        if ch["status"] == "open" or ch["day"] == state["day"]
    ]


def _player_view(state: JSON, pid: str) -> JSON:
    s = settings_of(state)
    out = _base(state)
    p = state["players"].get(pid)
    if p is None:
        return out
    here = cell_of(p)
    radius = vision(s, p) if p["alive"] else 0
    cells = []
    if p["alive"] and state["status"] != "setup":
        for y in range(max(1, here[1] - radius), min(s.height, here[1] + radius) + 1):
            for x in range(max(1, here[0] - radius), min(s.width, here[0] + radius) + 1):
                c = (x, y)
                if manhattan(c, here) > radius:
                    continue
                cells.append(_cell(state, c))
    out.update(
        {
            "me": pid,
            "name": p["name"],
            "position": list(here) if p["at"] is not None else None,
            "stamina": p["stamina"],
            "max_stamina": max_stamina(p),
            "power": effective_power(p),
            "base_power": p["power"],
            "hunger": p["hunger"],
            "ill": p["ill"],
            "alive": p["alive"],
            "food": p["food"],
            "inventory": dict(sorted(p["inventory"].items())),
            "weapon_uses": {k: list(v) for k, v in sorted(p["uses"].items())},
            **_weapons(s, p),
            "vision": radius,
            "faction": p["faction"],
            "flee_if_lose": p["flee_if_lose"],
            "debt": p["debt"],
            "debt_available": {k: not v for k, v in p["debt_used"].items()},
            "visible_cells": cells,
            "orders": [
                _own_order(o)
                for o in state["orders"].values()
                if o["player"] == pid and o["status"] in ("pending", "held")
            ],
            "challenges": [
                {
                    "id": cid,
                    "at": list(ch["at"]),
                    "attackers": list(ch["attackers"]),
                    "defenders": list(ch["defenders"]),
                    "due_at": ch["due_at"],
                    "forbid_flee": ch["forbid_flee"],
                }
                for cid, ch in state["challenges"].items()
                if ch["status"] == "open"
                and manhattan(cell_of({"at": ch["at"]}), here) <= radius
                and p["alive"]
            ],
            "stories": [
                {"id": q["id"], "title": q["title"], "status": q["status"], "text": q.get("text")}
                for q in state["story_queue"]
                if q["player"] == pid
            ],
        }
    )
    return out


def _weapons(s: IslandSettings, p: JSON) -> JSON:
    """IS-37: the weapon that counts — the player's choice, else the largest power bonus —
    without limited-use weapons, and the one an order with ``use_weapon`` fights with."""
    return {
        "equipped": weapon_for(s, p, use_limited=False),
        "equipped_for_use_weapon": weapon_for(s, p, use_limited=True),
        "equipped_choice": p["equipped"],
    }


def _own_order(o: JSON) -> JSON:
    keep = (
        "id",
        "type",
        "status",
        "target",
        "path",
        "follow",
        "target_moved",
        "dest",
        "challenge",
        "debt",
    )
    return {k: o[k] for k in keep if k in o}


def _cell(state: JSON, c: tuple[int, int]) -> JSON:
    s = settings_of(state)
    players = []
    for pid in state["player_order"]:
        q = state["players"][pid]
        if q["alive"] and cell_of(q) == c:
            actions = []
            for cid, ch in state["challenges"].items():
                if ch["status"] == "open" and (pid in ch["attackers"] or pid in ch["defenders"]):
                    actions.append({"pk": cid})
            for entry in state["story_queue"]:
                if entry["status"] == "open" and entry["player"] == pid:
                    actions.append({"story": True})
            players.append({"id": pid, "name": q["name"], "visible_actions": actions})
    monsters = [
        {"id": m["id"], "kind": m["kind"], "count": m["count"]}
        for m in state["monsters"].values()
        if m["count"] > 0 and tuple(m["at"]) == c
    ]
    return {
        "at": list(c),
        "terrain": terrain_id(s, c),
        "players": players,
        "monsters": monsters,
        "busy": cell_busy(state, c),
    }


def _director_view(state: JSON) -> JSON:
    out = _base(state)
    # The time of the last step changes with every hidden order, so only the director
    # sees it: in a player's or the public view it would reveal that someone acted, and
    # when (README "Secrets hold": nothing leaks through any endpoint, error, timing or count).
    out["as_of"] = state.get("as_of")
    out["local_time"] = _local(state, settings_of(state))
    players = {}
    for pid in state["player_order"]:
        p = state["players"][pid]
        players[pid] = {
            **p,
            "effective_power": effective_power(p),
            "max_stamina": max_stamina(p),
            **_weapons(settings_of(state), p),
        }
    out.update(
        {
            "all_players": players,
            "monsters": state["monsters"],
            "orders": state["orders"],
            "challenges": state["challenges"],
            "story_queue": state["story_queue"],
            "deaths": state["deaths"],
            "proxies_invalid": state["proxies_invalid"],
        }
    )
    return out


def view(state: JSON, viewer: Viewer) -> JSON:
    import copy

    if viewer.role == "director":
        return copy.deepcopy(_director_view(state))
    if viewer.role == "player" and viewer.player_id is not None:
        return _player_view(state, viewer.player_id)
    return _base(state)


def local_time_info(state: JSON, now: datetime) -> JSON:
    """Local time facts for a client that passes the current time (not part of view)."""
    from app.rules.island.core import in_window, is_deep_night, local_now

    s = settings_of(state)
    return {
        "local_time": local_now(s, now).isoformat(),
        "pk_window": in_window(s, now, s.pk_window_start),
        "deep_night": is_deep_night(s, now),
    }
