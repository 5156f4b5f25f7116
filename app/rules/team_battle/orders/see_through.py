"""See Through (识破, TB-52a): it names a battle-phase order type; the opponent's orders of
that type this round have no effect. It is revealed when it takes effect."""

from __future__ import annotations

from app.rules.base import JSON
from app.rules.team_battle.state import other
from app.rules.team_battle.turn import Turn, own


def nullify(turn: Turn, standing: list[JSON], targets: list[JSON]) -> None:
    """TB-52a: the opponent's orders of the named type among ``targets`` have no effect."""
    for seer in standing:
        if seer["type"] != "see_through" or seer["status"] != "resolved":
            continue
        named = seer["body"]["order_type"]
        hit = [
            o
            for o in targets
            if o["side"] != seer["side"]
            and o["type"] == named
            and o["status"] in ("pending", "resolved", "nullified")
        ]
        for order in hit:
            order["status"] = "nullified"
            turn.order_status[order["id"]] = "nullified"
        if hit:
            # TB-6 / TB-52a: See Through took effect, so it is revealed with what it
            # named; the orders it voided never took effect, so the public learns only
            # how many there were. Their own side is told which (TB-6 Default: all is
            # revealed at the end).
            seer["revealed"] = True
            turn.emit(
                "order_seen_through",
                {
                    "side": seer["side"],
                    "order_id": seer["id"],
                    "order_type": named,
                    "nullified": len(hit),
                    "rule": "TB-52a",
                },
            )
            victim = other(seer["side"])
            turn.emit(
                "orders_nullified",
                {
                    "side": victim,
                    "by": seer["id"],
                    "orders": [
                        {"order_id": o["id"], "type": o["type"], "body": o["body"]} for o in hit
                    ],
                    "rule": "TB-52a",
                },
                own(victim),
                reveal_at="end",
            )
