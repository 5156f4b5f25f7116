"""What a side may see of the opponent's orders before they are announced:
Scout (TB-35) and Spy (TB-52). Used by both the view and the intel events, so the two
can never disagree; the intel events are told here too."""

from __future__ import annotations

from app.rules.base import JSON, side_audience
from app.rules.team_battle.order_types import ORDERS, named_slots, shown_type
from app.rules.team_battle.state import other, scouted_slots, spy_active
from app.rules.team_battle.turn import Turn

LIVE_STATUSES = ("pending", "resolved", "nullified")


def intel_source(state: JSON, order: JSON, side: str) -> str | None:
    """Why ``side`` may see the opponent's ``order`` now ("scout" / "spy"), or None."""
    if order["side"] != other(side) or order["round"] != state["round"]:
        return None
    if order["status"] not in LIVE_STATUSES or state["round"] < 1:
        return None
    scouted = scouted_slots(state, side)
    if scouted and any(s in scouted for s in named_slots(order["type"], order["body"])):
        return "scout"
    if spy_active(state, side) and not ORDERS[order["type"]].public:
        return "spy"
    return None


def shown_order(order: JSON, truthful: bool) -> JSON:
    """An order as a viewer sees it: the truth, or its public face (Feint → Gather)."""
    if truthful:
        return {
            "id": order["id"],
            "side": order["side"],
            "type": order["type"],
            "body": dict(order["body"]),
            "status": order["status"],
        }
    face = shown_type(order["type"])
    body = dict(order["body"])
    body["type"] = face
    return {
        "id": order["id"],
        "side": order["side"],
        "type": face,
        "body": body,
        "status": order["status"],
    }


def visible_intel(state: JSON, side: str) -> list[JSON]:
    """The opponent's not-yet-announced orders this side currently sees, with why."""
    found: list[JSON] = []
    for order in state["orders"]:
        source = intel_source(state, order, side)
        if source is None:
            continue
        if order.get("announced") or order.get("revealed"):
            continue  # already public; listed with the announcements
        entry = shown_order(order, truthful=False)
        entry["source"] = source
        found.append(entry)
    return found


def emit_intel(turn: Turn, order: JSON, watcher: str, source: str | None) -> None:
    """Tell ``watcher`` what it now sees of the opponent's ``order`` (or that it is gone)."""
    visible = source is not None and order["status"] != "withdrawn"
    turn.emit(
        "intel",
        {
            "source": source,
            "order_id": order["id"],
            "side": order["side"],
            "status": order["status"] if visible else "gone",
            "order": shown_order(order, truthful=False) if visible else None,
        },
        (side_audience(watcher),),
    )


def tell_watcher(turn: Turn, order: JSON, was_visible: bool) -> None:
    """TB-35 / TB-52: tell a scouting or spying opponent about the change at once."""
    watcher = other(order["side"])
    source = intel_source(turn.state, order, watcher)
    if source is not None or was_visible:
        emit_intel(turn, order, watcher, source)
