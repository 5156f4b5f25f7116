"""When a Team Battle phase closes (its deadline, both sides ready, or the director):
its standing orders are judged again (TB-13 Default), take effect and are announced
(TB-6), and the next phase opens — the response window only when a side may respond
(TB-5a), the round's resolution after the battle phase or the window."""

from __future__ import annotations

from app.rules.base import JSON, RuleViolation
from app.rules.team_battle.flow import entitled, finish, open_phase
from app.rules.team_battle.intel import shown_order
from app.rules.team_battle.order_types import ORDERS, shown_type
from app.rules.team_battle.orders.deploy import even_deployment
from app.rules.team_battle.orders.gates import meets_morale_gate
from app.rules.team_battle.orders.pursuit import announced_battle_orders, pursuit_targets
from app.rules.team_battle.orders.retreat import extra_retreat_slots
from app.rules.team_battle.orders.see_through import nullify
from app.rules.team_battle.orders.table import RULES
from app.rules.team_battle.rounds import resolve
from app.rules.team_battle.settings import setting
from app.rules.team_battle.state import SIDES, other, round_orders
from app.rules.team_battle.turn import Turn, own
from app.rules.team_battle.validate import check_order


def close_phase(turn: Turn) -> None:
    state = turn.state
    phase = state["phase"]
    turn.emit("phase_closed", {"round": state["round"], "phase": phase})
    if phase == "deployment":
        _close_deployment(turn)
    elif phase == "command":
        _close_command(turn)
    elif phase == "battle":
        _close_battle(turn)
    elif phase == "response":
        _close_response(turn)


def _recheck(turn: Turn, phase: str) -> list[JSON]:
    """TB-13 Default: each standing order is judged again at close, in submission
    order; one that became illegal is voided and its side told why."""
    state = turn.state
    standing: list[JSON] = []
    for side in SIDES:
        accepted: list[JSON] = []
        for order in round_orders(state, side, phase):
            try:
                check_order(
                    state, side, ORDERS[order["type"]], order["body"], accepted, at_close=True
                )
            except RuleViolation as why:
                order["status"] = "void"
                turn.order_status[order["id"]] = "void"
                turn.emit(
                    "order_voided",
                    {
                        "order_id": order["id"],
                        "side": side,
                        "type": order["type"],
                        "code": why.code,
                        "rule": why.rule,
                        "message_zh": why.message_zh,
                        "message_en": why.message_en,
                    },
                    own(side),
                    reveal_at="end",
                )
                continue
            accepted.append(order)
        standing.extend(accepted)
    return standing


def _stand(turn: Turn, orders: list[JSON]) -> None:
    """Orders that stood at close: resolved, and remembered for TB-14 and once-per-game."""
    state = turn.state
    for order in orders:
        if order["status"] == "pending":
            order["status"] = "resolved"
        turn.order_status[order["id"]] = order["status"]
        definition = ORDERS[order["type"]]
        mine = state["sides"][order["side"]]
        if definition.cooldown:
            mine["last_used"][order["type"]] = state["round"]
        if definition.once_per_game and order["type"] not in mine["once_used"]:
            mine["once_used"].append(order["type"])


def _announce(turn: Turn, orders: list[JSON], phase: str) -> None:
    """TB-6: public orders are announced at the end of their phase — Feint as Gather,
    Feigned Defeat as Retreat (TB-46, TB-48); each side and the director also get
    the truth about its own disguised orders."""
    shown: list[JSON] = []
    for order in orders:
        if not ORDERS[order["type"]].public or order["status"] != "resolved":
            continue
        order["announced"] = True
        order["shown_type"] = shown_type(order["type"])
        shown.append(shown_order(order, truthful=False))
        if order["shown_type"] != order["type"]:
            turn.emit(
                "disguised_order_announced",
                {
                    "order_id": order["id"],
                    "side": order["side"],
                    "type": order["type"],
                    "shown_as": order["shown_type"],
                    "body": order["body"],
                },
                own(order["side"]),
                reveal_at="end",
            )
    turn.emit("orders_announced", {"round": turn.state["round"], "phase": phase, "orders": shown})


def _take_effect(turn: Turn, standing: list[JSON]) -> None:
    """Each standing order's effect at the close of its phase, in the order given; then
    what orders of one type do together (a side's Dispatches, TB-30)."""
    for order in standing:
        if order["status"] == "resolved":
            effect = RULES[order["type"]].at_close
            if effect is not None:
                effect(turn, order)
    for order_type, rules in RULES.items():
        if rules.settle is not None and any(o["type"] == order_type for o in standing):
            rules.settle(turn, standing)


def _close_deployment(turn: Turn) -> None:
    state = turn.state
    settings = state["settings"]
    missing: list[str] = []
    for side in SIDES:
        deploys = round_orders(state, side, "deployment")
        mine = state["sides"][side]
        if deploys:
            mine["slots"] = list(deploys[-1]["body"]["troops"])
            _stand(turn, deploys[-1:])
        else:
            missing.append(side)
            mine["slots"] = even_deployment(mine["total"], settings["slots"])
    turn.emit(
        "deployment_revealed",
        {
            "A": list(state["sides"]["A"]["slots"]),
            "B": list(state["sides"]["B"]["slots"]),
            "defaulted": missing,
            "default_rule": settings["missing_deployment"],
        },
    )
    if missing and settings["missing_deployment"] == "forfeit":
        winner = "draw" if len(missing) == 2 else other(missing[0])
        finish(turn, winner, "no_deployment")
        return
    state["round"] = 1
    open_phase(turn, "command")


def _close_command(turn: Turn) -> None:
    standing = _recheck(turn, "command")
    _stand(turn, standing)
    _announce(turn, standing, "command")
    _take_effect(turn, standing)
    open_phase(turn, "battle")


def _close_battle(turn: Turn) -> None:
    state = turn.state
    standing = _recheck(turn, "battle")
    for order in standing:
        order["status"] = "resolved"
    nullify(turn, standing, standing)
    _stand(turn, standing)
    _announce(turn, standing, "battle")
    _take_effect(turn, standing)
    state["response"] = response_window(state)
    window = setting(state["settings"], "response_window")
    if window and any(entitled(state["response"][s]) for s in SIDES):
        open_phase(turn, "response")
    else:
        resolve(turn)


def response_window(state: JSON) -> JSON:
    """TB-5a: what each side may give in the response window — a Pursuit, an extra
    Retreat for which slots — judged on public facts alone, so that its opening reveals
    nothing hidden."""
    settings = state["settings"]
    response: JSON = {}
    for side in SIDES:
        troops = state["sides"][side]["slots"]
        pursuit = (
            "pursuit" in settings["enabled_orders"]
            and bool(pursuit_targets(state, side))
            and not announced_battle_orders(state, side)
            and meets_morale_gate(state, side, ORDERS["pursuit"].tier)
        )
        retreats = []
        if "retreat" in settings["enabled_orders"]:
            retreats = [s for s in extra_retreat_slots(state, side) if troops[s - 1] > 0]
        response[side] = {"pursuit": pursuit, "retreat_slots": retreats}
    return response


def _close_response(turn: Turn) -> None:
    standing = _recheck(turn, "response")
    for order in standing:
        order["status"] = "resolved"
    battle = round_orders(turn.state, None, "battle", ("resolved",))
    nullify(turn, battle, standing)
    _stand(turn, standing)
    _announce(turn, standing, "response")
    resolve(turn)
