"""Every Team Battle order's rules by type: its own checks and its effects, side by side
in the module of its family. The engine looks an order up here and calls what it finds;
an order not listed with a part does the default (see :class:`OrderRules`)."""

from __future__ import annotations

from app.rules.team_battle.order_types import ORDER_TYPES
from app.rules.team_battle.orders import (
    battle,
    command,
    deploy,
    inspire,
    pursuit,
    rest,
    retreat,
)
from app.rules.team_battle.orders.spec import OrderRules, flag

RULES: dict[str, OrderRules] = {
    "deploy": OrderRules(check=deploy.check, ungated=True, replaces=True),
    # command phase
    "dispatch": OrderRules(check=command.check_dispatch, settle=command.settle_dispatches),
    "inspire": OrderRules(at_close=inspire.at_close),
    "counter": OrderRules(forces=flag),
    "rest": OrderRules(at_close=rest.rest_at_close),
    "blood_battle": OrderRules(forces=flag),
    "scout": OrderRules(on_submit=command.scout_on_submit),
    # battle phase, tier 1
    "gather": OrderRules(check=battle.check_gather, forces=battle.gather_forces),
    "retreat": OrderRules(when=retreat.when, check=retreat.check, forces=flag),
    "hold": OrderRules(forces=flag),
    "battle_rest": OrderRules(at_close=rest.battle_rest_at_close),
    # the response window and tier 2
    "pursuit": OrderRules(when=pursuit.when, check=pursuit.check, forces=flag),
    "feint": OrderRules(),  # shown as a Gather until the end (TB-46); no effect of its own
    "surprise": OrderRules(check=battle.check_gather, forces=battle.gather_forces),
    "feigned_defeat": OrderRules(forces=flag),
    "first_strike": OrderRules(forces=flag),
    "encircle": OrderRules(forces=flag),
    "stand_firm": OrderRules(forces=flag),
    "spy": OrderRules(at_close=battle.spy_at_close),
    "see_through": OrderRules(),  # its effect comes first at close: see_through.nullify
}

assert set(RULES) == set(ORDER_TYPES), "every order type has its rules"
