"""The toy duel's receipts (see :mod:`app.kit.receipts`): each round's close seals both
players' throws; the close shows them, so the receipts open at once."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx
from app.kit.receipts import Actor, BaseSealer, Close, Event, Sealer

JSON = dict[str, Any]


def _throws(state: JSON, player_id: str) -> list[JSON]:
    return [
        {"id": o["id"], "type": o["type"], "hand": o["body"]["hand"]}
        for o in state["orders"]
        if o["player_id"] == player_id and o["status"] == "pending" and o["round"] == state["round"]
    ]


class _Sealer(BaseSealer):
    def close_of(self, before: JSON, events: Iterable[Event]) -> Close | None:
        if "round_closed" not in {e.kind for e in events}:
            return None
        return Close(
            key=f"r{before['round']}",
            label={"round": before["round"]},
            sealed={p["id"]: _throws(before, p["id"]) for p in before["roster"]},
            opens_at_once=True,  # the round's result shows every throw
        )

    def current(self, state: JSON, actor: Actor) -> tuple[str, str, list[JSON]] | None:
        if actor.player_id is None or state["phase"] != "throwing":
            return None
        return f"r{state['round']}", actor.player_id, _throws(state, actor.player_id)

    def label(self, ctx: Ctx, data: JSON) -> Markup:
        return ctx.t("post.receipt.label", round=data.get("round", 0))

    def label_of_key(self, key: str) -> JSON:
        return {"round": int(key[1:])}


SEALER: Sealer = _Sealer()
