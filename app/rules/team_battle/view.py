"""``view``: the ONE place that decides what a viewer sees of a Team Battle.

- Deployments are hidden until both sides have deployed (TB-10); afterwards troops and
  morale are public (they are what the referee posts after every round).
- Public orders are shown once announced (TB-6), Feint as Gather and Feigned Defeat as
  Retreat to everyone but their own side and the director (TB-46, TB-48).
- Hidden orders are shown once revealed by taking effect (TB-6), to everybody.
- A side sees its own orders, uses, cooldowns, and its Scout / Spy intel (TB-35, TB-52).
- The director sees everything; once the game is over, everybody does (TB-6 Default).
"""

from __future__ import annotations

from app.rules.base import JSON, Viewer
from app.rules.team_battle.intel import shown_order, visible_intel
from app.rules.team_battle.orders.inspire import inspired
from app.rules.team_battle.state import (
    SIDES,
    blood_battle_slots,
    morale_number,
    order_uses,
    round_orders,
    scouted_slots,
    spent_uses,
    spy_active,
)


def build_view(state: JSON, viewer: Viewer) -> JSON:
    finished = state["phase"] == "finished"
    director = viewer.role == "director"
    me = viewer.side if viewer.role == "player" and viewer.side in SIDES else None
    sees_all = director or finished

    sides: JSON = {}
    for side in SIDES:
        own = state["sides"][side]
        slots = own["slots"]
        entry: JSON = {
            "slots": list(slots) if slots is not None else None,
            "total_troops": sum(slots) if slots is not None else None,
            "morale": morale_number(own["morale"]),
            "max_morale": morale_number(own["max_morale"]),
        }
        if sees_all or side == me:
            entry.update(_private_side(state, side))
        sides[side] = entry

    view: JSON = {
        "ruleset": state["ruleset"],
        "round": state["round"],
        "phase": state["phase"],
        "deadline": None,  # the shell fills it from the phase timer
        "opened_at": state["opened_at"],
        "winner": state["winner"],
        "finish_reason": state["finish_reason"],
        "sides": sides,
        "announced": [],
        "revealed": [],
        "seen_through": [],
        "settings": dict(state["settings"]),
    }
    for order in state["orders"]:
        truthful = sees_all or order["side"] == me
        if order.get("announced"):
            # A disguised order that took effect as itself (a pursued Feigned Defeat,
            # TB-48) is shown as what it is.
            entry = shown_order(order, truthful or bool(order.get("revealed")))
            entry.update(round=order["round"], phase=order["phase"])
            view["announced"].append(entry)
        elif order.get("revealed"):
            entry = shown_order(order, truthful=True)
            entry.update(round=order["round"], phase=order["phase"])
            view["revealed"].append(entry)
        if order["status"] == "nullified":
            # TB-52a / TB-6: a voided order never took effect; others learn only that an
            # order of the type the See Through named was voided, not what it said.
            if truthful:
                entry = shown_order(order, truthful=True)
            else:
                entry = {"side": order["side"], "type": order["type"], "status": "nullified"}
            entry.update(round=order["round"], phase=order["phase"])
            view["seen_through"].append(entry)

    if state["phase"] == "response" and state["response"] is not None:
        # Who may respond is decided on public facts only (TB-5a), so it is public.
        view["response"] = state["response"]

    if sees_all:
        view["orders"] = [_own_order(o) for o in state["orders"]]
        view["intel"] = {side: visible_intel(state, side) for side in SIDES}
    elif me is not None:
        view["orders"] = [_own_order(o) for o in state["orders"] if o["side"] == me]
        view["intel"] = visible_intel(state, me)
    return view


def _own_order(order: JSON) -> JSON:
    entry = shown_order(order, truthful=True)
    entry.update(
        round=order["round"],
        phase=order["phase"],
        player_id=order["player_id"],
        announced=bool(order.get("announced")),
        shown_as=order.get("shown_type"),
        revealed=bool(order.get("revealed")),
        changes=[dict(c) for c in order["changes"]],
    )
    return entry


def _private_side(state: JSON, side: str) -> JSON:
    own = state["sides"][side]
    round_no = state["round"]
    pending = [o for o in round_orders(state, side, state["phase"]) if o["type"] != "deploy"]
    spent = spent_uses(state, side, pending)
    cooling = sorted(
        t for t, used in own["last_used"].items() if used == round_no - 1 and round_no > 0
    )
    phase_uses: int | None = None
    if state["phase"] in ("command", "battle", "response"):
        phase_uses = order_uses(state, side, state["phase"])
    return {
        "ready": own["ready"],
        "commander": state["commanders"][side],
        "order_uses": {
            "command": order_uses(state, side, "command"),
            "battle": order_uses(state, side, "battle"),
            "left_this_phase": None if phase_uses is None else max(0, phase_uses - spent),
        },
        "next_round_extra_uses": dict(own["next_extra_uses"]),
        "cooldown_blocked": cooling,  # TB-14: not usable this round
        "once_per_game_used": list(own["once_used"]),
        "inspired": inspired(state, side),
        "spy_active": spy_active(state, side),
        "scouted_slots": scouted_slots(state, side),
        "blood_battle_slots": blood_battle_slots(state, side) if round_no > 0 else [],
    }
