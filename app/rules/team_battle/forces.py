"""What a round's resolution works on (TB-20 onwards), as compact structures: each side's
forces with its standing orders marked per slot, the settings resolution reads, what it
returns, and the damage bands and dice. Plain lists and ints, never the JSON state: this is
the hot path (odds previews simulate thousands of rounds)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

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
