"""The probability tables IS-60 (PK) and IS-61 (assassination) as exact chance outcomes.

Written the OpenSpiel way: each table is a function returning the list of possible outcomes
with their exact probabilities (zero-probability outcomes are left out), so tests can check
every boundary exactly and the sampler is the only place that touches the RNG.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

Outcomes = list[tuple[str, Fraction]]

ONE = Fraction(1)
TWO_THIRDS = Fraction(2, 3)
HALF = Fraction(1, 2)
ONE_THIRD = Fraction(1, 3)


def pk_win_chance(a: int, b: int) -> Fraction:
    """IS-60: the chance side A (strength sum ``a``) beats side B (strength sum ``b``).

    Equal sums are checked first so 0 against 0 (where "A >= 2B" and "2A <= B" would both
    hold) is the even 1/2 a referee would pick."""
    if a == b:
        return HALF
    if a >= 2 * b:
        return ONE
    if b < a:  # B < A < 2B
        return TWO_THIRDS
    if b < 2 * a:  # A < B < 2A
        return ONE_THIRD
    return Fraction(0)  # 2A <= B


def pk_outcomes(a: int, b: int) -> Outcomes:
    """IS-60 as chance outcomes: ``"A"`` or ``"B"`` wins; there is always a winner."""
    p = pk_win_chance(a, b)
    return [(name, q) for name, q in (("A", p), ("B", ONE - p)) if q > 0]


def assassination_success_chance(assassin: int, target: int) -> Fraction:
    """IS-61: the chance assassins of summed strength ``assassin`` kill ``target``."""
    if assassin >= 2 * target:
        return ONE
    if target < assassin:  # target < assassin < 2 x target
        return TWO_THIRDS
    if 2 * assassin > target:  # assassin <= target and 2 x assassin > target
        return ONE_THIRD
    return Fraction(0)  # 2 x assassin <= target


def assassination_outcomes(assassin: int, target: int) -> Outcomes:
    """IS-61 as chance outcomes: ``"success"`` or ``"failure"``."""
    p = assassination_success_chance(assassin, target)
    return [(name, q) for name, q in (("success", p), ("failure", ONE - p)) if q > 0]


def sample(outcomes: Outcomes, rng: random.Random) -> str:
    """Draw one outcome exactly (see :func:`draw`)."""
    return draw(outcomes, rng)[0]


def draw(outcomes: Outcomes, rng: random.Random) -> tuple[str, int, int]:
    """Draw one outcome exactly: an integer in [0, lcm of denominators) against the
    cumulative numerators, so no floating point is involved. Answers the outcome, the
    number drawn counted from 1, and how many numbers there were (a die of that many
    faces: the posts show the roll)."""
    if not outcomes:
        raise ValueError("no outcomes")
    total = sum((p for _, p in outcomes), Fraction(0))
    if total != 1:
        raise ValueError(f"probabilities sum to {total}, not 1")
    denom = math.lcm(*(p.denominator for _, p in outcomes))
    r = rng.randrange(denom)
    acc = 0
    for name, p in outcomes:
        acc += p.numerator * (denom // p.denominator)
        if r < acc:
            return name, r + 1, denom
    return outcomes[-1][0], r + 1, denom  # unreachable: the numerators sum to denom


def weighted_choice(weights: list[int], rng: random.Random) -> int:
    """Index drawn with integer weights (explore tables, monster tables)."""
    total = sum(weights)
    if total <= 0:
        raise ValueError("weights must sum to a positive number")
    r = rng.randrange(total)
    acc = 0
    for i, w in enumerate(weights):
        acc += w
        if r < acc:
            return i
    return len(weights) - 1
