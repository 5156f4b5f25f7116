"""Team Battle resolution throughput: rounds resolved per second on one core.

Run: ``python bench/team_battle_engine.py``. Prints three figures measured in the same
run — the real resolution function (as ``apply`` uses it) with and without its event log,
the full ``apply`` path for a phase close that resolves a round, and a baseline loop that
draws as many random ints as a round does — plus whether the target is met.
Target: ≥ 20,000 rounds/s (an odds preview of 10,000 simulated rounds in < 0.5 s).
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules.base import DIRECTOR, Actor, Player, Step, step_rng  # noqa: E402
from app.rules.team_battle import RULESET, TeamBattleSettings  # noqa: E402
from app.rules.team_battle.resolve import (  # noqa: E402
    ResolutionRules,
    SideForces,
    resolve_round,
)

TARGET_ROUNDS_PER_SECOND = 20_000
_NOW = datetime(2026, 3, 1, tzinfo=UTC)


def mixed_round() -> tuple[SideForces, SideForces]:
    """A five-slot round with a mix of orders on both sides."""
    a = SideForces.plain([4, 11, 4, 6, 5], 150, 150)
    b = SideForces.plain([6, 6, 7, 5, 6], 150, 150)
    a.gathers.append(("gather", 3, None, 2))  # A gathers into slot 4
    a.hold[0] = True
    a.first_strike[1] = True
    a.counter[2] = True
    b.retreat[0] = True
    b.stand_firm[1] = True
    a.pursuit[0] = True
    b.blood_battle[4] = True
    b.counter[3] = True
    return a, b


def rate(label: str, rounds: int, seconds: float) -> float:
    per_second = rounds / seconds
    print(f"{label:<46} {per_second:>12,.0f} rounds/s  ({seconds * 1e6 / rounds:7.2f} µs each)")
    return per_second


def bench_resolve(rounds: int, with_log: bool) -> float:
    a, b = mixed_round()
    rules = ResolutionRules()
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(rounds):
        resolve_round(a, b, rules, rng, [] if with_log else None)
    return time.perf_counter() - start


def rolls_per_round() -> int:
    a, b = mixed_round()
    counter = _CountingRandom(1)
    resolve_round(a, b, ResolutionRules(), counter, None)
    return counter.calls


class _CountingRandom(random.Random):
    calls = 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return super().randint(a, b)


def bench_baseline(rounds: int, draws: int) -> float:
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(rounds):
        for _ in range(draws):
            rng.randint(1, 6)
    return time.perf_counter() - start


def battle_state() -> dict[str, Any]:
    """A full game state in round 1's battle phase with standing orders on both sides."""
    settings = TeamBattleSettings(battle_seconds=None, response_seconds=None)
    roster = [Player("a1", "Alice", "A"), Player("b1", "Bob", "B")]
    state = RULESET.initial_state(settings, roster)
    seq = 0

    def step(kind: str, actor: Actor, payload: dict[str, Any]) -> None:
        nonlocal state, seq
        seq += 1
        sid = f"s{seq}"
        state = RULESET.apply(
            state, Step(sid, kind, actor, payload), step_rng("b", sid), _NOW
        ).state

    players = {"A": Actor("player", "a1", "A"), "B": Actor("player", "b1", "B")}
    step("start", DIRECTOR, {})
    step(
        "order",
        players["A"],
        {"order_id": "d1", "order": {"type": "deploy", "troops": [4, 7, 8, 6, 5]}},
    )
    step(
        "order",
        players["B"],
        {"order_id": "d2", "order": {"type": "deploy", "troops": [6, 6, 7, 5, 6]}},
    )
    step("director", DIRECTOR, {"action": "close_phase"})
    step(
        "order",
        players["A"],
        {
            "order_id": "c1",
            "order": {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]},
        },
    )
    step("order", players["B"], {"order_id": "c2", "order": {"type": "counter", "slot": 4}})
    step("director", DIRECTOR, {"action": "close_phase"})
    step("order", players["A"], {"order_id": "b1", "order": {"type": "first_strike", "slot": 2}})
    step("order", players["B"], {"order_id": "b2", "order": {"type": "stand_firm", "slot": 2}})
    return state


def bench_apply(rounds: int) -> float:
    state = battle_state()
    close = Step("close", "director", DIRECTOR, {"action": "close_phase"})
    start = time.perf_counter()
    for i in range(rounds):
        RULESET.apply(state, close, random.Random(i), _NOW)
    return time.perf_counter() - start


def main() -> None:
    rounds = 20_000
    draws = rolls_per_round()
    print(f"Team Battle resolution, 5 slots, mixed orders; {rounds:,} rounds; {draws} rolls/round")
    bench_resolve(1_000, False)  # warm up
    fast = rate("resolve_round (no event log)", rounds, bench_resolve(rounds, False))
    logged = rate("resolve_round (with event log, as apply)", rounds, bench_resolve(rounds, True))
    full_rounds = 2_000
    full = rate(
        "apply(close_phase) incl. state copy + events", full_rounds, bench_apply(full_rounds)
    )
    base = rate(f"baseline: {draws} × rng.randint per round", rounds, bench_baseline(rounds, draws))
    print(
        f"ratio resolve_round / baseline: {fast / base:.2f}×; logged: {logged / base:.2f}×; "
        f"apply: {full / base:.3f}×"
    )
    preview = 10_000 / fast
    met = fast >= TARGET_ROUNDS_PER_SECOND
    print(f"odds preview of 10,000 rounds: {preview:.3f} s")
    print(f"target ≥ {TARGET_ROUNDS_PER_SECOND:,} rounds/s: {'MET' if met else 'NOT MET'}")


if __name__ == "__main__":
    main()
