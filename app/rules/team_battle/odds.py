"""Odds preview (胜算预估): what may happen at this round's resolution, by Monte Carlo
over the dice, from what one side knows.

The input is the side's own *view* (``build_view`` — the one place that decides what a
viewer may see) plus the orders the player is drafting, never the state: the other
side's hidden orders and undeployed slots are simply not there to be used. What the
side knows of the opponent is what the view shows: announced orders by their public
face (a Feint looks like a Gather, TB-46), hidden orders revealed by taking effect, and
Scout / Spy intel (TB-35, TB-52). The rounds are resolved by the engine's own
``resolve_round``, so the preview follows every rule and setting the real round does.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any, cast

from app.rules.base import JSON
from app.rules.team_battle.order_types import ORDERS
from app.rules.team_battle.resolve import (
    ResolutionRules,
    RoundResult,
    SideForces,
    judge_victory,
    resolve_round,
)
from app.rules.team_battle.state import MORALE_UNIT, SIDES, morale_number, other

LIVE = ("pending", "resolved")
_FLAGS = (
    "retreat",
    "feigned_defeat",
    "pursuit",
    "hold",
    "stand_firm",
    "blood_battle",
    "counter",
    "encircle",
    "first_strike",
)


def _tenths(value: float) -> int:
    return int(round(value * MORALE_UNIT))


def _own_orders(view: JSON, side: str, draft: list[JSON], replacing: str | None) -> list[JSON]:
    """This round's standing own orders (as the view lists them) plus the drafts."""
    found = [
        {"type": o["type"], "body": o["body"], "phase": o["phase"]}
        for o in view.get("orders", [])
        if o["side"] == side
        and o["round"] == view["round"]
        and o["status"] in LIVE
        and o["id"] != replacing
    ]
    for body in draft:
        kind = body.get("type")
        if kind in ORDERS:
            found.append({"type": kind, "body": body, "phase": ORDERS[kind].phase})
    return found


def _known_enemy_orders(view: JSON, enemy: str) -> list[JSON]:
    """The opponent's orders of this round that the view shows, by the face it shows."""
    seen: dict[str, JSON] = {}
    nullified = {o["id"] for o in view.get("seen_through", [])}
    for entry in (*view.get("announced", []), *view.get("revealed", [])):
        if entry["side"] == enemy and entry["round"] == view["round"]:
            seen[entry["id"]] = entry
    intel = view.get("intel", [])
    for entry in intel if isinstance(intel, list) else []:
        if entry["side"] == enemy:
            seen.setdefault(entry["id"], entry)
    return [
        {"type": o["type"], "body": o["body"]}
        for o in seen.values()
        if o["id"] not in nullified and o.get("status") in (*LIVE, None)
    ]


def _forces(slots: list[int], morale: float, max_morale: float, orders: list[JSON]) -> SideForces:
    forces = SideForces.plain(list(slots), _tenths(morale), _tenths(max_morale))
    flags = {name: getattr(forces, name) for name in _FLAGS}
    n = len(slots)
    for order in orders:
        kind, body = order["type"], order["body"]
        slot = body.get("slot")
        if kind in flags and isinstance(slot, int) and 1 <= slot <= n:
            flags[kind][slot - 1] = True
        elif kind in ("gather", "surprise") and isinstance(slot, int) and 1 <= slot <= n:
            forces.gathers.append((kind, slot - 1, body.get("from_left"), body.get("from_right")))
    return forces


def _dispatched(slots: list[int], orders: list[JSON]) -> list[int]:
    """TB-30: a command-phase Dispatch still pending moves troops before the battle."""
    after = list(slots)
    for order in orders:
        if order["type"] == "dispatch" and order["phase"] == "command":
            for move in order["body"].get("moves", []):
                src, dst, troops = move.get("from"), move.get("to"), move.get("troops")
                if all(isinstance(v, int) for v in (src, dst, troops)):
                    if 1 <= src <= len(after) and 1 <= dst <= len(after):
                        moved = max(0, min(troops, slots[src - 1]))
                        after[src - 1] -= moved
                        after[dst - 1] += moved
    return after


def rules_of(settings: JSON) -> ResolutionRules:
    from app.rules.team_battle.rounds import resolution_rules

    return resolution_rules(settings)


def known_forces(
    view: JSON, side: str, draft: list[JSON], replacing: str | None = None
) -> tuple[SideForces, SideForces, list[JSON], list[JSON]] | None:
    """Both sides as ``side`` knows them for this round's resolution: (A, B, own orders,
    known enemy orders), or None while the opponent's deployment is unknown."""
    if view.get("phase") in (None, "setup", "deployment", "finished") or side not in SIDES:
        return None
    enemy = other(side)
    sides = view["sides"]
    if sides[side]["slots"] is None or sides[enemy]["slots"] is None:
        return None
    own_orders = _own_orders(view, side, draft, replacing)
    enemy_orders = _known_enemy_orders(view, enemy)
    own_slots = list(sides[side]["slots"])
    if view["phase"] == "command":
        own_slots = _dispatched(own_slots, own_orders)
    forces = {
        side: _forces(own_slots, sides[side]["morale"], sides[side]["max_morale"], own_orders),
        enemy: _forces(
            list(sides[enemy]["slots"]),
            sides[enemy]["morale"],
            sides[enemy]["max_morale"],
            enemy_orders,
        ),
    }
    return forces["A"], forces["B"], own_orders, enemy_orders


