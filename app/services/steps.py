"""Running one step of a game through its ruleset and persisting everything it caused.

This is the only place that calls ``Ruleset.apply``. The caller holds the game's row lock
and owns the transaction: a step that raises leaves nothing behind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from app import live
from app.errors import AppError
from app.models import (
    EVENTS,
    ORDER_REVISIONS,
    ORDERS,
    STEPS,
    TIMERS,
    EventRow,
    Game,
    SerializedJSON,
    Timer,
)
from app.publish import outbox, receipts
from app.publish.timers import DEADLINE_TIMER_KINDS, SERVICE_TIMER_KINDS
from app.rules.base import Actor, Event, Outcome, RuleViolation, Step, TimerSpec, step_rng
from app.rules.registry import get_ruleset
from app.services import pg_batch, state_cache
from app.services.seats import SIGNUP_TIMER_KINDS
from app.services.state_text import hash_text as hash_text
from app.services.state_text import serialize_state as serialize_state


def is_game_timer(timer: Timer) -> bool:
    """A timer the ruleset runs (not a publishing timer: auto-publish, reminders; nor a
    sign-up's: closing time, a backup's offer)."""
    return timer.kind not in SERVICE_TIMER_KINDS and timer.kind not in SIGNUP_TIMER_KINDS


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: Any) -> str:
    return hash_text(serialize_state(state))


def json_roundtrip(value: Any) -> Any:
    """What the database gives back for ``value``: replay must see the same thing."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def apply_step(
    ruleset_name: str, seed: str, state: dict[str, Any], step: Step, now: datetime
) -> Outcome:
    """Pure: the ruleset's ``apply`` with the step's own RNG. Shared by live play and replay.
    ``state`` must be as the database gives it back (replay round-trips it through JSON)."""
    ruleset = get_ruleset(ruleset_name)
    try:
        return ruleset.apply(state, step, step_rng(seed, step.id), now)
    except RuleViolation as violation:
        raise AppError.from_violation(violation) from None
    except OverflowError as error:
        # A stored duration too large for a date (say 1e12 s): the step cannot schedule
        # its next deadline. Nothing was written; say so instead of failing the request.
        raise timing_broken(error) from error


TIMING_BROKEN = "timing_broken"


def timing_broken(error: Exception) -> AppError:
    """The game's timing cannot be computed (its settings put a deadline past any date)."""
    return AppError(
        409,
        TIMING_BROKEN,
        f"本局的时间设置无法计算（截止时间超出可表示的日期范围：{error}），导演需检查本局设置。",
        f"This game's timing is broken: a deadline falls outside any representable date "
        f"({error}); the director must check the game's settings.",
    )


def event_record(event: Event) -> dict[str, Any]:
    """What of an event is stored, and so what replay compares."""
    return {
        "kind": event.kind,
        "data": event.data,
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
) -> None:
    """A service event (pause, resume, a missed deadline…): no step caused it, so replay
    does not compare it."""
    game.event_seq += 1
    live.changed(session, game.id, game.event_seq)
    session.add(
        EventRow(
            game_id=game.id,
            seq=game.event_seq,
            step_seq=None,
            at=now,
            kind=kind,
            data=data,
            audience=audience,
            reveal_at=None,
        )
    )
    outbox.note_events(session, [{"game_id": game.id, "seq": game.event_seq, "audience": audience}])


# Built once: the statements every step runs.
_INSERT_STEP = insert(STEPS)
_INSERT_EVENT = insert(EVENTS)
_INSERT_ORDER = insert(ORDERS)
_INSERT_ORDER_REVISION = insert(ORDER_REVISIONS)


@dataclass
class StepWrite:
    """One applied step, ready to be written: what ``persist_steps`` needs."""

    game: Game
    seq: int
    kind: str
    actor: Actor
    payload: dict[str, Any]
    now: datetime
    outcome: Outcome
    new_order: dict[str, Any] | None = None  # the order row this step creates, if any
    new_revision: dict[str, Any] | None = None
    before: dict[str, Any] | None = None  # the state the step was applied to (receipts)


def compute_step(
    game: Game, kind: str, actor: Actor, payload: Mapping[str, Any], now: datetime
) -> StepWrite:
    """Apply one step to a locked, running game, in memory only."""
    if game.state is None:
        raise AppError(409, "not_started", "游戏尚未开始。", "The game has not started.")
    seq = game.step_seq + 1
    step = Step(id=f"s{seq}", kind=kind, actor=actor, payload=dict(payload))
    outcome = apply_step(game.ruleset, game.seed, game.state, step, now)
    return StepWrite(game, seq, kind, actor, dict(payload), now, outcome, before=game.state)


