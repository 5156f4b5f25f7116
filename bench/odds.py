"""The odds preview (胜算预估): 10,000 simulated rounds, from a player's view.

Run: ``python bench/odds.py``. Builds a real game through the engine to its battle
phase (both sides with standing orders, some known to the other side and some not),
then times ``odds.preview`` for 10,000 rounds on player A's view — exactly what the
player page computes — beside the bare ``resolve_round`` loop on the same forces.
Prints the best of a few runs and whether the target is met.
Also times the preview as the page runs it: when the dice can fall in at most 2,000
ways, every way is resolved once and weighted exactly instead of sampled.
Target: 10,000 rounds within 0.3 s.
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from app.rules.base import DIRECTOR, Actor, Player, Step, Viewer, step_rng  # noqa: E402
from app.rules.team_battle import RULESET, TeamBattleSettings  # noqa: E402
from app.rules.team_battle.odds import known_forces, preview, rules_of  # noqa: E402
from app.rules.team_battle.resolve import resolve_round  # noqa: E402

ROUNDS = 10_000
TARGET_SECONDS = 0.3
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def battle_phase_game() -> dict[str, object]:
    roster = [Player("a", "A", "A"), Player("b", "B", "B")]
    state = RULESET.initial_state(TeamBattleSettings(), roster)
    seq = 0

    def step(kind: str, actor: Actor, payload: dict[str, object] | None = None) -> None:
        nonlocal state, seq
        seq += 1
        s = Step(id=f"s{seq}", kind=kind, actor=actor, payload=payload or {})
        state = RULESET.apply(state, s, step_rng("bench", s.id), NOW).state

    a, b = Actor("player", "a", "A"), Actor("player", "b", "B")
    step("start", DIRECTOR)
    step("order", a, {"order_id": "o1", "order": {"type": "deploy", "troops": [10, 2, 6, 6, 6]}})
    step("order", b, {"order_id": "o2", "order": {"type": "deploy", "troops": [4, 8, 6, 6, 6]}})
    step("ready", a)
    step("ready", b)
    step("order", a, {"order_id": "o3", "order": {"type": "counter", "slot": 2}})
    step(
        "order",
        b,
        {
            "order_id": "o4",
            "order": {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 2}]},
        },
    )
    step("ready", a)
    step("ready", b)
    step(
        "order", b, {"order_id": "o5", "order": {"type": "stand_firm", "slot": 4}}
    )  # hidden from A
    return state


def best(run: object, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    state = battle_phase_game()
    view = RULESET.view(state, Viewer("player", "a", "A"))
    draft = [{"type": "stand_firm", "slot": 2}]

    def sampled() -> dict[str, Any] | None:
        return preview(view, "A", draft, random.Random(1), ROUNDS, enumerate_up_to=0)

    def as_the_page() -> dict[str, Any] | None:
        return preview(view, "A", draft, random.Random(1), ROUNDS)

    result, exact = sampled(), as_the_page()
    assert result is not None and result["rounds"] == ROUNDS and not result["exact"]
    assert exact is not None and exact["exact"]
    exact_seconds = best(as_the_page)
    known = known_forces(view, "A", draft)
    assert known is not None
    a, b, _own, _enemy = known  # the very forces the preview resolves
    rules = rules_of(view["settings"])
    rng = random.Random(1)

    def bare_loop() -> None:
        for _ in range(ROUNDS):
            resolve_round(a, b, rules, rng)

    # Interleaved, best of each: the machine is shared, and this keeps both under the
    # same conditions.
    runs = [(best(sampled, 1), best(bare_loop, 1)) for _ in range(7)]
    seconds, bare = min(r[0] for r in runs), min(r[1] for r in runs)
    print("odds preview from A's view (battle phase, 5 slots, orders on both sides)")
    print(
        f"Monte Carlo, {ROUNDS:,} rounds          {seconds:7.3f} s  ({seconds / ROUNDS * 1e6:5.1f} µs/round)"
    )
    print(
        f"bare resolve_round, {ROUNDS:,} rounds   {bare:7.3f} s  ({bare / ROUNDS * 1e6:5.1f} µs/round)"
    )
    print(f"ratio Monte Carlo / bare loop: {seconds / bare:.2f}x")
    print(f"as the page runs it (exact, every way the dice fall): {exact_seconds:.3f} s")
    print(
        f"expected morale A/B: Monte Carlo {result['expected_morale']['A']}/"
        f"{result['expected_morale']['B']}, exact {exact['expected_morale']['A']}/"
        f"{exact['expected_morale']['B']}"
    )
    met = seconds <= TARGET_SECONDS
    print(f"target {ROUNDS:,} rounds <= {TARGET_SECONDS} s: {'MET' if met else 'MISSED'}")


if __name__ == "__main__":
    main()
