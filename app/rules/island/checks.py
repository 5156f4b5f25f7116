"""What every island order checks, whatever it does: the player is alive and not held in
a PK, has the stamina (or, once, the debt, IS-33), sees whom they name (IS-55), and may
order for whom they name (IS-39). A body's shape is the order model's to check
(``schema.py``), once, before the step runs; the engine reads the body as sent."""

from __future__ import annotations

from typing import Any

from app.rules.island.core import (
    JSON,
    Ctx,
    cell_of,
    open_challenge_of,
    require,
    sees,
)
from app.rules.island.messages import violation


def malformed(detail: str) -> Exception:
    """422 ``bad_order``: what the order model cannot say (a rule of the body's parts)."""
    return violation("bad_order", None, detail=detail)


# --- common checks --------------------------------------------------------------------
def alive(ctx: Ctx, pid: str) -> JSON:
    """A dead player (power 0, IS-15; or assassinated, IS-20) gives no more orders."""
    p = ctx.player(pid)
    require(bool(p["alive"]), "dead", "IS-15")
    return p


def need_stamina(p: JSON, need: int, rule: str) -> None:
    require(int(p["stamina"]) >= need, "not_enough_stamina", rule, need=need)


def not_in_pk(ctx: Ctx, pid: str, rule: str = "IS-15") -> None:
    if ctx.s.pk_participants_locked:
        require(open_challenge_of(ctx.state, pid) is None, "in_pk", rule)


def visible_player(ctx: Ctx, viewer_id: str, target_id: Any) -> JSON:
    """A living player the viewer can see (IS-55); anything else is 404 ``not_found`` so an
    error never confirms another player's existence, location or state."""
    if not isinstance(target_id, str) or target_id not in ctx.state["players"]:
        raise violation("not_found")
    t = ctx.player(target_id)
    if not t["alive"] or not sees(ctx.s, ctx.player(viewer_id), cell_of(t)):
        raise violation("not_found")
    return t


def pay_with_debt(p: JSON, cost: int, kind: str, rule: str) -> int:
    """IS-33: once per game an assassinate, once a guard, may be posted short of stamina;
    returns the shortfall owed."""
    if p["stamina"] >= cost:
        p["stamina"] -= cost
        return 0
    require(not p["debt_used"][kind], "not_enough_stamina", rule, need=cost)
    shortfall = cost - int(p["stamina"])
    p["stamina"] = 0
    p["debt"] = int(p["debt"]) + shortfall
    p["debt_used"][kind] = True
    return shortfall


# --- proxies (IS-39) --------------------------------------------------------------------
def check_proxy(ctx: Ctx, actor: str, subject: str) -> None:
    a, s = ctx.player(actor), ctx.player(subject)
    require(a["faction"] == s["faction"], "proxy_forbidden", "IS-39")
    require(subject not in ctx.state["proxies_invalid"], "proxy_invalid", "IS-39")