async def persist_steps(session: AsyncSession, writes: list[StepWrite]) -> None:
    """Write applied steps (of distinct games) with as few statements as possible.

    This is every request's hot path, and a batch of submissions shares it: each table
    gets one multi-row statement on the session's connection, without the ORM's
    bookkeeping (which costs more than the statements themselves). The loaded game
    objects are told their new values as already saved, so nothing is flushed twice.
    """
    if not writes:
        return
    conn = await session.connection()
    game_rows: list[dict[str, Any]] = []
    step_rows: list[dict[str, Any]] = []
    event_rows: list[dict[str, Any]] = []
    orders: list[dict[str, Any]] = []
    revisions: list[dict[str, Any]] = []
    for w in writes:
        game, outcome = w.game, w.outcome
        # A large state is encoded piece by piece (what the step did not touch is the text
        # written last time); a small one whole.
        stored = state_cache.state_text(game.id, outcome.state)
        digest = state_cache.checked_digest(stored, outcome.state)
        base, delta, delta_text = state_cache.stored_against(
            game, outcome.state, len(stored), digest
        )
        changes = {
            "step_seq": w.seq,
            "event_seq": game.event_seq + len(outcome.events),
            "state": outcome.state,
            "state_delta": delta,
            "state_hash": digest,
            "state_base": base.digest,
            "updated_at": w.now,
        }
        game_rows.append(
            {
                "game_id": game.id,
                **changes,
                "state": None if delta_text is not None else SerializedJSON(stored.decode()),
                "state_delta": delta_text,
            }
        )
        # The next step of this game, here, need not read back what it wrote.
        state_cache.wrote(game, digest, outcome.state, base, len(stored))
        step_rows.append(
            {
                "game_id": game.id,
                "seq": w.seq,
                "kind": w.kind,
                "actor_role": w.actor.role,
                "actor_player_id": w.actor.player_id,
                "actor_side": w.actor.side,
                "payload": w.payload,
                "at": w.now,
                "state_hash": digest,
            }
        )
        event_rows.extend(
            {
                "game_id": game.id,
                "seq": game.event_seq + 1 + i,
                "step_seq": w.seq,
                "at": w.now,
                **event_record(event),
            }
            for i, event in enumerate(outcome.events)
        )
        if w.new_order is not None:
            orders.append(w.new_order)
        if w.new_revision is not None:
            revisions.append(w.new_revision)
        for attribute, value in changes.items():
            set_committed_value(game, attribute, value)
        if outcome.events:
            live.changed(session, game.id, game.event_seq)
    outbox.note_events(session, event_rows)  # posts for public events, written at commit
    changes_of_orders = _order_status_changes(writes)
    if conn.dialect.name == "postgresql":
        notices = live.take_notices(session)  # sent with the rows: one round trip less
        await pg_batch.write_batch(
            conn,
            game_rows,
            step_rows,
            event_rows,
            orders,
            revisions,
            changes_of_orders,
            notices,
            seqscan_off=bool(session.info.get(pg_batch.SEQSCAN_OFF)),
        )
    else:
        await state_cache.write_games(conn, game_rows)
        await conn.execute(_INSERT_STEP, step_rows)
        if event_rows:
            await conn.execute(_INSERT_EVENT, event_rows)
        if orders:
            await conn.execute(_INSERT_ORDER, orders)
        if revisions:
            await conn.execute(_INSERT_ORDER_REVISION, revisions)
        await _update_orders(conn, changes_of_orders)
    known = await _timers_of(
        session, [w for w in writes if w.outcome.timers or w.outcome.cancel_timers]
    )
    for w in writes:
        game, outcome = w.game, w.outcome
        for spec in outcome.timers:
            await schedule_timer(session, game, spec, w.now, known)
        for timer_kind, key in outcome.cancel_timers:
            await cancel_timer(session, game, timer_kind, key, w.now, known)
        await seal_receipts(session, w)
        if outcome.finished:
            await finish_game(session, game, w.now)


async def seal_receipts(session: AsyncSession, w: StepWrite) -> None:
    """At a phase close, publish the sealed-order receipts; when orders are revealed or
    the game ends, their salts (app/publish/receipts.py)."""
    game = w.game
    for kind, data, audience in await receipts.receipt_events(
        session,
        game.id,
        game.ruleset,
        game.seed,
        w.before,
        w.outcome.events,
        w.outcome.finished,
        w.seq,
        game.undos or 0,
    ):
        append_event(session, game, kind, data, audience, w.now)


async def run_step(
    session: AsyncSession,
    game: Game,
    kind: str,
    actor: Actor,
    payload: Mapping[str, Any],
    now: datetime,
) -> Outcome:
    """Apply one step to a locked, running game and persist its effects."""
    write = compute_step(game, kind, actor, payload, now)
    await persist_steps(session, [write])
    return write.outcome


