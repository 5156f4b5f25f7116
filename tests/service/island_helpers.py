"""Helpers for the island service tests: local times, the example scenario, quiet overrides."""

from __future__ import annotations

import copy
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml
from httpx import AsyncClient

from app.clock import FakeClock
from app.scheduler import run_due_timers
from tests.service.helpers import Game, create_game, ok

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "island-example.yaml"
SHANGHAI = "Asia/Shanghai"
DAY1 = date(2026, 3, 10)  # a Tuesday; Asia/Shanghai has no DST


def local(day: int, h: int, m: int = 0, tz: str = SHANGHAI, first: date = DAY1) -> datetime:
    """Local wall time ``h:m`` of in-game day ``day`` (1-based) as aware UTC; ``h == 24``
    is the midnight ending that day."""
    d = first + timedelta(days=day - 1)
    if h == 24:
        d, h = d + timedelta(days=1), 0
    return datetime.combine(d, time(h, m), tzinfo=ZoneInfo(tz)).astimezone(UTC)


def example_text() -> str:
    return EXAMPLE.read_text(encoding="utf-8")


def example_settings() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(example_text())
    return copy.deepcopy(data["settings"])


def quiet_overrides() -> dict[str, Any]:
    """The example's terrains and resident monsters with every chance set to 0: no random
    encounters on moves (IS-50) and no evening attacks (IS-51), so outcomes are certain."""
    s = example_settings()
    terrains = {k: {**v, "encounter_chance": 0.0} for k, v in s["terrains"].items()}
    monsters = [{**m, "attack_chance": 0.0} for m in s["monsters"]]
    return {"terrains": terrains, "monsters": monsters}


async def run_at(http: AsyncClient, clock: FakeClock, when: datetime) -> int:
    """Set the fake clock to ``when`` and let the scheduler run whatever fell due."""
    clock.set(when)
    app = http.app  # type: ignore[attr-defined]
    return await run_due_timers(app.state.sessionmaker, clock)


async def island_game(
    http: AsyncClient,
    clock: FakeClock,
    names: list[str],
    settings: dict[str, Any] | None = None,
    start_at: datetime | None = None,
    scenario: Any = None,
    **extra: Any,
) -> Game:
    """The example scenario (as YAML text) with ``settings`` overrides, ``names`` added in
    order (roster index 1..n), started at ``start_at`` (default: day 1, 09:00 local)."""
    clock.set(start_at or local(1, 9))
    game = await create_game(
        http,
        "island",
        settings or {},
        scenario=example_text() if scenario is None else scenario,
        **extra,
    )
    for name in names:
        await game.add_player(name)
    await game.start()
    return game


def pid(game: Game, name: str) -> str:
    return str(game.players[name]["id"])


def cell(view: dict[str, Any], x: int, y: int) -> dict[str, Any] | None:
    for c in view["visible_cells"]:
        if c["at"] == [x, y]:
            return dict(c)
    return None


def names_in(view: dict[str, Any], x: int, y: int) -> list[str]:
    c = cell(view, x, y)
    assert c is not None, f"({x},{y}) is not visible"
    return sorted(p["name"] for p in c["players"])


def of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["kind"] == kind]


async def director(game: Game, action: str, **args: Any) -> dict[str, Any]:
    body = ok(await game.post("/director/actions", "director", {"action": action, **args}))
    return dict(body)
