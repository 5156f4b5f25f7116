"""IS-60 and IS-61 as exact chance outcomes, every boundary, plus one statistical check."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from app.rules.island.tables import (
    assassination_outcomes,
    assassination_success_chance,
    pk_outcomes,
    pk_win_chance,
    sample,
    weighted_choice,
)

PK_CASES = [
    # (A, B, P(A wins))
    (4, 2, F(1)),  # A = 2B
    (5, 2, F(1)),  # A > 2B
    (3, 2, F(2, 3)),  # A = 2B - 1, B < A < 2B
    (7, 4, F(2, 3)),  # A = 2B - 1
    (5, 4, F(2, 3)),  # A = B + 1
    (4, 4, F(1, 2)),  # A = B
    (0, 0, F(1, 2)),  # A = B = 0
    (4, 5, F(1, 3)),  # B = A + 1, A < B < 2A
    (4, 7, F(1, 3)),  # B = 2A - 1
    (2, 4, F(0)),  # B = 2A
    (2, 5, F(0)),  # B > 2A
    (0, 1, F(0)),
    (1, 0, F(1)),
]


@pytest.mark.parametrize(("a", "b", "p"), PK_CASES)
def test_is60_pk_table_boundaries(a: int, b: int, p: F) -> None:
    """IS-60: A >= 2B: 100%; B < A < 2B: 2/3; A = B: 1/2; A < B < 2A: 1/3; 2A <= B: 0."""
    assert pk_win_chance(a, b) == p
    outcomes = dict(pk_outcomes(a, b))
    assert sum(outcomes.values()) == 1
    assert outcomes.get("A", F(0)) == p
    assert outcomes.get("B", F(0)) == 1 - p
    assert all(q > 0 for q in outcomes.values())


@pytest.mark.parametrize("a", range(0, 9))
@pytest.mark.parametrize("b", range(0, 9))
def test_is60_pk_table_is_symmetric_and_always_has_a_winner(a: int, b: int) -> None:
    """IS-60: "there is always a winner" — P(A beats B) + P(B beats A) = 1."""
    assert pk_win_chance(a, b) + pk_win_chance(b, a) == 1


ASSASSIN_CASES = [
    # (assassin, target, P(success))
    (4, 2, F(1)),  # assassin = 2 x target
    (6, 2, F(1)),
    (3, 2, F(2, 3)),  # assassin = 2 x target - 1
    (5, 4, F(2, 3)),  # assassin = target + 1
    (7, 4, F(2, 3)),
    (2, 2, F(1, 3)),  # assassin = target (<= target and 2a > t)
    (3, 5, F(1, 3)),  # asymmetric edge: 3 <= 5 and 6 > 5
    (4, 7, F(1, 3)),  # 2a = t + 1
    (2, 4, F(0)),  # 2 x assassin = target
    (1, 3, F(0)),
    (0, 2, F(0)),  # a guarded assassin counts 0 (IS-25)
]


@pytest.mark.parametrize(("a", "t", "p"), ASSASSIN_CASES)
def test_is61_assassination_table_boundaries(a: int, t: int, p: F) -> None:
    """IS-61: a >= 2t certain; t < a < 2t 2/3; a <= t and 2a > t 1/3; 2a <= t fails."""
    assert assassination_success_chance(a, t) == p
    outcomes = dict(assassination_outcomes(a, t))
    assert sum(outcomes.values()) == 1
    assert outcomes.get("success", F(0)) == p


def test_is61_assassin_double_target_always_succeeds() -> None:
    """IS-61: "assassin >= 2 x target: certain" — one outcome, drawn for every seed."""
    assert assassination_outcomes(4, 2) == [("success", F(1))]
    assert {sample(assassination_outcomes(4, 2), random.Random(i)) for i in range(200)} == {
        "success"
    }


def test_is61_differs_from_is60_at_equality() -> None:
    """IS-61 "assassin <= target and 2 x assassin > target: 1/3" — unlike PK's 1/2 at equality."""
    assert assassination_success_chance(3, 3) == F(1, 3)
    assert pk_win_chance(3, 3) == F(1, 2)


def test_is60_sampler_frequencies_over_fixed_seeds() -> None:
    """IS-60 2/3 band sampled 3,000 times with fixed seeds: within 4 sigma (deterministic)."""
    n = 3000
    wins = sum(sample(pk_outcomes(3, 2), random.Random(seed)) == "A" for seed in range(n))
    expected = n * 2 / 3
    sigma = (n * (2 / 3) * (1 / 3)) ** 0.5
    assert abs(wins - expected) < 4 * sigma


def test_is61_sampler_frequencies_over_fixed_seeds() -> None:
    """IS-61 1/3 band sampled 3,000 times from one seeded stream."""
    rng = random.Random(20240601)
    n = 3000
    hits = sum(sample(assassination_outcomes(2, 2), rng) == "success" for _ in range(n))
    sigma = (n * (1 / 3) * (2 / 3)) ** 0.5
    assert abs(hits - n / 3) < 4 * sigma


def test_sampler_rejects_bad_tables_and_is_exact() -> None:
    with pytest.raises(ValueError):
        sample([("A", F(1, 2))], random.Random(0))
    # randrange(3) values 0,1 -> A (2/3), 2 -> B: exact, no floating point.
    counts = {"A": 0, "B": 0}
    for seed in range(300):
        counts[sample(pk_outcomes(3, 2), random.Random(seed))] += 1
    assert counts["A"] > counts["B"]


def test_weighted_choice_respects_zero_total() -> None:
    with pytest.raises(ValueError):
        weighted_choice([0, 0], random.Random(0))
    assert weighted_choice([0, 5], random.Random(1)) == 1
