"""Running one step of a game through its ruleset and persisting everything it caused.

This is the only place that calls ``Ruleset.apply``. The caller holds the game's row lock
and owns the transaction: a step that raises leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError
from app.models import EventRow, Game, OrderRevision, OrderRow, StepRow, Timer
from app.rules.base import Actor, Event, Outcome, RuleViolation, Step, TimerSpec, step_rng
from app.rules.registry import get_ruleset


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: Any) -> str:
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def json_roundtrip(value: Any) -> Any:
    """What the database gives back for ``value``: replay must see the same thing."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def apply_step(
    ruleset_name: str, seed: str, state: dict[str, Any], step: Step, now: datetime
) -> Outcome:
    """Pure: the ruleset's ``apply`` with the step's own RNG. Shared by live play and replay."""
    ruleset = get_ruleset(ruleset_name)
    try:
        outcome = ruleset.apply(state, step, step_rng(seed, step.id), now)
    except RuleViolation as violation:
        raise AppError.from_violation(violation) from None
    outcome.state = json_roundtrip(outcome.state)
    return outcome


def event_record(event: Event) -> dict[str, Any]:
    return {
        "kind": event.kind,
        "data": json_roundtrip(event.data),
        "audience": list(event.audience),
        "reveal_at": event.reveal_at,
    }


def append_event(
    session: AsyncSession,
    game: Game,
    kind: str,
    data: dict[str, Any],
    audience: list[str],
    now: datetime,
    step_seq: int | None = None,
    reveal_at: str | None = None,
) -> EventRow:
    game.event_seq += 1
    row = EventRow(
        game_id=game.id,
        seq=game.event_seq,
        step_seq=step_seq,
        at=now,
        kind=kind,
        data=json_roundtrip(data),
        audience=audience,
        reveal_at=reveal_at,
    )
    session.add(row)
    return row


async def run_step(
    session: AsyncSession,
    game: Game,
    kind: str,
    actor: Actor,
    payload: Mapping[str, Any],
    now: datetime,
) -> Outcome:
    """Apply one step to a locked, running game and persist its effects."""
    if game.state is None:
        raise AppError(409, "not_started", "游戏尚未开始。", "The game has not started.")
    seq = game.step_seq + 1
    step = Step(id=f"s{seq}", kind=kind, actor=actor, payload=dict(payload))
    outcome = apply_step(game.ruleset, game.seed, game.state, step, now)

    game.step_seq = seq
    game.state = outcome.state
    game.updated_at = now
    session.add(
        StepRow(
            game_id=game.id,
            seq=seq,
            kind=kind,
            actor_role=actor.role,
            actor_player_id=actor.player_id,
            actor_side=actor.side,
            payload=json_roundtrip(dict(payload)),
            at=now,
            state_hash=state_hash(outcome.state),
        )
    )
    for event in outcome.events:
        record = event_record(event)
        append_event(
            session,
            game,
            record["kind"],
            record["data"],
            record["audience"],
            now,
            step_seq=seq,
            reveal_at=record["reveal_at"],
        )
    for spec in outcome.timers:
        await schedule_timer(session, game, spec, now)
    for timer_kind, key in outcome.cancel_timers:
        await cancel_timer(session, game, timer_kind, key, now)
    await _update_orders(session, game, outcome.order_status, actor, seq, now)
    if outcome.finished:
        await finish_game(session, game, now)
    return outcome


async def _update_orders(
    session: AsyncSession,
    game: Game,
    statuses: Mapping[str, str],
    actor: Actor,
    seq: int,
    now: datetime,
) -> None:
    if not statuses:
        return
    rows = (
        await session.scalars(
            select(OrderRow).where(OrderRow.game_id == game.id, OrderRow.id.in_(list(statuses)))
        )
    ).all()
    for row in rows:
        status = statuses[row.id]
        if row.status == status:
            continue
        row.status = status
        row.updated_at = now
        session.add(
            OrderRevision(
                order_id=row.id,
                action="status",
                body=None,
                status=status,
                by_role=actor.role,
                by_player_id=actor.player_id,
                step_seq=seq,
                at=now,
            )
        )


async def schedule_timer(
    session: AsyncSession, game: Game, spec: TimerSpec, now: datetime
) -> Timer:
    """Create or replace the game's (kind, key) timer. While the game is paused the timer
    keeps its remaining time instead of a due time."""
    row = await session.scalar(
        select(Timer).where(
            Timer.game_id == game.id, Timer.kind == spec.kind, Timer.key == spec.key
        )
    )
    if row is None:
        row = Timer(game_id=game.id, kind=spec.kind, key=spec.key, created_at=now, extensions=0)
        session.add(row)
    row.data = json_roundtrip(spec.data)
    row.done_at = None
    row.extensions = 0
    if game.status == "paused":
        row.due_at = None
        row.remaining_seconds = max(0.0, (spec.due_at - now).total_seconds())
    else:
        row.due_at = spec.due_at
        row.remaining_seconds = None
    return row


async def cancel_timer(
    session: AsyncSession, game: Game, kind: str, key: str, now: datetime
) -> None:
    row = await session.scalar(
        select(Timer).where(
            Timer.game_id == game.id,
            Timer.kind == kind,
            Timer.key == key,
            Timer.done_at.is_(None),
        )
    )
    if row is not None:
        row.done_at = now


async def pending_timers(session: AsyncSession, game: Game) -> list[Timer]:
    rows = await session.scalars(
        select(Timer)
        .where(Timer.game_id == game.id, Timer.done_at.is_(None))
        .order_by(Timer.due_at, Timer.id)
    )
    return list(rows.all())


async def finish_game(session: AsyncSession, game: Game, now: datetime) -> None:
    """The game is over: stop its clocks and reveal the seed (anyone may now verify)."""
    game.status = "finished"
    game.finished_at = now
    for timer in await pending_timers(session, game):
        timer.done_at = now
    hidden = (
        await session.scalars(
            select(EventRow)
            .where(EventRow.game_id == game.id, EventRow.reveal_at == "end")
            .order_by(EventRow.seq)
        )
    ).all()
    if hidden:
        revealed = [{"at": e.at.isoformat(), "kind": e.kind, "data": e.data} for e in hidden]
        append_event(session, game, "hidden_events_revealed", {"events": revealed}, ["public"], now)
    if not game.seed_revealed:
        game.seed_revealed = True
        append_event(
            session,
            game,
            "seed_revealed",
            {"seed": game.seed, "seed_commitment": game.seed_commitment},
            ["public"],
            now,
        )
