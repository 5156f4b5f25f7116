"""Engine-only timing of the island 24:00 resolution (no database, no web).

Prints: one game with 200 players and 100 assassination orders; 500 games of 12 players
with a few assassinations each, resolved one after another; and a baseline measured in the
same run (the same midnights with no orders), with the ratio.
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules.base import DIRECTOR, SYSTEM, Actor, Player, Step, step_rng  # noqa: E402
from app.rules.island import RULESET, IslandSettings  # noqa: E402
from app.rules.island.core import JSON  # noqa: E402

DAY = date(2024, 6, 1)
TZ = ZoneInfo("Asia/Shanghai")


def _at(h: int, d: date = DAY) -> datetime:
    return datetime.combine(d, datetime.min.time(), tzinfo=TZ).replace(hour=h).astimezone(UTC)


def _game(n_players: int, n_assassinations: int, side: int, seed: str) -> JSON:
    """A started game with ``n_players`` spread over the map and the orders posted."""
    settings = IslandSettings.model_validate(
        {
            "width": side,
            "height": side,
            "terrains": {"plain": {"encounter_chance": 0.1, "monster_table": [{"kind": "wolf"}]}},
            "monster_kinds": {"wolf": {"power": 2, "attack_chance": 0.5}},
            "start_positions": {
                str(i + 1): [1 + (i // 2) % side, 1 + (i // (2 * side)) % side]
                for i in range(n_players)
            },
            "base_vision": 1,
        }
    )
    roster = [Player(id=f"p{i}", name=f"P{i}") for i in range(n_players)]
    state = RULESET.initial_state(settings, roster)
    state = RULESET.apply(state, Step("s0", "start", DIRECTOR), step_rng(seed, "s0"), _at(10)).state
    posted = 0
    i = 0
    while posted < n_assassinations and i < 10 * n_players:
        assassin = f"p{i % n_players}"
        target = f"p{(i + 1) % n_players}"
        # pairs share a cell (same-cell order); every third order follows instead (a move)
        body: dict[str, object] = {"type": "assassinate", "target": target}
        if i % 3 == 2:
            body["follow"] = True
        step = Step(
            f"o{i}",
            "order",
            Actor(role="player", player_id=assassin),
            {"order_id": f"a{i}", "order": body},
        )
        i += 1
        try:
            state = RULESET.apply(state, step, step_rng(seed, step.id), _at(12)).state
        except Exception:
            continue
        posted += 1
    return state


def _midnight(state: JSON, seed: str) -> None:
    step = Step("m", "timer", SYSTEM, {"kind": "midnight", "key": "midnight", "data": {}})
    RULESET.apply(state, step, step_rng(seed, step.id), _at(0, DAY + timedelta(days=1)))


def _time(states: list[JSON]) -> float:
    t0 = time.perf_counter()
    for n, st in enumerate(states):
        _midnight(st, f"g{n}")
    return time.perf_counter() - t0


def main() -> None:
    big = _game(200, 100, 20, "big")
    big_empty = _game(200, 0, 20, "big")
    orders = sum(1 for o in big["orders"].values() if o["type"] == "assassinate")
    t_big = _time([big])
    t_big_base = _time([big_empty])
    many = [_game(12, 4, 4, f"g{n}") for n in range(500)]
    many_empty = [_game(12, 0, 4, f"g{n}") for n in range(500)]
    t_many = _time(many)
    t_many_base = _time(many_empty)
    print(f"one game, 200 players, {orders} assassinations: {t_big * 1000:.1f} ms")
    print(
        f"  baseline (same game, no orders):             {t_big_base * 1000:.1f} ms  ratio {t_big / t_big_base:.2f}x"
    )
    print(
        f"500 games x 12 players x 4 assassinations:     {t_many * 1000:.1f} ms ({t_many / 500 * 1000:.2f} ms/game)"
    )
    print(
        f"  baseline (500 games, no orders):             {t_many_base * 1000:.1f} ms  ratio {t_many / t_many_base:.2f}x"
    )


if __name__ == "__main__":
    main()
