"""One round's fighting (TB-20…TB-26): the working state of a resolution, the damage each
facing pair deals with its modifiers in the pipeline's order (Pursuit ×2, Blood Battle ×2,
Stand Firm ½, the cap, Counter), penetration (TB-23, TB-25 overflow, Hold ½, TB-24) and the
log of every roll. Sides are indices 0 (A) and 1 (B); slots are indices 0..n-1 here and
1-based in the log."""

from __future__ import annotations

import random
from typing import Any

from app.rules.team_battle.forces import (
    SIDE_NAMES,
    ResolutionRules,
    SideForces,
    quarter_band_top,
    roll,
)
from app.rules.team_battle.state import MORALE_UNIT


class Round:
    """The working state of one resolution; methods are the pipeline's steps."""

    __slots__ = ("sides", "rules", "rng", "log", "n", "troops", "revealed")

    def __init__(
        self,
        a: SideForces,
        b: SideForces,
        rules: ResolutionRules,
        rng: random.Random,
        log: list[dict[str, Any]] | None,
    ) -> None:
        self.sides = (a, b)
        self.rules = rules
        self.rng = rng
        self.log = log
        self.n = len(a.troops)
        self.troops = [list(a.troops), list(b.troops)]
        self.revealed: list[tuple[int, str, int]] = []

    def reveal(self, side: int, order_type: str, slot: int) -> None:
        key = (side, order_type, slot + 1)
        if key not in self.revealed:
            self.revealed.append(key)

    def no_damage(self, s: int, i: int) -> str | None:
        """Why side s's unit at slot i deals no damage this round (TB-42, TB-45, TB-48)."""
        me, them = self.sides[s], self.sides[1 - s]
        if me.retreat[i]:
            return "own_retreat"
        if them.retreat[i] and not me.pursuit[i]:
            return "facing_retreat"
        if me.feigned_defeat[i] and not them.pursuit[i]:
            return "own_feigned_defeat"
        if them.feigned_defeat[i] and not me.pursuit[i]:
            return "facing_feigned_defeat"
        return None

    def modify(
        self, raw: int, s: int, i: int, pursuing: bool, cap: int
    ) -> tuple[int, list[Any], int]:
        """Unit-damage modifiers in the pipeline's order; returns (damage, applied,
        overflow), overflow being what the cap at the remaining troops took away."""
        o = 1 - s
        damage = raw
        applied: list[Any] = []
        firm = self.sides[o].stand_firm[i]
        if firm and self.rules.halve_before_doubling:
            damage = self._stand_firm(damage, o, i, applied)
        if pursuing:
            damage *= 2
            applied.append(["pursuit", 2, damage])
        if self.sides[s].blood_battle[i]:
            damage *= 2
            applied.append(["blood_battle_dealer", 2, damage])
            self.reveal(s, "blood_battle", i)
        if self.sides[o].blood_battle[i]:
            damage *= 2
            applied.append(["blood_battle_receiver", 2, damage])
            self.reveal(o, "blood_battle", i)
        if firm and not self.rules.halve_before_doubling:
            damage = self._stand_firm(damage, o, i, applied)
        overflow = 0
        if damage > cap:
            overflow = damage - cap
            damage = cap
            applied.append(["cap", cap, damage])  # TB-25: the excess is lost (by default)
        return damage, applied, overflow

    def _stand_firm(self, damage: int, o: int, i: int, applied: list[Any]) -> int:
        """TB-51: halved, rounded as ``halving_rounding`` says (TB-27)."""
        damage = (damage + 1) // 2 if self.rules.halve_up else damage // 2
        applied.append(["stand_firm", "1/2", damage])
        self.reveal(o, "stand_firm", i)
        return damage

    def fight(self, judged: list[list[int]]) -> tuple[list[list[int]], list[list[int]], list[int]]:
        """TB-20…TB-26 per facing pair, all from the troops at the start of resolution.
        Returns (damage received per side/slot, penetration tenths per side/slot,
        penetrating units per side)."""
        n = self.n
        troops = self.troops
        rules = self.rules
        received = [[0] * n, [0] * n]
        penetration = [[0] * n, [0] * n]
        penetrating = [0, 0]
        morale = (self.sides[0].morale, self.sides[1].morale)
        for i in range(n):
            ta, tb = troops[0][i], troops[1][i]
            if ta == 0 and tb == 0:
                continue
            if ta == 0 or tb == 0:
                # TB-23: a unit facing an empty slot penetrates with its own troops.
                s = 0 if ta else 1
                if self.no_damage(s, i) is None:
                    self._penetrate(s, i, judged[s][i], 0, judged, penetration, penetrating)
                continue
            ja, jb = judged[0][i], judged[1][i]
            if ja == jb:
                # TB-22: the higher-morale side deals (1 – troops/4); equal morale: both.
                top = quarter_band_top(ja, rules.quarter_up)
                if morale[0] == morale[1]:
                    dealers: tuple[int, ...] = (0, 1)
                else:
                    dealers = (0,) if morale[0] > morale[1] else (1,)
                for s in dealers:
                    self._strike(s, i, 1, top, "equal", received, judged)
                continue
            s = 0 if ja > jb else 1
            o = 1 - s
            high, low = judged[s][i], judged[o][i]
            difference = high - low
            double = high >= 2 * low
            if double:  # TB-21
                lo = (difference + 1) // 2 if rules.double_band_lower_up else difference // 2
                kind = "double"
            else:  # TB-20
                lo, kind = 1, "higher"
            struck = self._strike(s, i, lo, difference, kind, received, judged)
            if struck is None:
                continue  # no damage at all, so no penetration either (TB-42)
            dealt, overflow = struck
            if dealt > 0 and self.sides[o].counter[i]:
                self._counter(o, i, received)
            if double:
                if not rules.overflow_to_penetration:
                    overflow = 0  # TB-25 Default: the excess is lost
                self._penetrate(s, i, difference, dealt, judged, penetration, penetrating, overflow)
        return received, penetration, penetrating

    def _strike(
        self,
        s: int,
        i: int,
        lo: int,
        hi: int,
        kind: str,
        received: list[list[int]],
        judged: list[list[int]],
    ) -> tuple[int, int] | None:
        """One unit's resolution damage; (dealt, overflow beyond the cap), or None when
        it deals none at all."""
        o = 1 - s
        reason = self.no_damage(s, i)
        if reason is not None:
            self.note("damage", s, i, kind, reason)
            return None
        raw = roll(lo, hi, self.rules.dice, self.rng)
        damage, applied, overflow = self.modify(
            raw, s, i, self.sides[s].pursuit[i], self.troops[o][i]
        )
        received[o][i] += damage
        if self.log is not None:
            self.log.append(
                {
                    "kind": "damage",
                    "side": SIDE_NAMES[s],
                    "slot": i + 1,
                    "case": kind,
                    "judged": [judged[s][i], judged[o][i]],
                    "band": [lo, hi],
                    "roll": raw,
                    "modifiers": applied,
                    "damage": damage,
                }
            )
        return damage, overflow

    def _counter(self, o: int, i: int, received: list[list[int]]) -> None:
        """TB-32: band (1 – own troops before that damage / 4), back at the higher unit."""
        s = 1 - o
        self.reveal(o, "counter", i)
        reason = self.no_damage(o, i)
        if reason is not None:
            self.note("counter", o, i, None, reason)
            return
        top = quarter_band_top(self.troops[o][i], self.rules.quarter_up)
        raw = roll(1, top, self.rules.dice, self.rng)
        damage, applied, _ = self.modify(raw, o, i, self.sides[o].pursuit[i], self.troops[s][i])
        received[s][i] += damage
        if self.log is not None:
            self.log.append(
                {
                    "kind": "counter",
                    "side": SIDE_NAMES[o],
                    "slot": i + 1,
                    "band": [1, top],
                    "roll": raw,
                    "modifiers": applied,
                    "damage": damage,
                }
            )

    def _penetrate(
        self,
        s: int,
        i: int,
        difference: int,
        dealt: int,
        judged: list[list[int]],
        penetration: list[list[int]],
        penetrating: list[int],
        overflow: int = 0,
    ) -> None:
        """TB-23 penetration of one unit, with TB-25's overflow (setting), Blood Battle
        (setting) and Hold ½."""
        o = 1 - s
        amount = difference - dealt
        if amount < 0:
            amount = 0  # doubled damage can exceed d; penetration never heals
        tenths = amount * MORALE_UNIT
        applied: list[Any] = []
        if overflow:
            tenths += overflow * MORALE_UNIT
            applied.append(["overflow", overflow, tenths / MORALE_UNIT])
        if tenths and self.rules.blood_battle_doubles_penetration and self.sides[s].blood_battle[i]:
            tenths *= 2
            applied.append(["blood_battle", 2, tenths / MORALE_UNIT])
            self.reveal(s, "blood_battle", i)
        if tenths and self.sides[o].hold[i]:
            if self.rules.hold_halves_exactly and not self.rules.whole_morale:
                tenths //= 2  # tenths are even here, so this is exact
            else:
                whole = tenths // MORALE_UNIT
                whole = (whole + 1) // 2 if self.rules.halve_up else whole // 2
                tenths = whole * MORALE_UNIT
            applied.append(["hold", "1/2", tenths / MORALE_UNIT])
            self.reveal(o, "hold", i)
        penetration[s][i] = tenths
        if tenths > 0 or not self.rules.penetration_counts_positive_only:
            penetrating[s] += 1
        if self.log is not None:
            self.log.append(
                {
                    "kind": "penetration",
                    "side": SIDE_NAMES[s],
                    "slot": i + 1,
                    "difference": difference,
                    "dealt": dealt,
                    "empty_slot": self.troops[o][i] == 0,
                    "modifiers": applied,
                    "penetration": tenths / MORALE_UNIT,
                }
            )

    def note(self, kind: str, s: int, i: int, case: str | None, reason: str) -> None:
        if self.log is not None:
            entry: dict[str, Any] = {
                "kind": "no_damage",
                "of": kind,
                "side": SIDE_NAMES[s],
                "slot": i + 1,
                "reason": reason,
            }
            if case is not None:
                entry["case"] = case
            self.log.append(entry)

    def annihilate(self, s: int, i: int, by: str) -> None:
        if self.log is not None:
            self.log.append({"kind": "annihilated", "side": SIDE_NAMES[s], "slot": i + 1, "by": by})