def preview(
    view: JSON,
    side: str,
    draft: list[JSON],
    rng: random.Random,
    rounds: int = 10_000,
    replacing: str | None = None,
    enumerate_up_to: int = 2_000,
) -> JSON | None:
    """The distribution of both sides' morale after this round's resolution, and how
    often each side would win, from ``side``'s ``view`` and its ``draft`` orders
    (``replacing``: the id of an own order the draft would revise). None while the
    opponent's deployment is unknown or the game is over.

    When the dice can fall in at most ``enumerate_up_to`` ways, every way is resolved
    once and weighted exactly (``exact``); otherwise ``rounds`` rounds are sampled."""
    known = known_forces(view, side, draft, replacing)
    if known is None:
        return None
    a, b, own_orders, enemy_orders = known
    sides = view["sides"]
    rules = rules_of(view["settings"])
    draw_on_tie = bool(view["settings"]["draw_on_exact_tie"])
    tally: Counter[tuple[int, int, int, int]] = Counter()
    exact = False
    ways = 1
    if rules.dice != "random":
        rounds = 1  # no chance involved: one resolution is the exact answer
        exact = True
        _tally(tally, resolve_round(a, b, rules, rng), 1)
    elif enumerate_up_to and (ways := _enumerate(a, b, rules, tally, enumerate_up_to)):
        exact = True
    else:
        tally.clear()
        for _ in range(rounds):
            _tally(tally, resolve_round(a, b, rules, rng), 1)
    total = sum(tally.values())
    morale: tuple[Counter[int], Counter[int]] = (Counter(), Counter())
    outcomes: Counter[str] = Counter()
    for (m_a, m_b, t_a, t_b), weight in tally.items():
        morale[0][m_a] += weight
        morale[1][m_b] += weight
        winner, _reason = judge_victory([m_a, m_b], [t_a, t_b], draw_on_tie)
        outcomes[winner or "continue"] += weight
    return {
        "rounds": rounds,
        "exact": exact,
        "ways": ways if exact else None,
        "morale": {s: _distribution(morale[i], total) for i, s in enumerate(SIDES)},
        "expected_morale": {
            s: round(sum(v * c for v, c in morale[i].items()) / total / MORALE_UNIT, 2)
            for i, s in enumerate(SIDES)
        },
        "now": {s: sides[s]["morale"] for s in SIDES},
        "max_morale": {s: sides[s]["max_morale"] for s in SIDES},
        "outcomes": {k: outcomes[k] / total for k in ("A", "B", "draw", "continue")},
        "assumed": {
            "own": [_brief(o) for o in own_orders],
            "enemy": [_brief(o) for o in enemy_orders],
        },
    }


def _tally(tally: Counter[Any], result: RoundResult, weight: int) -> None:
    """What the preview keeps of a round: both morales and whether any troops are left
    (all that victory, TB-60, is judged on)."""
    key = (
        result.morale[0],
        result.morale[1],
        sum(result.troops[0]),
        sum(result.troops[1]),
    )
    tally[key] += weight


class _Replay:
    """Stands in for the RNG: answers the draws of one path through the dice, and notes
    how many outcomes each draw had (``resolve_round`` draws only with ``randint``)."""

    __slots__ = ("path", "taken", "sizes")

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.taken: list[int] = []
        self.sizes: list[int] = []

    def randint(self, lo: int, hi: int) -> int:
        i = len(self.taken)
        pick = self.path[i] if i < len(self.path) else 0
        self.taken.append(pick)
        self.sizes.append(hi - lo + 1)
        return lo + pick


def _enumerate(
    a: SideForces, b: SideForces, rules: ResolutionRules, tally: Counter[Any], limit: int
) -> int:
    """Every way the dice can fall, each resolved by the engine once and weighted by its
    probability: the exact distribution, when there are at most ``limit`` ways (returns
    how many; 0 when there are more).
    Later draws may depend on earlier ones, so the ways are walked as an odometer over
    the draws each replay actually made."""
    ways: list[tuple[tuple[int, int, int, int], list[int]]] = []
    path: list[int] = []
    while True:
        replay = _Replay(path)
        result = resolve_round(a, b, rules, cast(random.Random, replay))
        key = (result.morale[0], result.morale[1], sum(result.troops[0]), sum(result.troops[1]))
        ways.append((key, replay.sizes))
        if len(ways) > limit:
            return 0
        j = len(replay.taken) - 1
        while j >= 0 and replay.taken[j] + 1 >= replay.sizes[j]:
            j -= 1
        if j < 0:
            break
        path = [*replay.taken[:j], replay.taken[j] + 1]
    # A way's probability is 1 / (the product of its draws' sizes): integer weights over
    # the least common multiple of those products keep the sums exact.
    products = [math.prod(sizes) for _key, sizes in ways]
    denominator = math.lcm(*products)
    for (key, _sizes), product in zip(ways, products, strict=True):
        tally[key] += denominator // product
    return len(ways)


def _distribution(counts: Counter[int], total: int) -> list[JSON]:
    return [
        {"morale": morale_number(value), "p": count / total}
        for value, count in sorted(counts.items())
    ]


def _brief(order: JSON) -> dict[str, Any]:
    body = {k: v for k, v in order["body"].items() if k != "type"}
    return {"type": order["type"], **body}
