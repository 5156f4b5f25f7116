"""Battle resolution, TB-20…TB-27, TB-53, TB-4/TB-5 and TB-60, on the resolution core.

Troops are given per slot; morale in tenths (150 = 15). ``dice="low"``/``"high"`` make
every band yield its bound, so outcomes are exact.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules.team_battle.resolve import (
    ResolutionRules,
    RoundResult,
    SideForces,
    judge_victory,
    resolve_round,
)


def fight(
    a: list[int],
    b: list[int],
    dice: str = "low",
    a_orders: dict[str, list[int]] | None = None,
    b_orders: dict[str, list[int]] | None = None,
    morale: tuple[int, int] = (150, 150),
    max_morale: tuple[int, int] = (150, 150),
    **rules: Any,
) -> tuple[RoundResult, list[dict[str, Any]]]:
    """Resolve one round; ``*_orders`` map an order flag to the 1-based slots it names."""
    sides = []
    for troops, orders, m, mx in (
        (a, a_orders, morale[0], max_morale[0]),
        (b, b_orders, morale[1], max_morale[1]),
    ):
        forces = SideForces.plain(troops, m, mx)
        for flag, slots in (orders or {}).items():
            if flag == "gathers":
                continue
            for slot in slots:
                getattr(forces, flag)[slot - 1] = True
        sides.append(forces)
    log: list[dict[str, Any]] = []
    result = resolve_round(
        sides[0], sides[1], ResolutionRules(dice=dice, **rules), random.Random(7), log
    )
    return result, log


def damage_entries(log: list[dict[str, Any]], kind: str = "damage") -> list[dict[str, Any]]:
    return [e for e in log if e["kind"] == kind]


@pytest.mark.parametrize(
    ("a", "b", "dice", "band", "damage"),
    [
        (7, 5, "low", [1, 2], 1),
        (7, 5, "high", [1, 2], 2),
        (9, 5, "high", [1, 4], 4),
        (6, 5, "high", [1, 1], 1),
    ],
)
def test_tb20_higher_unit_deals_one_to_difference(
    a: int, b: int, dice: str, band: list[int], damage: int
) -> None:
    """TB-20: If h > l: the higher unit deals damage from band (1 – d) to the lower unit."""
    result, log = fight([a], [b], dice)
    (hit,) = damage_entries(log)
    assert hit["side"] == "A" and hit["band"] == band and hit["damage"] == damage
    assert result.troops == [[a], [b - damage]]
    assert result.penetration == [0, 0]  # h < 2l: no penetration


@pytest.mark.parametrize(
    ("a", "b", "rounding", "band"),
    [
        (10, 4, "up", [3, 6]),
        (7, 2, "up", [3, 5]),  # ⌈5/2⌉ = 3
        (7, 2, "down", [2, 5]),
        (8, 4, "up", [2, 4]),  # exactly double counts (h ≥ 2l)
    ],
)
def test_tb21_double_strength_band(a: int, b: int, rounding: str, band: list[int]) -> None:
    """TB-21: If h ≥ 2l: the band is instead (d/2 – d). Default: the lower bound is ⌈d/2⌉."""
    _, log = fight([a], [b], "low", double_band_lower_up=rounding == "up")
    assert damage_entries(log)[0]["band"] == band
    assert damage_entries(log)[0]["damage"] == min(band[0], b)  # TB-25 cap


@pytest.mark.parametrize(
    ("troops", "morale", "dealers", "top"),
    [
        (8, (150, 100), ["A"], 2),
        (8, (100, 150), ["B"], 2),
        (8, (150, 150), ["A", "B"], 2),
        (3, (150, 150), ["A", "B"], 1),  # max(1, ⌊3/4⌋) = 1
        (13, (150, 140), ["A"], 3),
    ],
)
def test_tb22_equal_troops_higher_morale_deals(
    troops: int, morale: tuple[int, int], dealers: list[str], top: int
) -> None:
    """TB-22: If h = l: the side with higher morale deals damage from band (1 – troops/4)
    to the other; if morale is also equal, both units deal that damage to each other.
    Default: the upper bound is max(1, ⌊troops/4⌋)."""
    result, log = fight([troops], [troops], "high", morale=morale)
    hits = damage_entries(log)
    assert [h["side"] for h in hits] == dealers
    assert all(h["band"] == [1, top] for h in hits)
    # The higher dice give the band's top: each dealer takes exactly that from the other.
    assert result.troops == [
        [troops - (top if "B" in dealers else 0)],
        [troops - (top if "A" in dealers else 0)],
    ]
    assert result.penetration == [0, 0]


@pytest.mark.parametrize(("rounding", "taken"), [(False, 1), (True, 2)])
def test_tb22_quarter_band_rounding_setting(rounding: bool, taken: int) -> None:
    """TB-22 setting `quarter_band_rounding`: the band (1 – 6/4) tops out at
    max(1, ⌊1.5⌋) = 1 by default, at ⌈1.5⌉ = 2 with 'up' (also TB-32 and TB-49)."""
    result, _ = fight([6], [6], "high", morale=(150, 100), quarter_up=rounding)
    assert result.troops == [[6], [6 - taken]]
    # First Strike (TB-49) uses the same band: 6 strikes 9 for 1 (or 2); then B's 8 (or 7)
    # is the higher unit and deals d = 2 (or 1) back at the band's top.
    struck, _ = fight([6], [9], "high", a_orders={"first_strike": [1]}, quarter_up=rounding)
    assert struck.troops == ([[4], [8]] if taken == 1 else [[5], [7]])


def test_tb23_penetration_is_difference_minus_damage_dealt() -> None:
    """TB-23: the higher unit also deals penetration damage to the other side's morale:
    d − (damage actually dealt to the lower unit, after TB-25's cap)."""
    result, log = fight([10], [4], "low")  # d = 6, band [3, 6], low: 3 dealt
    (pen,) = damage_entries(log, "penetration")
    assert pen["penetration"] == 3
    assert result.penetration == [30, 0]
    assert result.morale == [150, 120]


def test_tb23_empty_slot_penetrates_with_own_troops() -> None:
    """TB-23: If a unit faces an empty slot (0 troops, no unit), its penetration damage
    = its own troops."""
    result, _ = fight([5, 1], [0, 1], "low")
    assert result.penetration == [50, 0]
    assert result.morale[1] == 100


@pytest.mark.parametrize(("positive_only", "multiplier"), [(True, 1), (False, 2)])
def test_tb24_penetration_multiplied_by_penetrating_units(
    positive_only: bool, multiplier: int
) -> None:
    """TB-24: Each side's total penetration damage this round is multiplied by the number
    of its units that caused penetration. Default: a unit counts only if its penetration
    damage is above 0."""
    # Slot 1: 10 vs 4 high → 6 dealt, capped at 4 → penetration 2.
    # Slot 2: 8 vs 4 high → 4 dealt (cap 4) → penetration 0.
    result, _ = fight([10, 8], [4, 4], "high", penetration_counts_positive_only=positive_only)
    assert result.penetration[0] == 20 * multiplier


def test_tb24_two_penetrating_units_double_the_total() -> None:
    """TB-24: two units penetrating 3 each: (3 + 3) × 2 = 12."""
    result, _ = fight([10, 10], [4, 4], "low")
    assert result.penetration == [120, 0]
    assert result.morale[1] == 150 - 120


def test_tb25_damage_capped_at_remaining_troops_excess_lost() -> None:
    """TB-25: Damage reduces the unit's troops; troops never go below 0. Default: damage
    beyond the remaining troops is lost (it is not added to penetration)."""
    result, _ = fight([20], [2], "high")  # d = 18, roll 18, only 2 troops to take
    assert result.troops == [[20], [0]]
    assert result.penetration[0] == 160  # 18 − 2 dealt; the other 16 rolled are lost
    assert result.morale[1] == 150 - 160 - 30  # and the annihilation (TB-53)


def test_tb25_overflow_to_penetration_setting() -> None:
    """TB-25 setting `damage_overflow="penetration"`: the 16 rolled beyond the lower
    unit's 2 troops are added to the penetration (16 + 16 = 32)."""
    result, _ = fight([20], [2], "high", overflow_to_penetration=True)
    assert result.troops == [[20], [0]]
    assert result.penetration[0] == 320
    # A unit that does not penetrate (h < 2l) still loses its overflow: 7 vs 5 with both
    # in Blood Battle, roll 2 × 4 = 8 > 5.
    lost, _ = fight(
        [7],
        [5],
        "high",
        a_orders={"blood_battle": [1]},
        b_orders={"blood_battle": [1]},
        overflow_to_penetration=True,
    )
    assert lost.troops[1] == [0] and lost.penetration == [0, 0]


def test_tb26_counter_uses_troops_at_start_of_resolution() -> None:
    """TB-26: all resolution damage of a round is computed from the troops at the start of
    resolution and applied simultaneously (Counter: 'its troops before that damage')."""
    result, log = fight([12], [8], "high", b_orders={"counter": [1]})
    (hit,) = damage_entries(log)
    (back,) = damage_entries(log, "counter")
    assert hit["damage"] == 4  # band (1 – 4)
    assert back["band"] == [1, 2]  # 8 // 4, not (8 − 4) // 4
    assert result.troops == [[10], [4]]


@pytest.mark.parametrize(("exact", "morale_after"), [(True, 135), (False, 140)])
def test_tb27_hold_halves_penetration_exactly(exact: bool, morale_after: int) -> None:
    """TB-27: halving rounds down (setting); a halved penetration may be fractional."""
    # 10 vs 4: d = 6, band [3, 6], low: 3 dealt, penetration 3 → Hold → 1.5 (or 1).
    result, _ = fight([10], [4], "low", b_orders={"hold": [1]}, hold_halves_exactly=exact)
    assert result.morale[1] == morale_after


@pytest.mark.parametrize(("halve_up", "damage"), [(False, 2), (True, 3)])
def test_tb27_halving_rounding_of_unit_damage(halve_up: bool, damage: int) -> None:
    """TB-27: halving rounds down (setting `halving_rounding`)."""
    # 10 vs 5: d = 5, roll 5, Stand Firm halves it: ⌊2.5⌋ = 2 or ⌈2.5⌉ = 3.
    result, _ = fight([10], [5], "high", b_orders={"stand_firm": [1]}, halve_up=halve_up)
    assert result.troops == [[10], [5 - damage]]
    assert result.penetration[0] == (5 - damage) * 10  # TB-23: d − damage dealt


def test_tb53_annihilation_moves_both_sides_morale() -> None:
    """TB-53: Each enemy unit annihilated by damage raises your morale by your max
    morale / 5 and lowers the enemy's by the enemy's max morale / 5."""
    # A wipes B's slot 1 (8 vs 1, high: 7 → cap 1, penetration 6).
    result, log = fight(
        [8, 3], [1, 3], "high", morale=(100, 150), max_morale=(150, 200), b_orders={"retreat": [2]}
    )
    assert result.annihilated == [0, 1]
    assert [e["slot"] for e in log if e["kind"] == "annihilated"] == [1]
    # A: +150/5 = +30; B: −200/5 = −40 and −60 penetration.
    assert result.morale == [130, 150 - 40 - 60]


def test_tb4_morale_is_exact_and_may_go_negative() -> None:
    """TB-4: morale arithmetic is exact (fractions allowed, e.g. 12.5); it is not capped
    below 0 while judging victory."""
    result, _ = fight([10], [4], "low", morale=(150, 10), b_orders={"hold": [1]})
    assert result.morale[1] == 10 - 15  # −0.5 exactly


@pytest.mark.parametrize(
    ("whole", "morale_a", "morale_b", "held"), [(False, 74, 36, 135), (True, 70, 40, 140)]
)
def test_tb4_whole_morale_setting(whole: bool, morale_a: int, morale_b: int, held: int) -> None:
    """TB-4 setting `whole_morale`: with max morale 12, an annihilation is worth 12/5 = 2.4
    exactly, or ⌊2.4⌋ = 2 in whole numbers (TB-53); a penetration of 3 halved by Hold is
    1.5, or 1 (TB-27)."""
    # 8 vs 1: 7 rolled, 1 taken (annihilated), penetration 7 − 1 = 6.
    result, _ = fight([8], [1], "high", morale=(50, 120), max_morale=(120, 120), whole_morale=whole)
    assert result.morale == [morale_a, morale_b]
    halved, _ = fight([10], [4], "low", b_orders={"hold": [1]}, whole_morale=whole)
    assert halved.morale[1] == held


def test_tb5_gains_summed_before_the_cap() -> None:
    """TB-5: morale gained is capped at maximum morale. All morale changes of one
    resolution are added up first; the cap applies to the result."""
    # A annihilates B's slots 1 and 2 (+3 each) and takes 3 penetration from B's slot 3
    # (10 vs 4, low: 3 dealt, penetration 3): net +3 from 15 → 15. Capping the gains
    # before the loss would give 15 − 3 = 12.
    result, _ = fight([8, 8, 4], [1, 1, 10], "low")
    assert result.morale_delta[0] == 60 - 30
    assert result.morale[0] == 150


def test_tb5_cap_can_be_switched_off() -> None:
    """TB-5: setting `morale_cap` off: morale may rise above its maximum."""
    result, _ = fight([8], [1], "high", morale_cap=False)
    assert result.morale[0] == 180


# ----- orders that act inside resolution ---------------------------------------------------


def test_tb32_counter_strikes_back_only_when_damaged_by_higher_unit() -> None:
    """TB-32: If at resolution the opposing unit is higher and deals damage to it, your
    unit deals damage from band (1 – its troops before that damage / 4) back."""
    result, log = fight([9, 4], [6, 8], "high", b_orders={"counter": [1, 2]})
    counters = damage_entries(log, "counter")
    assert [c["slot"] for c in counters] == [1]  # slot 2: B is the higher unit
    assert counters[0]["band"] == [1, 1] and counters[0]["damage"] == 1
    assert result.troops[0][0] == 8
    assert (1, "counter", 1) in result.revealed


@pytest.mark.parametrize(
    ("a_bb", "b_bb", "damage"),
    [(False, False, 1), (True, False, 2), (False, True, 2), (True, True, 4)],
)
def test_tb34_blood_battle_doubles_dealt_and_received(a_bb: bool, b_bb: bool, damage: int) -> None:
    """TB-34: the damage that unit deals and receives this round is doubled."""
    result, _ = fight(
        [7],
        [5],
        "low",
        a_orders={"blood_battle": [1] if a_bb else []},
        b_orders={"blood_battle": [1] if b_bb else []},
    )
    assert result.troops == [[7], [5 - damage]]


@pytest.mark.parametrize(("setting", "penetration"), [(False, 40), (True, 80)])
def test_tb34_blood_battle_penetration_setting(setting: bool, penetration: int) -> None:
    """TB-34 Default: it doubles unit damage, not penetration (setting)."""
    # 14 vs 5: d = 9, band [5, 9], low 5 → ×2 = 10 → cap 5; penetration 9 − 5 = 4.
    result, _ = fight(
        [14], [5], "low", a_orders={"blood_battle": [1]}, blood_battle_doubles_penetration=setting
    )
    assert result.penetration[0] == penetration


def gathered_first_strike(before_moves: bool) -> RoundResult:
    """A gathers slots 1 and 3 into slot 2 (2 + 3 + 4 = 9) and First Strikes from it at B's
    10; B's other slots are empty, so nothing else fights but the empty-slot penetration."""
    a = SideForces.plain([3, 2, 4], 150, 150)
    a.gathers.append(("gather", 1, None, None))
    a.first_strike[1] = True
    b = SideForces.plain([0, 10, 0], 150, 150)
    rules = ResolutionRules(dice="high", first_strike_before_moves=before_moves)
    return resolve_round(a, b, rules, random.Random(1), None)


def test_tb40_gather_moves_neighbours_in_before_first_strike() -> None:
    """TB-40: troops of its left and right neighbours may move into it (all by default),
    and TB-49 Default: First Strike is applied after the Gather moves. The gathered 9
    strike with band (1 – ⌊9/4⌋ = 2): B's 10 → 8; then 9 vs 8: B's unit is lower and
    takes d = 1. The moves conserve troops and empty the neighbours."""
    result = gathered_first_strike(before_moves=False)
    assert result.troops == [[0, 9, 0], [0, 7, 0]]
    assert result.annihilated == [0, 0]


def test_tb49_first_strike_timing_setting() -> None:
    """TB-49 setting `first_strike_timing="before_moves"`: the strike comes from slot 2's
    own 2 troops (band 1 – 1): B's 10 → 9; then the gathered 9 face 9, equal troops and
    equal morale: both deal (1 – ⌊9/4⌋ = 2) (TB-22)."""
    result = gathered_first_strike(before_moves=True)
    assert result.troops == [[0, 7, 0], [0, 7, 0]]


def test_tb42_retreat_no_damage_either_way() -> None:
    """TB-42: neither it nor the facing unit deals damage this round (unit damage or
    penetration)."""
    result, log = fight([10], [4], "high", b_orders={"retreat": [1]})
    assert damage_entries(log) == []
    assert result.troops == [[10], [4]] and result.penetration == [0, 0]


def test_tb43_hold_halves_facing_penetration() -> None:
    """TB-43: the facing enemy unit's penetration damage this round is halved."""
    result, _ = fight([10], [4], "low", b_orders={"hold": [1]})
    assert result.penetration[0] == 15  # 3 halved
    assert (1, "hold", 1) in result.revealed


def test_tb45_pursuit_ignores_retreat_and_doubles_damage() -> None:
    """TB-45: it ignores the facing Retreat's immunity, and the damage it deals is doubled."""
    result, _ = fight([7], [5], "low", a_orders={"pursuit": [1]}, b_orders={"retreat": [1]})
    assert result.troops == [[7], [3]]  # band (1 – 2), low roll 1, doubled
    # Without the Pursuit the Retreat holds: nothing at all.
    held, _ = fight([7], [5], "low", b_orders={"retreat": [1]})
    assert held.troops == [[7], [5]]


def test_tb48_feigned_defeat_unpursued_takes_no_damage() -> None:
    """TB-48: this round it deals no damage and receives none."""
    result, _ = fight([10], [4], "high", b_orders={"feigned_defeat": [1]})
    assert result.troops == [[10], [4]] and result.penetration == [0, 0]


def test_tb48_feigned_defeat_pursued_doubles_judged_troops() -> None:
    """TB-48: If the opponent answers it with Pursuit, the no-damage effect is cancelled
    for both, and your unit's judged troops are doubled."""
    result, log = fight(
        [7], [5], "high", a_orders={"pursuit": [1]}, b_orders={"feigned_defeat": [1]}
    )
    (hit,) = damage_entries(log)
    assert hit["side"] == "B" and hit["judged"] == [10, 7] and hit["band"] == [1, 3]
    assert result.troops == [[4], [5]]


def test_tb49_first_strike_before_resolution_without_penetration() -> None:
    """TB-49: it deals damage from band (1 – its troops/4) to the facing unit. This is not
    resolution damage: it causes no penetration. Applied after Gather moves and before
    resolution."""
    result, log = fight([8], [6], "high", a_orders={"first_strike": [1]})
    (strike,) = damage_entries(log, "first_strike")
    assert strike["band"] == [1, 2] and strike["damage"] == 2
    (hit,) = damage_entries(log)
    assert hit["judged"] == [8, 4] and hit["band"] == [2, 4]  # resolution sees 8 vs 4
    assert result.troops == [[8], [0]]
    assert result.penetration == [0, 0]  # 4 − 4


def test_tb49_first_strike_annihilation_counts() -> None:
    """TB-49 Default: if it empties a unit, that unit is annihilated (TB-53)."""
    result, _ = fight([8], [1], "low", a_orders={"first_strike": [1]})
    assert result.annihilated == [0, 1]
    assert result.penetration == [80, 0]  # then it faces an empty slot (TB-23)


def test_tb50_encircle_takes_neighbours_into_judged_troops() -> None:
    """TB-50: its judged troops this round add both neighbours' troops; both neighbours'
    judged troops count as 0 (they are still units)."""
    result, log = fight([3, 4, 3], [2, 5, 2], "low", a_orders={"encircle": [2]})
    hits = {h["slot"]: h for h in damage_entries(log)}
    assert hits[2]["judged"] == [10, 5] and hits[2]["band"] == [3, 5]
    assert hits[1]["side"] == "B" and hits[1]["judged"] == [2, 0] and hits[1]["band"] == [1, 2]
    # Neighbours are units, so B's penetration there is d − damage, not B's troops.
    assert result.troops[0] == [2, 4, 2]


def test_tb51_stand_firm_halves_damage_received() -> None:
    """TB-51: the damage dealt to it by the facing enemy unit this round is halved."""
    result, log = fight([10], [4], "high", b_orders={"stand_firm": [1]})
    (hit,) = damage_entries(log)
    assert hit["roll"] == 6 and hit["damage"] == 3
    assert result.troops[1] == [1]
    assert result.penetration[0] == 30
    assert (1, "stand_firm", 1) in result.revealed


@pytest.mark.parametrize(("halve_first", "left"), [(False, 0), (True, 2)])
def test_order_of_effects_doubling_then_halving_then_cap(halve_first: bool, left: int) -> None:
    """Order of effects: base band → Pursuit ×2 → Blood Battle ×2 → Stand Firm ½ → cap
    (setting `halve_before_doubling` moves the ½ first). 9 vs 6: d = 3, roll 3; doubled
    twice 12, halved 6, capped at the 6 troops: B's unit is gone. Halving first: ⌊3/2⌋ = 1,
    doubled twice 4: 2 troops left."""
    result, _ = fight(
        [9],
        [6],
        "high",
        a_orders={"pursuit": [1], "blood_battle": [1]},
        b_orders={"stand_firm": [1], "retreat": [1]},
        halve_before_doubling=halve_first,
    )
    assert result.troops == [[9], [left]]
    assert result.annihilated == [0, 1 if left == 0 else 0]


# ----- TB-60 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("morale", "troops", "winner", "reason"),
    [
        ((50, 30), (10, 10), None, None),
        ((0, 30), (10, 10), "B", "morale"),
        ((-5, 30), (10, 10), "B", "morale"),
        ((30, 40), (0, 10), "B", "troops"),
        ((30, 0), (0, 10), "A", "morale_before_troops"),  # A out of troops, B's morale 0
        ((0, 30), (10, 0), "B", "morale_before_troops"),
        ((-10, -5), (10, 10), "B", "lower_morale"),  # both at ≤ 0: more negative loses
        ((-5, -10), (10, 10), "A", "lower_morale"),
        ((0, 0), (10, 10), "draw", "exact_tie"),
        ((-5, -5), (3, 7), "draw", "exact_tie"),
        ((20, 30), (0, 0), "B", "lower_morale"),  # both wiped out: lower morale loses
        ((20, 20), (0, 0), "draw", "exact_tie"),
        ((-5, -5), (0, 0), "draw", "exact_tie"),
    ],
)
def test_tb60_victory_and_every_tie_case(
    morale: tuple[int, int], troops: tuple[int, int], winner: str | None, reason: str | None
) -> None:
    """TB-60: A side whose morale or total troops reaches 0 loses. If one side's troops
    reach 0 at the same moment as the other side's morale reaches 0, the side whose morale
    reached 0 loses. If both sides' morale reaches 0 at once, the more negative side
    loses. Default: if both are exactly equal, the round ends in a draw."""
    assert judge_victory(list(morale), list(troops)) == (winner, reason)


def test_tb60_both_out_of_troops_setting() -> None:
    """TB-60 (silent in the rules): both sides out of troops at once with morale left —
    the lower morale loses by default; setting `both_out_of_troops="draw"` makes it a draw.
    Morale at or below 0 still decides by the rules themselves."""
    assert judge_victory([20, 30], [0, 0]) == ("B", "lower_morale")
    assert judge_victory([20, 30], [0, 0], both_out_of_troops_draw=True) == (
        "draw",
        "both_out_of_troops",
    )
    assert judge_victory([0, 30], [0, 0], both_out_of_troops_draw=True) == (
        "B",
        "morale_before_troops",
    )
    assert judge_victory([-5, -1], [0, 0], both_out_of_troops_draw=True) == ("B", "lower_morale")


def test_tb60_exact_tie_setting_off_uses_troops() -> None:
    """TB-60 Default is a setting: with `draw_on_exact_tie` off, more troops left wins."""
    assert judge_victory([-5, -5], [3, 7], draw_on_exact_tie=False) == ("B", "more_troops")
    assert judge_victory([-5, -5], [7, 7], draw_on_exact_tie=False) == ("draw", "exact_tie")
