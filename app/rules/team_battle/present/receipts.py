"""Team Battle's receipts (see :mod:`app.kit.receipts`): every phase's close seals each
side's hidden orders of that phase; the deployment is revealed as it closes (TB-10)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx
from app.kit.receipts import Actor, BaseSealer, Close, Event, Sealer
from app.rules.team_battle.order_types import ORDERS
from app.rules.team_battle.present.post_text import SIDES, phase_name

JSON = dict[str, Any]

# Orders whose content is hidden until revealed (TB-6): every non-public one.
_HIDDEN = frozenset(t for t, d in ORDERS.items() if not d.public)
_LIVE = ("pending", "resolved")


def _orders(state: JSON, side: str) -> list[JSON]:
    return [
        {"id": o["id"], "type": o["type"], "body": o["body"]}
        for o in state["orders"]
        if o["round"] == state["round"]
        and o["phase"] == state["phase"]
        and o["side"] == side
        and o["status"] in _LIVE
        and o["type"] in _HIDDEN
    ]


class _Sealer(BaseSealer):
    def close_of(self, before: JSON, events: Iterable[Event]) -> Close | None:
        if "phase_closed" not in {e.kind for e in events}:
            return None
        phase, round_no = before["phase"], before["round"]
        return Close(
            key=f"r{round_no}-{phase}",
            label={"round": round_no, "phase": phase},
            sealed={side: _orders(before, side) for side in SIDES},
            opens_at_once=phase == "deployment",  # TB-10: revealed when the phase closes
        )

    def current(self, state: JSON, actor: Actor) -> tuple[str, str, list[JSON]] | None:
        if actor.side is None or state["phase"] in ("setup", "finished"):
            return None
        return f"r{state['round']}-{state['phase']}", actor.side, _orders(state, actor.side)

    def label(self, ctx: Ctx, data: JSON) -> Markup:
        if data.get("phase") == "deployment":
            return ctx.t("post.receipt.deployment")
        phase = phase_name(ctx, data.get("phase", ""))
        return ctx.t("post.receipt.label", round=data.get("round", 0), phase=phase)

    def label_of_key(self, key: str) -> JSON:
        round_no, phase = key[1:].split("-", 1)
        return {"round": int(round_no), "phase": phase}

    def owner(self, ctx: Ctx, owner: str) -> Markup:
        return ctx.side(owner)


SEALER: Sealer | None = _Sealer()
