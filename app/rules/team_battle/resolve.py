"""Battle resolution (战斗结算): one round's fighting on compact structures.

This is the hot path (odds previews simulate thousands of rounds), so it works on plain
lists and ints, never on the JSON state or pydantic. ``engine.apply`` builds the inputs
from the state and calls :func:`resolve_round`; the benchmark calls it the same way.

Pipeline (``docs/rules/team-battle.md``, "Order of effects"): Gather / Surprise moves →
First Strike (setting ``first_strike_timing`` swaps these two) → judged troops (Encircle,
Feigned-Defeat doubling) → resolution damage per facing pair: base band → Pursuit ×2 →
Blood Battle ×2 (dealer, then receiver) → Stand Firm ½ (``halve_before_doubling`` moves it
first) → cap at remaining troops → Counter → penetration (TB-23, TB-25 overflow, Hold ½,
TB-24) → annihilation (TB-53) → morale (TB-5) — victory is judged by :func:`judge_victory`
(TB-60).

The orders' own steps of the pipeline sit with the orders (``orders/battle.py``: Gather,
Surprise, Encircle, Feigned Defeat; ``orders/first_strike.py``); the fighting of a facing
pair is ``fight.py``; its inputs and outputs are ``forces.py``.
"""

from __future__ import annotations

import random
from typing import Any

from app.rules.team_battle.fight import Round
from app.rules.team_battle.forces import (
    SIDE_NAMES,
    ResolutionRules,
    RoundResult,
    SideForces,
    quarter_band_top,
    roll,
)
from app.rules.team_battle.orders.battle import gather_moves, judged_troops
from app.rules.team_battle.orders.first_strike import first_strikes
from app.rules.team_battle.state import MORALE_UNIT

__all__ = [
    "ResolutionRules",
    "RoundResult",
    "SideForces",
    "judge_victory",
    "quarter_band_top",
    "resolve_round",
    "roll",
]


def resolve_round(
    a: SideForces,
    b: SideForces,
    rules: ResolutionRules,
    rng: random.Random,
    log: list[dict[str, Any]] | None = None,
) -> RoundResult:
    """Resolve one round. Pure: the inputs are not mutated; all dice come from ``rng``
    in a fixed order (first strikes A then B by slot, then each slot's pair in order).
    Pass a list as ``log`` to receive every roll and modifier as JSON-safe dicts."""
    fight = Round(a, b, rules, rng, log)
    if rules.first_strike_before_moves:
        annihilated = first_strikes(fight)
        gather_moves(fight)
    else:
        gather_moves(fight)
        annihilated = first_strikes(fight)
    judged = judged_troops(fight)
    received, penetration, penetrating = fight.fight(judged)

    n = fight.n
    for s in (0, 1):
        troops = fight.troops[s]
        for i in range(n):
            if received[s][i]:
                before = troops[i]
                troops[i] = before - received[s][i] if received[s][i] < before else 0
                if troops[i] == 0:  # TB-25: never below 0; TB-53: annihilated
                    annihilated[s] += 1
                    fight.annihilate(s, i, "resolution")

    # TB-24: each side's total penetration × the number of its penetrating units.
    total_penetration = [sum(penetration[0]) * penetrating[0], sum(penetration[1]) * penetrating[1]]
    if log is not None:
        for s in (0, 1):
            if penetrating[s] or total_penetration[s]:
                log.append(
                    {
                        "kind": "penetration_total",
                        "side": SIDE_NAMES[s],
                        "sum": sum(penetration[s]) / MORALE_UNIT,
                        "units": penetrating[s],
                        "total": total_penetration[s] / MORALE_UNIT,
                    }
                )

    # TB-53 + TB-5: all morale changes of the round are summed, then capped.
    sides = fight.sides
    morale = [sides[0].morale, sides[1].morale]
    delta = [0, 0]
    for s in (0, 1):
        o = 1 - s
        fifth = sides[s].max_morale // 5
        if rules.whole_morale:
            fifth -= fifth % MORALE_UNIT  # TB-4 setting: ⌊max/5⌋ in whole morale
        delta[s] = -total_penetration[o] + (annihilated[o] - annihilated[s]) * fifth
        new = morale[s] + delta[s]
        if rules.morale_cap and delta[s] > 0:
            new = min(new, max(morale[s], sides[s].max_morale))
        if log is not None and (delta[s] or new != morale[s]):
            log.append(
                {
                    "kind": "morale_changed",
                    "side": SIDE_NAMES[s],
                    "penetration_received": total_penetration[o] / MORALE_UNIT,
                    "annihilated_enemy_units": annihilated[o],
                    "own_units_annihilated": annihilated[s],
                    "delta": delta[s] / MORALE_UNIT,
                    "before": morale[s] / MORALE_UNIT,
                    "after": new / MORALE_UNIT,
                    "capped": new != morale[s] + delta[s],
                }
            )
        morale[s] = new
    return RoundResult(
        troops=fight.troops,
        morale=morale,
        morale_delta=delta,
        penetration=total_penetration,
        annihilated=annihilated,
        revealed=fight.revealed,
    )


def judge_victory(
    morale: list[int],
    troops: list[int],
    draw_on_exact_tie: bool = True,
    both_out_of_troops_draw: bool = False,
) -> tuple[str | None, str | None]:
    """TB-60: (winner "A"/"B"/"draw" or None, reason) from morale (tenths) and total troops.

    A side loses when its morale ≤ 0 or its troops are 0. When both lose at once: a side
    whose morale reached 0 loses against one that only ran out of troops; both at ≤ 0
    morale: the more negative loses; both out of troops with morale left (silent in the
    rules): the lower morale loses, or by setting it is a draw; exactly equal: a draw, or
    by setting the side with more troops left wins.
    """
    broken = [morale[0] <= 0, morale[1] <= 0]
    wiped = [troops[0] == 0, troops[1] == 0]
    lost = [broken[0] or wiped[0], broken[1] or wiped[1]]
    if not lost[0] and not lost[1]:
        return None, None
    if lost[0] != lost[1]:
        loser = 0 if lost[0] else 1
        return SIDE_NAMES[1 - loser], "morale" if broken[loser] else "troops"
    if broken[0] != broken[1]:
        loser = 0 if broken[0] else 1
        return SIDE_NAMES[1 - loser], "morale_before_troops"
    if both_out_of_troops_draw and not broken[0]:
        return "draw", "both_out_of_troops"
    if morale[0] != morale[1]:
        loser = 0 if morale[0] < morale[1] else 1
        return SIDE_NAMES[1 - loser], "lower_morale"
    if not draw_on_exact_tie and troops[0] != troops[1]:
        return ("A" if troops[0] > troops[1] else "B"), "more_troops"
    return "draw", "exact_tie"