def _order_status_changes(writes: list[StepWrite]) -> list[dict[str, Any]]:
    """The statuses the rules gave existing orders, as rows: an order whose status really
    changes gets it, and a revision recording who caused it (one per order, sorted)."""
    changes = []
    for w in writes:
        new_id = w.new_order["id"] if w.new_order else None
        for order_id, status in sorted(w.outcome.order_status.items()):
            if order_id != new_id:
                changes.append(
                    {
                        "id": order_id,
                        "game_id": w.game.id,
                        "status": status,
                        "by_role": w.actor.role,
                        "by_player_id": w.actor.player_id,
                        "step_seq": w.seq,
                        "at": w.now,
                    }
                )
    return changes


async def _update_orders(conn: AsyncConnection, changes: list[dict[str, Any]]) -> None:
    """The portable way: one UPDATE per order that changes, then its revision rows."""
    revisions = []
    for change in changes:
        changed = (
            await conn.execute(
                update(ORDERS)
                .where(
                    ORDERS.c.game_id == change["game_id"],
                    ORDERS.c.id == change["id"],
                    ORDERS.c.status != change["status"],
                )
                .values(status=change["status"], updated_at=change["at"])
            )
        ).rowcount
        if changed:
            revisions.append(
                {
                    "order_id": change["id"],
                    "action": "status",
                    "body": None,
                    "status": change["status"],
                    "by_role": change["by_role"],
                    "by_player_id": change["by_player_id"],
                    "step_seq": change["step_seq"],
                    "at": change["at"],
                }
            )
    if revisions:
        await conn.execute(_INSERT_ORDER_REVISION, revisions)


TimerKey = tuple[str, str, str]  # game id, kind, key


async def _timers_of(session: AsyncSession, writes: list[StepWrite]) -> dict[TimerKey, Timer]:
    """Every timer of the games of ``writes``, in ONE query (a batch of phase closes would
    otherwise look each one up, a round trip per game)."""
    if not writes:
        return {}
    rows = await session.scalars(
        select(Timer).where(Timer.game_id.in_([w.game.id for w in writes]))
    )
    return {(t.game_id, t.kind, t.key): t for t in rows.all()}


async def schedule_timer(
    session: AsyncSession,
    game: Game,
    spec: TimerSpec,
    now: datetime,
    known: dict[TimerKey, Timer] | None = None,
) -> Timer:
    """Create or replace the game's (kind, key) timer. While the game is paused the timer
    keeps its remaining time instead of a due time. ``known``: the game's timers, looked
    up already (``_timers_of``)."""
    if known is not None:
        row = known.get((game.id, spec.kind, spec.key))
    else:
        row = await session.scalar(
            select(Timer).where(
                Timer.game_id == game.id, Timer.kind == spec.kind, Timer.key == spec.key
            )
        )
    if row is None:
        row = Timer(game_id=game.id, kind=spec.kind, key=spec.key, created_at=now, extensions=0)
        session.add(row)
        if known is not None:
            known[(game.id, spec.kind, spec.key)] = row
    row.data = spec.data
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
    session: AsyncSession,
    game: Game,
    kind: str,
    key: str,
    now: datetime,
    known: dict[TimerKey, Timer] | None = None,
) -> None:
    if known is not None:
        row = known.get((game.id, kind, key))
    else:
        row = await session.scalar(
            select(Timer).where(Timer.game_id == game.id, Timer.kind == kind, Timer.key == key)
        )
    if row is not None and row.done_at is None:
        row.done_at = now


def deadline_due_query(game_id: Any, now: Any, kinds: Any = None) -> Select[tuple[int]]:
    """The game's deadline timer that is due but has not run yet (at most one row).
    ``kinds``: the deadline timer kinds (a bound parameter), else every game's as now."""
    return (
        select(TIMERS.c.id)
        .where(
            TIMERS.c.game_id == game_id,
            TIMERS.c.done_at.is_(None),
            TIMERS.c.kind.in_(tuple(DEADLINE_TIMER_KINDS) if kinds is None else kinds),
            TIMERS.c.due_at <= now,
        )
        .limit(1)
    )


_DEADLINE_DUE = deadline_due_query(
    bindparam("game_id"),
    bindparam("now", type_=TIMERS.c.due_at.type),
    bindparam("kinds", expanding=True),
)


async def deadline_due(session: AsyncSession, game: Game, now: datetime) -> bool:
    """Has the game's current deadline passed (and not yet been run)?"""
    conn = await session.connection()
    found = await conn.execute(
        _DEADLINE_DUE, {"game_id": game.id, "now": now, "kinds": list(DEADLINE_TIMER_KINDS)}
    )
    return found.first() is not None


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
        seed: dict[str, Any] = {"seed": game.seed, "seed_commitment": game.seed_commitment}
        if game.undos:  # the end-of-game post says how many undos there were
            seed["undos"] = game.undos
        append_event(session, game, "seed_revealed", seed, ["public"], now)
