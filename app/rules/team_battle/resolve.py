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

Sides are indices 0 (A) and 1 (B); slots are indices 0..n-1 here and 1-based in the log.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.rules.team_battle.state import MORALE_UNIT

SIDE_NAMES = ("A", "B")


@dataclass(slots=True)
class SideForces:
    """One side at the start of resolution: troops, morale and its standing orders.

    Per-slot flags are True where a standing, not seen-through order of this side
    applies to that slot.
    """

    troops: list[int]
    morale: int  # tenths (MORALE_UNIT)
    max_morale: int  # tenths
    retreat: list[bool]
    feigned_defeat: list[bool]
    pursuit: list[bool]
    hold: list[bool]
    stand_firm: list[bool]
    blood_battle: list[bool]
    counter: list[bool]
    encircle: list[bool]
    first_strike: list[bool]
    # (order type, slot index, from_left, from_right); None means "all" (TB-40 Default)
    gathers: list[tuple[str, int, int | None, int | None]] = field(default_factory=list)

    @classmethod
    def plain(cls, troops: list[int], morale: int, max_morale: int) -> SideForces:
        """A side with no orders."""
        n = len(troops)
        return cls(
            troops=list(troops),
            morale=morale,
            max_morale=max_morale,
            retreat=[False] * n,
            feigned_defeat=[False] * n,
            pursuit=[False] * n,
            hold=[False] * n,
            stand_firm=[False] * n,
            blood_battle=[False] * n,
            counter=[False] * n,
            encircle=[False] * n,
            first_strike=[False] * n,
        )


@dataclass(frozen=True, slots=True)
class ResolutionRules:
    """The settings resolution needs, unpacked once (see settings.py for rule IDs)."""

    dice: str = "random"
    double_band_lower_up: bool = True  # TB-21
    halve_up: bool = False  # TB-27
    hold_halves_exactly: bool = True  # TB-27
    morale_cap: bool = True  # TB-5
    penetration_counts_positive_only: bool = True  # TB-24
    blood_battle_doubles_penetration: bool = False  # TB-34
    first_strike_annihilates: bool = True  # TB-49
    first_strike_before_moves: bool = False  # TB-49 timing
    quarter_up: bool = False  # TB-22: ⌈troops/4⌉ instead of max(1, ⌊troops/4⌋)
    overflow_to_penetration: bool = False  # TB-25
    halve_before_doubling: bool = False  # order of effects
    whole_morale: bool = False  # TB-4


@dataclass(slots=True)
class RoundResult:
    troops: list[list[int]]  # per side, per slot, after resolution
    morale: list[int]  # per side, tenths, after TB-53 and the cap (TB-5)
    morale_delta: list[int]  # per side, tenths, before the cap
    penetration: list[int]  # per side, tenths, after the TB-24 multiplier
    annihilated: list[int]  # units of each side annihilated this round
    # hidden orders that took effect: (side index, order type, slot 1-based), in order
    revealed: list[tuple[int, str, int]]


