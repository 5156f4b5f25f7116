"""Shared state helpers: the step context, derived stats, geometry, vision and time windows.

The state is a plain JSON dict (see ``engine.initial_state`` for its keys). Handlers work on a
fresh copy held by :class:`Ctx`; the input state is never touched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import orjson

from app.rules.base import (
    AUDIENCE_DIRECTOR,
    Event,
    StepContext,
    TimerSpec,
    player_audience,
)
from app.rules.island.messages import violation
from app.rules.island.settings import IslandSettings

JSON = dict[str, Any]
Cell = tuple[int, int]

DIRECTIONS: dict[str, tuple[int, int]] = {
    "up": (0, -1),
    "down": (0, 1),
    "left": (-1, 0),
    "right": (1, 0),
}

_SETTINGS_CACHE: dict[int, tuple[JSON, IslandSettings]] = {}


_SETTINGS_BY_TEXT: dict[bytes, IslandSettings] = {}


def settings_of(state: JSON) -> IslandSettings:
    """The parsed settings of a state, cached by the identity of the stored dict and, for
    a state freshly read from the database (a new dict each step), by its JSON text:
    parsing a 1,000-player scenario's start positions costs far more than writing it."""
    raw = state["settings"]
    hit = _SETTINGS_CACHE.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    try:
        text: bytes | None = orjson.dumps(raw, option=orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:  # not plain JSON (never stored so): parsed, not cached by text
        text = None
    parsed = _SETTINGS_BY_TEXT.get(text) if text is not None else None
    if parsed is None:
        parsed = IslandSettings.model_validate(raw)
        if text is not None:
            if len(_SETTINGS_BY_TEXT) > 64:
                _SETTINGS_BY_TEXT.clear()
            _SETTINGS_BY_TEXT[text] = parsed
    if len(_SETTINGS_CACHE) > 256:
        _SETTINGS_CACHE.clear()
    _SETTINGS_CACHE[id(raw)] = (raw, parsed)
    return parsed


@dataclass(kw_only=True)
class Ctx(StepContext):
    """Everything one ``apply`` call accumulates."""

    s: IslandSettings
    # per-player notes gathered during the 24:00 pipeline (IS-40 private reports)
    notes: dict[str, list[JSON]] = field(default_factory=dict)

    def emit(self, kind: str, data: JSON, *audience: str) -> None:
        self.events.append(Event(kind=kind, data=data, audience=tuple(audience)))

    def note(self, pid: str, item: JSON) -> None:
        self.notes.setdefault(pid, []).append(item)

    def next_id(self, prefix: str) -> str:
        self.state["seq"] = int(self.state.get("seq", 0)) + 1
        return f"{prefix}{self.state['seq']}"

    # --- lookups -------------------------------------------------------------------
    def player(self, pid: str) -> JSON:
        p: JSON = self.state["players"][pid]
        return p

    def alive_ids(self) -> list[str]:
        return [pid for pid in self.state["player_order"] if self.state["players"][pid]["alive"]]


def aud_players(*pids: str) -> list[str]:
    seen: list[str] = []
    for pid in pids:
        tag = player_audience(pid)
        if tag not in seen:
            seen.append(tag)
    return seen


def director_and(*pids: str) -> tuple[str, ...]:
    return (AUDIENCE_DIRECTOR, *aud_players(*pids))


# --- derived stats ------------------------------------------------------------------
def halvings(p: JSON) -> int:
    """IS-34/IS-35: illness halves once, every hunger level halves once more."""
    return (1 if p["ill"] else 0) + int(p["hunger"])


def effective_power(p: JSON) -> int:
    return max(0, int(p["power"])) >> halvings(p)


def max_stamina(p: JSON) -> int:
    return max(0, int(p["base_max_stamina"])) >> halvings(p)


def weapon_for(s: IslandSettings, p: JSON, use_limited: bool) -> str | None:
    """IS-37: the equipped weapon, by default the one with the largest power bonus; a
    limited-use weapon only when the order asks for it."""
    candidates = []
    for item_id, count in sorted(p["inventory"].items()):
        item = s.items.get(item_id)
        if item is None or not item.weapon or count <= 0:
            continue
        if item.uses is not None and not use_limited:
            continue
        candidates.append(item_id)
    if not candidates:
        return None
    chosen = p.get("equipped")
    if chosen in candidates:
        return str(chosen)
    if not s.auto_equip_best_weapon:
        return None
    return max(candidates, key=lambda i: (s.items[i].power_bonus, i))


def strength(s: IslandSettings, p: JSON, use_limited: bool = False) -> tuple[int, str | None]:
    """Power plus the weapon bonus (IS-61 "strength"); returns the weapon used too."""
    w = weapon_for(s, p, use_limited)
    bonus = s.items[w].power_bonus if w else 0
    return effective_power(p) + bonus, w


def spend_weapon_use(s: IslandSettings, p: JSON, item_id: str | None) -> None:
    """IS-37: each use of a limited weapon spends one; a spent weapon is gone."""
    if item_id is None or s.items[item_id].uses is None:
        return
    uses: list[int] = p["uses"].setdefault(item_id, [])
    if not uses:
        return
    uses[0] -= 1
    if uses[0] <= 0:
        uses.pop(0)
        p["inventory"][item_id] = int(p["inventory"].get(item_id, 0)) - 1
        if p["inventory"][item_id] <= 0:
            p["inventory"].pop(item_id, None)
            p["uses"].pop(item_id, None)
            if p.get("equipped") == item_id:
                p["equipped"] = None


def add_items(
    s: IslandSettings, p: JSON, item_id: str, count: int, uses: list[int] | None = None
) -> None:
    p["inventory"][item_id] = int(p["inventory"].get(item_id, 0)) + count
    limit = s.items[item_id].uses
    if limit is not None:
        lst: list[int] = p["uses"].setdefault(item_id, [])
        lst.extend(uses if uses is not None else [limit] * count)
        lst.sort()


def remove_items(s: IslandSettings, p: JSON, item_id: str, count: int) -> list[int] | None:
    """Remove ``count`` units; returns the uses left of removed limited units (fullest)."""
    p["inventory"][item_id] = int(p["inventory"].get(item_id, 0)) - count
    taken: list[int] | None = None
    if s.items[item_id].uses is not None:
        lst: list[int] = p["uses"].setdefault(item_id, [])
        taken = lst[len(lst) - count :]
        del lst[len(lst) - count :]
    if p["inventory"][item_id] <= 0:
        p["inventory"].pop(item_id, None)
        p["uses"].pop(item_id, None)
        if p.get("equipped") == item_id:
            p["equipped"] = None
    return taken


# --- geometry and vision ------------------------------------------------------------
def cell_of(p: JSON) -> Cell:
    return (int(p["at"][0]), int(p["at"][1]))


def inside(s: IslandSettings, c: Cell) -> bool:
    return 1 <= c[0] <= s.width and 1 <= c[1] <= s.height


def neighbour(c: Cell, direction: str) -> Cell:
    dx, dy = DIRECTIONS[direction]
    return (c[0] + dx, c[1] + dy)


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def terrain_id(s: IslandSettings, c: Cell) -> str:
    for cell in s.cells:
        if cell.at == c:
            return cell.terrain
    return s.default_terrain


def vision(s: IslandSettings, p: JSON) -> int:
    """IS-55: base vision + the terrain's bonus + the best item bonus carried."""
    item_bonus = 0
    for item_id, count in p["inventory"].items():
        item = s.items.get(item_id)
        if item is not None and count > 0:
            item_bonus = max(item_bonus, item.vision_bonus)
    return s.base_vision + s.terrains[terrain_id(s, cell_of(p))].vision_bonus + item_bonus


def sees(s: IslandSettings, p: JSON, c: Cell) -> bool:
    return bool(p["alive"]) and manhattan(cell_of(p), c) <= vision(s, p)


def watchers(ctx: Ctx, *cells: Cell) -> list[str]:
    """Alive players who can see any of ``cells`` (IS-55), in roster order."""
    out = []
    for pid in ctx.alive_ids():
        p = ctx.player(pid)
        if any(sees(ctx.s, p, c) for c in cells):
            out.append(pid)
    return out


def players_at(ctx: Ctx, c: Cell) -> list[str]:
    return [pid for pid in ctx.alive_ids() if cell_of(ctx.player(pid)) == c]


def open_challenge_of(state: JSON, pid: str) -> str | None:
    for cid, ch in state["challenges"].items():
        if ch["status"] == "open" and (pid in ch["attackers"] or pid in ch["defenders"]):
            return str(cid)
    return None


def cell_busy(state: JSON, c: Cell) -> bool:
    """IS-11: a cell is busy while a story event or a PK is running there."""
    for ch in state["challenges"].values():
        if ch["status"] == "open" and tuple(ch["at"]) == c:
            return True
    return any(q["status"] == "open" and tuple(q["at"]) == c for q in state["story_queue"])


# --- time ---------------------------------------------------------------------------
def parse_hhmm(v: str) -> time:
    h, m = v.split(":")
    return time(int(h), int(m))


def local_now(s: IslandSettings, now: datetime) -> datetime:
    return now.astimezone(ZoneInfo(s.timezone))


def local_to_utc(s: IslandSettings, d: date, t: time) -> datetime:
    """A local wall time on a local date as an aware UTC datetime (zoneinfo handles DST)."""
    return datetime.combine(d, t, tzinfo=ZoneInfo(s.timezone)).astimezone(UTC)


def midnight_after(s: IslandSettings, d: date) -> datetime:
    """24:00 at the end of local date ``d`` (= 00:00 of the next local date), in UTC."""
    return local_to_utc(s, d + timedelta(days=1), time(0, 0))


def in_window(s: IslandSettings, now: datetime, start: str) -> bool:
    """True from ``start`` local time until 24:00 (IS-3)."""
    return local_now(s, now).time() >= parse_hhmm(start)


def is_deep_night(s: IslandSettings, now: datetime) -> bool:
    return in_window(s, now, s.deep_night_start)


def day_timers(s: IslandSettings, d: date, now: datetime) -> list[TimerSpec]:
    """The 24:00 timer ending local date ``d`` and that day's monster checks still ahead."""
    out = [
        TimerSpec(
            kind="midnight",
            key="midnight",
            due_at=midnight_after(s, d),
            data={"date": d.isoformat()},
        )
    ]
    for t in s.monster_check_times:
        due = local_to_utc(s, d, parse_hhmm(t))
        if due > now:
            out.append(
                TimerSpec(
                    kind="monster_check", key=t, due_at=due, data={"date": d.isoformat(), "time": t}
                )
            )
    return out


def require(cond: bool, code: str, rule: str | None = None, **fmt: Any) -> None:
    if not cond:
        raise violation(code, rule, **fmt)
