"""A side's steps once they are checked: an order given, revised or withdrawn, "ready",
and a phase's deadline. What an order does at once beyond being recorded is its own
(``orders/table.py``: ``on_submit``); what it does at its phase's close is ``phases``'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.base import JSON, Actor
from app.rules.team_battle.intel import intel_source, tell_watcher
from app.rules.team_battle.order_types import OrderDef
from app.rules.team_battle.orders.table import RULES
from app.rules.team_battle.phases import close_phase
from app.rules.team_battle.state import SIDES, find_order, other, round_orders
from app.rules.team_battle.turn import OPEN_PHASES, Turn, own, who


@dataclass(frozen=True, slots=True)
class Checked:
    """A validated step's parsed payload, so apply does not parse twice."""

    side: str | None = None
    order_id: str | None = None
    definition: OrderDef | None = None
    body: JSON | None = None

    def order(self) -> tuple[str, str, OrderDef, JSON]:
        assert self.side and self.order_id and self.definition and self.body is not None
        return self.side, self.order_id, self.definition, self.body


def submit(turn: Turn, actor: Actor, checked: Checked) -> None:
    state = turn.state
    side, order_id, definition, body = checked.order()
    rules = RULES[definition.type]
    if rules.replaces:
        for old in round_orders(state, side, definition.phase):
            turn.order_status[old["id"]] = "replaced"  # the latest deployment counts (TB-10)
        # What no longer counts leaves the state (its history stays in the order log),
        # so the state a step copies, hashes and stores stays small.
        state["orders"] = [o for o in state["orders"] if o["id"] not in turn.order_status]
    order = {
        "id": order_id,
        "side": side,
        "player_id": actor.player_id,
        "type": definition.type,
        "body": body,
        "round": state["round"],
        "phase": state["phase"],
        "status": "pending",
        "announced": False,
        "shown_type": None,
        "revealed": False,
        "changes": [{"action": "submit", "by": who(actor)}],
    }
    state["orders"].append(order)
    state["sides"][side]["ready"] = False
    turn.order_status[order_id] = "pending"
    turn.emit(
        "order_submitted",
        {
            "order_id": order_id,
            "side": side,
            "by": who(actor),
            "type": definition.type,
            "body": body,
            "round": state["round"],
            "phase": state["phase"],
        },
        own(side),
        reveal_at="end",
    )
    tell_watcher(turn, order, was_visible=False)
    if rules.on_submit is not None:
        rules.on_submit(turn, order)


def revise(turn: Turn, actor: Actor, checked: Checked) -> None:
    side, order_id, definition, body = checked.order()
    order = find_order(turn.state, order_id)
    assert order is not None
    was_visible = intel_source(turn.state, order, other(side)) is not None
    order["type"] = definition.type
    order["body"] = body
    order["changes"].append({"action": "revise", "by": who(actor)})
    turn.state["sides"][side]["ready"] = False
    turn.order_status[order_id] = "pending"
    turn.emit(
        "order_revised",
        {
            "order_id": order_id,
            "side": side,
            "by": who(actor),
            "type": definition.type,
            "body": body,
        },
        own(side),
        reveal_at="end",
    )
    tell_watcher(turn, order, was_visible)


def withdraw(turn: Turn, actor: Actor, checked: Checked) -> None:
    side, order_id = str(checked.side), str(checked.order_id)
    order = find_order(turn.state, order_id)
    assert order is not None
    was_visible = intel_source(turn.state, order, other(side)) is not None
    order["status"] = "withdrawn"
    order["changes"].append({"action": "withdraw", "by": who(actor)})
    turn.state["sides"][side]["ready"] = False
    turn.order_status[order_id] = "withdrawn"
    turn.emit(
        "order_withdrawn",
        {"order_id": order_id, "side": side, "by": who(actor), "type": order["type"]},
        own(side),
        reveal_at="end",
    )
    tell_watcher(turn, order, was_visible)
    turn.state["orders"] = [o for o in turn.state["orders"] if o["id"] != order_id]


def ready(turn: Turn, checked: Checked) -> None:
    state = turn.state
    side = str(checked.side)
    state["sides"][side]["ready"] = True
    turn.emit("side_ready", {"side": side, "phase": state["phase"]}, own(side))
    if state["settings"]["early_close_when_ready"] and all(
        state["sides"][s]["ready"] for s in SIDES
    ):
        close_phase(turn)


def timer(turn: Turn, payload: Any) -> None:
    state = turn.state
    data = payload.get("data") or {}
    current = (
        payload.get("kind") == "phase"
        and state["phase"] in OPEN_PHASES
        and data.get("round") == state["round"]
        and data.get("phase") == state["phase"]
    )
    if current:
        close_phase(turn)  # a stale timer changes nothing and says nothing