def quarter_band_top(troops: int, up: bool = False) -> int:
    """TB-22: the band (1 – troops/4) tops out at max(1, ⌊troops/4⌋), or ⌈troops/4⌉ when
    the setting ``quarter_band_rounding`` is 'up'."""
    top = -(-troops // 4) if up else troops // 4
    return top if top > 1 else 1


def roll(lo: int, hi: int, dice: str, rng: random.Random) -> int:
    """One damage band. 'low'/'high' dice consume no randomness."""
    if hi <= lo:
        return lo
    if dice == "low":
        return lo
    if dice == "high":
        return hi
    return rng.randint(lo, hi)


class _Round:
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

    def gather_moves(self) -> None:
        """TB-40 / TB-47: neighbours' troops move in, in the order the side gave them."""
        n = self.n
        for s in (0, 1):
            troops = self.troops[s]
            for order_type, i, from_left, from_right in self.sides[s].gathers:
                left = right = 0
                if i > 0:
                    left = troops[i - 1] if from_left is None else min(from_left, troops[i - 1])
                    troops[i - 1] -= left
                    troops[i] += left
                if i < n - 1:
                    right = troops[i + 1] if from_right is None else min(from_right, troops[i + 1])
                    troops[i + 1] -= right
                    troops[i] += right
                if self.log is not None:
                    self.log.append(
                        {
                            "kind": "troops_gathered",
                            "side": SIDE_NAMES[s],
                            "order": order_type,
                            "slot": i + 1,
                            "from_left": left,
                            "from_right": right,
                            "slots": list(troops),
                        }
                    )

    def first_strikes(self) -> list[int]:
        """TB-49: simultaneous, from post-move troops; no penetration. Returns units
        annihilated per side (counted for TB-53 when the setting says so)."""
        n = self.n
        before = [list(self.troops[0]), list(self.troops[1])]
        received = [[0] * n, [0] * n]
        for s in (0, 1):
            o = 1 - s
            for i in range(n):
                if not self.sides[s].first_strike[i]:
                    continue
                if before[s][i] == 0 or before[o][i] == 0:
                    self._note(
                        "first_strike", s, i, None, "no_target" if before[s][i] else "no_unit"
                    )
                    continue
                reason = self.no_damage(s, i)
                if reason is not None:
                    self._note("first_strike", s, i, None, reason)
                    continue
                top = quarter_band_top(before[s][i], self.rules.quarter_up)
                raw = roll(1, top, self.rules.dice, self.rng)
                damage, applied, _ = self.modify(raw, s, i, False, before[o][i] - received[o][i])
                received[o][i] += damage
                if self.log is not None:
                    self.log.append(
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
                    self.troops[s][i] = before[s][i] - received[s][i]
                    if self.troops[s][i] == 0 and self.rules.first_strike_annihilates:
                        annihilated[s] += 1
                        self._annihilated(s, i, "first_strike")
        return annihilated

    def judged_troops(self) -> list[list[int]]:
        """TB-50 Encircle and TB-48 Feigned Defeat doubling (when pursued)."""
        n = self.n
        judged = [list(self.troops[0]), list(self.troops[1])]
        for s in (0, 1):
            troops = self.troops[s]
            encircle = self.sides[s].encircle
            if not any(encircle):
                continue
            bonus = [0] * n
            zeroed = [False] * n
            for i in range(n):
                if encircle[i] and troops[i] > 0:
                    if i > 0:
                        bonus[i] += troops[i - 1]
                        zeroed[i - 1] = True
                    if i < n - 1:
                        bonus[i] += troops[i + 1]
                        zeroed[i + 1] = True
            for i in range(n):
                judged[s][i] = 0 if zeroed[i] and not encircle[i] else judged[s][i] + bonus[i]
        for s in (0, 1):
            o = 1 - s
            for i in range(n):
                if self.sides[s].feigned_defeat[i] and self.sides[o].pursuit[i]:
                    judged[s][i] *= 2
                    self.reveal(s, "feigned_defeat", i)  # it took effect as itself
        return judged

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
            self._note("damage", s, i, kind, reason)
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
            self._note("counter", o, i, None, reason)
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

    def _note(self, kind: str, s: int, i: int, case: str | None, reason: str) -> None:
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

    def _annihilated(self, s: int, i: int, by: str) -> None:
        if self.log is not None:
            self.log.append({"kind": "annihilated", "side": SIDE_NAMES[s], "slot": i + 1, "by": by})


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
    fight = _Round(a, b, rules, rng, log)
    if rules.first_strike_before_moves:
        annihilated = fight.first_strikes()
        fight.gather_moves()
    else:
        fight.gather_moves()
        annihilated = fight.first_strikes()
    judged = fight.judged_troops()
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
                    fight._annihilated(s, i, "resolution")

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
