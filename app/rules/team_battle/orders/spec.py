"""What an order does beside what it is: its own checks and its effects, as small functions
the engine calls by order type (``orders/table.py`` lists them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.rules.base import JSON
from app.rules.team_battle.forces import SideForces
from app.rules.team_battle.order_types import OrderDef
from app.rules.team_battle.orders.gates import check_phase, check_slots
from app.rules.team_battle.turn import Turn

# (state, side, definition, its other orders of the phase) -> None, or RuleViolation
When = Callable[[JSON, str, OrderDef, list[JSON]], None]
# (state, side, definition, body, its other orders of the phase) -> None, or RuleViolation
Check = Callable[[JSON, str, OrderDef, JSON, list[JSON]], None]


@dataclass(frozen=True, slots=True)
class OrderRules:
    """One order type's rules, each part optional.

    - ``when``: whether it may be given now (its phase; by default its own phase only);
    - ``check``: whether its body is allowed (by default the slot it names, TB-2/TB-34);
    - ``ungated``: outside the uses, cooldown and morale gate (a deployment, TB-10);
    - ``replaces``: a new one replaces the side's earlier ones of the phase (TB-10);
    - ``on_submit``: what it does at once when given (Scout's intel, TB-35);
    - ``at_close``: what it does when its phase closes and it stands, order by order;
    - ``settle``: what all of its standing orders do together after that (Dispatch, TB-30);
    - ``forces``: how it marks its side's forces for the round's resolution.
    """

    when: When = check_phase
    check: Check = check_slots
    ungated: bool = False
    replaces: bool = False
    on_submit: Callable[[Turn, JSON], None] | None = None
    at_close: Callable[[Turn, JSON], None] | None = None
    settle: Callable[[Turn, list[JSON]], None] | None = None
    forces: Callable[[SideForces, JSON], None] | None = None


def flag(forces: SideForces, order: JSON) -> None:
    """The order's slot is marked on its side's forces (Counter, Hold, Retreat …)."""
    getattr(forces, order["type"])[order["body"]["slot"] - 1] = True
