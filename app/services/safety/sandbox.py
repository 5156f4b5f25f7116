"""A director's sandbox: a private copy of a game at one of its steps, to try "what if".

``POST /games/{id}/fork {"at_step"?: N}`` makes a new game marked ``sandbox``: the same
ruleset, settings, options and roster (new ids and tokens), the state and pending deadlines
the original had just after step N (default: now), a new seed — so nothing rolled in the
sandbox predicts the real game's dice — and no channels. Its log starts with a ``fork``
step holding that state (:mod:`app.services.safety.history`), so undo and replay work
there too. Only its director (and the admin) can read it: everyone else gets 404, the real
game's players included (their tokens name nobody there), so the hidden information the
copy holds is never seen through it by anyone else. It can never get a channel, and
``DELETE /games/{id}`` throws it away whole. Forking reads the original and writes nothing
to it.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, conflict
from app.ids import new_id
from app.models import AuditRow, Game, OrderRevision, OrderRow, PlayerRow, StepRow
from app.rules.base import DIRECTOR, TimerSpec, seed_commitment
from app.rules.registry import get_ruleset
from app.services.auth import Principal, hash_token, new_token, require_director
from app.services.safety.history import (
    FORK_STEP,
    Point,
    TimerKey,
    point_after,
    recorded_step,
    timers_json,
)
from app.services.safety.undo import initial_state
from app.services.steps import (
    is_game_timer,
    pending_timers,
    schedule_timer,
    state_hash,
)


def not_a_sandbox() -> AppError:
    return conflict("not_a_sandbox", "这不是沙盘。", "This game is not a sandbox.")


def _step_of(raw: Any, game: Game) -> int:
    if raw is None:
        return game.step_seq
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= game.step_seq:
        raise AppError(
            422,
            "bad_step",
            f"at_step 须为 1 到 {game.step_seq} 之间的步骤编号。",
            f"'at_step' must be a step number from 1 to {game.step_seq}.",
        )
    return raw


async def _point(session: AsyncSession, game: Game, at: int, now: datetime) -> Point:
    """The original just after step ``at``, with deadlines as far off as they then were."""
    if at == game.step_seq and game.state is not None:
        timers: dict[TimerKey, TimerSpec] = {}
        for t in await pending_timers(session, game):
            if not is_game_timer(t):
                continue
            due = t.due_at or now + timedelta(seconds=t.remaining_seconds or 0.0)
            timers[(t.kind, t.key)] = TimerSpec(t.kind, t.key, due, dict(t.data or {}))
        return Point(game.state, timers)
    rows = (
        await session.scalars(
            select(StepRow).where(StepRow.game_id == game.id).order_by(StepRow.seq)
        )
    ).all()
    recorded = [recorded_step(r) for r in rows]
    initial = await initial_state(session, game)
    point, _ = await asyncio.to_thread(point_after, game.ruleset, game.seed, initial, recorded, at)
    later = [r.at for r in rows if r.seq > at]
    shift = now - later[0] if later else timedelta(0)
    return Point(
        point.state,
        {
            k: TimerSpec(s.kind, s.key, max(now, s.due_at + shift), dict(s.data or {}))
            for k, s in point.timers.items()
        },
    )


def _renamer(mapping: dict[str, str]) -> Any:
    """Replace every id of ``mapping`` in a JSON value (as whole words, wherever it stands:
    a key, a value, inside "player:<id>")."""
    if not mapping:
        return lambda value: value
    pattern = re.compile(
        r"(?<![A-Za-z0-9])(" + "|".join(re.escape(k) for k in mapping) + r")(?![A-Za-z0-9])"
    )

    def rename(value: Any) -> Any:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return json.loads(pattern.sub(lambda m: mapping[m.group(1)], text))

    return rename


async def fork(
    session: AsyncSession, game: Game, principal: Principal, body: dict[str, Any], now: datetime
) -> dict[str, Any]:
    require_director(principal)
    if game.state is None:
        raise conflict(
            "not_started", "游戏尚未开始，没有可以分叉的局面。", "The game has not started."
        )
    at = _step_of(body.get("at_step"), game)
    point = await _point(session, game, at, now)
    players = (
        await session.scalars(
            select(PlayerRow).where(PlayerRow.game_id == game.id).order_by(PlayerRow.ordinal)
        )
    ).all()
    orders = await _orders_at(session, game, at)
    mapping = {p.id: new_id() for p in players} | {o.id: new_id() for o, _, _ in orders}
    rename = _renamer(mapping)
    state = rename(point.state)
    timers = {
        k: TimerSpec(s.kind, s.key, s.due_at, rename(s.data)) for k, s in point.timers.items()
    }
    seed = secrets.token_hex(32)
    director_token = new_token("fpd")
    sandbox = Game(
        id=new_id(),
        ruleset=game.ruleset,
        title=game.title,
        status="finished" if get_ruleset(game.ruleset).is_finished(state) else "running",
        settings=dict(game.settings),
        options=dict(game.options),
        timezone=game.timezone,
        state=state,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        seed_revealed=False,
        director_token_hash=hash_token(director_token),
        step_seq=1,
        event_seq=0,
        created_at=now,
        updated_at=now,
        sandbox=True,
        forked_from=game.id,
        forked_at_step=at,
        undos=0,
    )
    session.add(sandbox)
    await session.flush()
    roster = []
    for p in players:
        token = new_token("fpp")
        session.add(
            PlayerRow(
                id=mapping[p.id],
                game_id=sandbox.id,
                ordinal=p.ordinal,
                name=p.name,
                side=p.side,
                token_hash=hash_token(token),
                created_at=now,
                forum_name=None,
            )
        )
        roster.append({"id": mapping[p.id], "name": p.name, "side": p.side, "token": token})
    await session.flush()
    for order, status, body_then in orders:
        new = mapping[order.id]
        session.add(
            OrderRow(
                id=new,
                game_id=sandbox.id,
                player_id=mapping.get(order.player_id, order.player_id),
                side=order.side,
                type=str(body_then.get("type", order.type)),
                body=rename(body_then),
                status=status,
                step_seq=1,
                created_at=order.created_at,
                updated_at=now,
            )
        )
    await session.flush()
    for order, status, body_then in orders:
        session.add(
            OrderRevision(
                order_id=mapping[order.id],
                action="fork",
                body=rename(body_then),
                status=status,
                by_role="director",
                by_player_id=None,
                step_seq=1,
                at=now,
            )
        )
    payload = {
        "from_game": game.id,
        "at_step": at,
        "state": state,
        "timers": timers_json(timers),
    }
    session.add(
        StepRow(
            game_id=sandbox.id,
            seq=1,
            kind=FORK_STEP,
            actor_role=DIRECTOR.role,
            actor_player_id=None,
            actor_side=None,
            payload=payload,
            at=now,
            state_hash=state_hash(state),
        )
    )
    for spec in timers.values():
        await schedule_timer(session, sandbox, spec, now)
    session.add(
        AuditRow(
            game_id=sandbox.id,
            actor=principal.audit_name,
            action="fork",
            payload={"from_game": game.id, "at_step": at},
            at=now,
        )
    )
    return {
        "id": sandbox.id,
        "director_token": director_token,
        "sandbox": True,
        "forked_from": game.id,
        "at_step": at,
        "seed_commitment": sandbox.seed_commitment,
        "players": roster,
    }


async def _orders_at(
    session: AsyncSession, game: Game, at: int
) -> list[tuple[OrderRow, str, dict[str, Any]]]:
    """The original's orders given by step ``at``, each with its status and body then."""
    rows = (
        await session.scalars(
            select(OrderRow)
            .where(OrderRow.game_id == game.id, OrderRow.step_seq <= at)
            .order_by(OrderRow.created_at, OrderRow.id)
        )
    ).all()
    if not rows:
        return []
    revisions = (
        await session.scalars(
            select(OrderRevision)
            .where(OrderRevision.order_id.in_([r.id for r in rows]), OrderRevision.step_seq <= at)
            .order_by(OrderRevision.id)
        )
    ).all()
    out = []
    for row in rows:
        mine = [r for r in revisions if r.order_id == row.id]
        status = mine[-1].status if mine else row.status
        bodies = [r.body for r in mine if r.body is not None]
        out.append((row, status, dict(bodies[-1]) if bodies else dict(row.body)))
    return out
