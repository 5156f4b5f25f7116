"""First Strike (先攻, TB-49): before the resolution damage (or before the moves, by the
setting ``first_strike_timing``) its unit strikes the facing one; simultaneous, from the
troops after the moves, no penetration; an annihilation counts by the setting
``first_strike_annihilates``."""

from __future__ import annotations

from app.rules.team_battle.fight import Round
from app.rules.team_battle.forces import SIDE_NAMES, quarter_band_top, roll


def first_strikes(fight: Round) -> list[int]:
    """TB-49: simultaneous, from post-move troops; no penetration. Returns units
    annihilated per side (counted for TB-53 when the setting says so)."""
    n = fight.n
    before = [list(fight.troops[0]), list(fight.troops[1])]
    received = [[0] * n, [0] * n]
    for s in (0, 1):
        o = 1 - s
        for i in range(n):
            if not fight.sides[s].first_strike[i]:
                continue
            if before[s][i] == 0 or before[o][i] == 0:
                fight.note("first_strike", s, i, None, "no_target" if before[s][i] else "no_unit")
                continue
            reason = fight.no_damage(s, i)
            if reason is not None:
                fight.note("first_strike", s, i, None, reason)
                continue
            top = quarter_band_top(before[s][i], fight.rules.quarter_up)
            raw = roll(1, top, fight.rules.dice, fight.rng)
            damage, applied, _ = fight.modify(raw, s, i, False, before[o][i] - received[o][i])
            received[o][i] += damage
            if fight.log is not None:
                fight.log.append(
                    {
                        "kind": "first_strike",
                        "side": SIDE_NAMES[s],
                        "slot": i + 1,
                        "band": [1, top],
                        "roll": raw,
                        "modifiers": applied,
                        "damage": damage,
                    }
                )
    annihilated = [0, 0]
    for s in (0, 1):
        for i in range(n):
            if received[s][i]:
                fight.troops[s][i] = before[s][i] - received[s][i]
                if fight.troops[s][i] == 0 and fight.rules.first_strike_annihilates:
                    annihilated[s] += 1
                    fight.annihilate(s, i, "first_strike")
    return annihilated
