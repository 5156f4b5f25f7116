"""The Other Side's receipts (see :mod:`app.kit.receipts`): each day's close seals every
living player's assassinations and guards, which wait hidden for it (IS-20, IS-25)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx
from app.kit.receipts import Actor, BaseSealer, Close, Event, Sealer

JSON = dict[str, Any]

# The orders that wait, hidden, for the day's close, and the fields that execute.
_SEALED = ("assassinate", "guard")
_FIELDS = ("id", "type", "target", "path", "follow", "use_weapon")


def _orders(state: JSON, player_id: str) -> list[JSON]:
    found = [
        o
        for o in state["orders"].values()
        if o["player"] == player_id and o["status"] == "pending" and o["type"] in _SEALED
    ]
    found.sort(key=lambda o: int(o["seq"]))
    return [{k: o[k] for k in _FIELDS if k in o} for o in found]


class _Sealer(BaseSealer):
    def close_of(self, before: JSON, events: Iterable[Event]) -> Close | None:
        if "day_report" not in {e.kind for e in events}:
            return None
        alive = [pid for pid in before["player_order"] if before["players"][pid]["alive"]]
        return Close(
            key=f"d{before['day']}",
            label={"day": before["day"]},
            sealed={pid: _orders(before, pid) for pid in alive},
            opens_at_once=False,
        )

    def current(self, state: JSON, actor: Actor) -> tuple[str, str, list[JSON]] | None:
        if actor.player_id is None or state["status"] != "running":
            return None
        return f"d{state['day']}", actor.player_id, _orders(state, actor.player_id)

    def label(self, ctx: Ctx, data: JSON) -> Markup:
        return ctx.t("post.receipt.label", day=data.get("day", 0))

    def label_of_key(self, key: str) -> JSON:
        return {"day": int(key[1:])}


SEALER: Sealer | None = _Sealer()
