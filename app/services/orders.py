"""Orders: submit, revise, withdraw, list, and "ready". Every change is a revision row."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, conflict, not_found
from app.ids import new_id
from app.models import (
    Game,
    OrderRevision,
    OrderRow,
)
from app.publish import receipts
from app.rules.base import STEP_ORDER, STEP_READY, STEP_REVISE, STEP_WITHDRAW, ParsedOrders
from app.rules.registry import get_ruleset
from app.services import text_orders
from app.services.auth import Principal, require_known, require_player
from app.services.bodies import check_order
from app.services.steps import StepWrite, compute_step, deadline_due, persist_steps, run_step


async def require_accepting(session: AsyncSession, game: Game, now: datetime) -> None:
    """Orders are taken only while the game runs and its current deadline has not passed.
    An order that arrives after the deadline but before the scheduler ran is refused (409),
    never quietly slipped into the next phase."""
    require_running(game)
    if await deadline_due(session, game, now):
        raise _deadline_passed()


def _deadline_passed() -> AppError:
    return conflict(
        "deadline_passed",
        "本阶段的截止时间已过，正在结算，指令未被接受。",
        "This phase's deadline has passed and it is being resolved; the order was not accepted.",
    )


def require_running(game: Game) -> None:
    if game.status == "setup":
        raise conflict("not_started", "游戏尚未开始。", "The game has not started yet.")
    if game.status == "paused":
        raise conflict(
            "game_paused", "导演已暂停游戏，暂时不能提交指令。", "The director has paused the game."
        )
    if game.status == "finished":
        raise conflict("game_finished", "游戏已结束。", "The game is over.")


def order_json(row: OrderRow, reply: dict[str, Any] | None = None) -> dict[str, Any]:
    return order_view({c: getattr(row, c) for c in _SHOWN}, reply)


_SHOWN = ("id", "type", "status", "side", "player_id", "body", "created_at", "updated_at")


def order_view(order: Mapping[str, Any], reply: dict[str, Any] | None = None) -> dict[str, Any]:
    """An order as the API shows it. ``reply`` is the ruleset's private answer to the actor
    (an immediate action's ``result``…), merged in without overriding the order's fields."""
    out: dict[str, Any] = {key: order[key] for key in _SHOWN}
    out["created_at"] = order["created_at"].isoformat()
    out["updated_at"] = order["updated_at"].isoformat()
    for key, value in (reply or {}).items():
        out.setdefault(key, value)
    return out


def _order_type(body: dict[str, Any]) -> str:
    kind = body.get("type")
    if not isinstance(kind, str) or not kind:
        raise AppError(422, "bad_order", "指令缺少 type 字段。", "The order has no 'type'.")
    return kind


def _from_text(
    game: Game, principal: Principal, body: dict[str, Any]
) -> tuple[dict[str, Any], ParsedOrders | None]:
    """A ``{"text": ...}`` body read as the one order it says (and its echo), or the body
    as it came."""
    text = text_orders.text_of(body)
    if text is None:
        return body, None
    parsed = text_orders.read(game, principal, text)
    return text_orders.one_order(parsed), parsed


async def _read_text(
    game: Game, principal: Principal, body: dict[str, Any]
) -> tuple[dict[str, Any], ParsedOrders | None]:
    """``_from_text`` off the event loop: reading words is CPU work (up to a second for a
    long, tangled text) that must not hold up other requests."""
    text = text_orders.text_of(body)
    if text is None:
        return body, None
    parsed = await text_orders.read_in_thread(game, principal, text)
    return text_orders.one_order(parsed), parsed


def prepare_submission(
    game: Game,
    principal: Principal,
    body: dict[str, Any],
    now: datetime,
    deadline_passed: bool,
    english: bool = False,
    parsed: ParsedOrders | None = None,
) -> tuple[StepWrite, dict[str, Any]]:
    """Check and apply one order submission in memory; ``persist_steps`` writes it.
    The order row is written with the step, with the status the rules gave it: an order
    is acknowledged only once that transaction has committed. A text order is read first
    (or was, giving ``parsed``) and then takes exactly the same path."""
    player = require_player(principal)
    ruleset = get_ruleset(game.ruleset)
    worded = parsed is None and text_orders.in_words(body)
    if not worded:
        check_order(ruleset, body)
    require_running(game)
    if deadline_passed:
        raise _deadline_passed()
    if worded:
        body, parsed = _from_text(game, principal, body)
        check_order(ruleset, body)
    kind = _order_type(body)
    order_id = new_id()
    write = compute_step(
        game, STEP_ORDER, principal.actor, {"order_id": order_id, "order": body}, now
    )
    order: dict[str, Any] = {
        "id": order_id,
        "game_id": game.id,
        "player_id": player.id,
        "side": player.side,
        "type": kind,
        "body": body,
        "status": write.outcome.order_status.get(order_id, "pending"),
        "step_seq": write.seq,
        "created_at": now,
        "updated_at": now,
    }
    write.new_order = order
    write.outcome.reply = with_receipt(game, principal, write.outcome.reply, write.outcome.state)
    write.new_revision = _revision_values(
        order_id, "submit", body, order["status"], principal, write.seq, now
    )
    if parsed is not None:
        write.outcome.reply = {**write.outcome.reply, "echo": text_orders.echo(parsed, english)}
    return write, order


def with_receipt(
    game: Game, principal: Principal, reply: dict[str, Any], state: dict[str, Any]
) -> dict[str, Any]:
    """The reply plus the caller's current sealed-order receipt (app/publish/receipts.py)."""
    mine = receipts.current_receipt(
        game.ruleset, game.seed, state, principal.actor, game.undos or 0
    )
    return reply if mine is None else {**reply, "receipt": mine}


async def submit_order(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    body: dict[str, Any],
    now: datetime,
    english: bool = False,
) -> dict[str, Any]:
    passed = await deadline_due(session, game, now)
    parsed = None
    if text_orders.in_words(body):  # the game's state and the caller first, then the words
        require_player(principal)
        require_running(game)
        if passed:
            raise _deadline_passed()
        body, parsed = await _read_text(game, principal, body)
    write, order = prepare_submission(game, principal, body, now, passed, english, parsed)
    await persist_steps(session, [write])
    return order_view(order, write.outcome.reply)


async def _own_order(
    session: AsyncSession, game: Game, principal: Principal, order_id: str
) -> OrderRow:
    require_player(principal)
    row = await session.get(OrderRow, order_id)
    # Another side's order is "not found": never confirm that it exists.
    if row is None or row.game_id != game.id or not _may_see(row, principal):
        raise not_found("指令", "order")
    return row


def _may_see(row: OrderRow, principal: Principal) -> bool:
    if principal.role == "director":
        return True
    player = principal.player
    if player is None:
        return False
    if player.side is not None:
        return row.side == player.side
    return row.player_id == player.id


async def revise_order(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    order_id: str,
    body: dict[str, Any],
    now: datetime,
) -> dict[str, Any]:
    await require_accepting(session, game, now)
    row = await _own_order(session, game, principal, order_id)
    body, _ = await _read_text(game, principal, body)
    check_order(get_ruleset(game.ruleset), body)
    kind = _order_type(body)
    outcome = await run_step(
        session, game, STEP_REVISE, principal.actor, {"order_id": order_id, "order": body}, now
    )
    row.body = body
    row.type = kind
    row.updated_at = now
    row.status = outcome.order_status.get(order_id, row.status)
    session.add(_revision(row, "revise", body, principal, game.step_seq, now))
    return order_json(row, with_receipt(game, principal, outcome.reply, outcome.state))


async def withdraw_order(
    session: AsyncSession, game: Game, principal: Principal, order_id: str, now: datetime
) -> dict[str, Any]:
    await require_accepting(session, game, now)
    row = await _own_order(session, game, principal, order_id)
    outcome = await run_step(
        session, game, STEP_WITHDRAW, principal.actor, {"order_id": order_id}, now
    )
    row.status = outcome.order_status.get(order_id, "withdrawn")
    row.updated_at = now
    session.add(_revision(row, "withdraw", None, principal, game.step_seq, now))
    return order_json(row, with_receipt(game, principal, outcome.reply, outcome.state))


async def list_orders(
    session: AsyncSession, game: Game, principal: Principal, status: str | None
) -> list[dict[str, Any]]:
    require_known(principal)
    query = select(OrderRow).where(OrderRow.game_id == game.id)
    if principal.role != "director":
        player = require_player(principal)
        if player.side is not None:
            query = query.where(OrderRow.side == player.side)
        else:
            query = query.where(OrderRow.player_id == player.id)
    if status:
        query = query.where(OrderRow.status == status)
    rows = (await session.scalars(query.order_by(OrderRow.created_at, OrderRow.id))).all()
    return [order_json(r) for r in rows]


async def order_history(
    session: AsyncSession, game: Game, principal: Principal, order_id: str
) -> list[dict[str, Any]]:
    if principal.role == "director":
        row = await session.get(OrderRow, order_id)
        if row is None or row.game_id != game.id:
            raise not_found("指令", "order")
    else:
        row = await _own_order(session, game, principal, order_id)
    revisions = (
        await session.scalars(
            select(OrderRevision).where(OrderRevision.order_id == row.id).order_by(OrderRevision.id)
        )
    ).all()
    return [
        {
            "action": r.action,
            "status": r.status,
            "body": r.body,
            "by_role": r.by_role,
            "by_player_id": r.by_player_id,
            "at": r.at.isoformat(),
        }
        for r in revisions
    ]


async def mark_ready(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    require_player(principal)
    await require_accepting(session, game, now)
    outcome = await run_step(session, game, STEP_READY, principal.actor, {}, now)
    return {"ok": True, "status": game.status, **outcome.reply}


def _revision(
    row: OrderRow,
    action: str,
    body: dict[str, Any] | None,
    principal: Principal,
    step_seq: int,
    now: datetime,
) -> OrderRevision:
    return OrderRevision(
        **_revision_values(row.id, action, body, row.status, principal, step_seq, now)
    )


def _revision_values(
    order_id: str,
    action: str,
    body: dict[str, Any] | None,
    status: str,
    principal: Principal,
    step_seq: int,
    now: datetime,
) -> dict[str, Any]:
    return {
        "order_id": order_id,
        "action": action,
        "body": body,
        "status": status,
        "by_role": principal.role,
        "by_player_id": principal.player.id if principal.player else None,
        "step_seq": step_seq,
        "at": now,
    }
