"""Director tools: advance, pause/resume, extend deadlines, edit state. Each is audited."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, conflict
from app.models import AuditRow, Game, Timer
from app.rules.base import DIRECTOR, STEP_DIRECTOR, STEP_TIMER, SYSTEM, Actor
from app.rules.registry import get_ruleset
from app.services.auth import Principal, require_director
from app.services.bodies import check_director_action
from app.services.games import GameOptions, audit, deadline_timer_kinds, summary
from app.services.steps import (
    StepWrite,
    append_event,
    compute_step,
    is_game_timer,
    pending_timers,
    persist_steps,
    run_step,
)


def _require_live(game: Game) -> None:
    if game.status == "setup":
        raise conflict("not_started", "游戏尚未开始。", "The game has not started yet.")
    if game.status == "finished":
        raise conflict("game_finished", "游戏已结束。", "The game is over.")


def timer_step(game: Game, timer: Timer, now: datetime, actor: Actor = SYSTEM) -> StepWrite:
    """Apply one timer to its game, in memory only (nothing is written; a raise here
    leaves the session as it was)."""
    payload = {"kind": timer.kind, "key": timer.key, "data": timer.data}
    return compute_step(game, STEP_TIMER, actor, payload, now)


async def write_timer_steps(
    session: AsyncSession, fired: list[tuple[Timer, StepWrite]], now: datetime
) -> None:
    """Write applied timer steps (of distinct games) together. Each timer is marked done
    first, so a step that schedules the same (kind, key) again (the next phase) revives it."""
    for timer, _ in fired:
        timer.done_at = now
    await persist_steps(session, [write for _, write in fired])


async def fire_timer(
    session: AsyncSession, game: Game, timer: Timer, now: datetime, actor: Actor = SYSTEM
) -> None:
    """Run one timer as a step of its game."""
    await write_timer_steps(session, [(timer, timer_step(game, timer, now, actor))], now)


async def advance(
    session: AsyncSession, game: Game, principal: Principal, now: datetime, dry_run: bool = False
) -> dict[str, Any]:
    """Close the current phase now: run the game's next pending timer, or, where no
    deadline is set, ask the ruleset to close the phase. ``dry_run``: say which, run
    nothing."""
    require_director(principal)
    _require_live(game)
    ordered = await _game_timers(session, game, now)
    if dry_run:
        would = {"timer": _timer_ran(ordered[0])} if ordered else {"action": "close_phase"}
        return {"advanced": would, "dry_run": True, "game": await summary(session, game)}
    if ordered:
        timer = ordered[0]
        ran: dict[str, Any] = {"timer": _timer_ran(timer)}  # before it runs (and is renewed)
        await fire_timer(session, game, timer, now, DIRECTOR)
    else:
        await run_step(session, game, STEP_DIRECTOR, DIRECTOR, {"action": "close_phase"}, now)
        ran = {"action": "close_phase"}
    audit(session, game, principal, "advance", ran, now)
    return {"advanced": ran, "game": await summary(session, game)}


def _timer_ran(timer: Timer) -> dict[str, Any]:
    """What a director's console says of a timer it ran: its kind, key and data (the
    phase or the local time and date it stood for)."""
    return {"kind": timer.kind, "key": timer.key, "data": dict(timer.data or {})}


async def _game_timers(session: AsyncSession, game: Game, now: datetime) -> list[Timer]:
    """The game's own pending timers, in the order they would run."""
    timers = [t for t in await pending_timers(session, game) if is_game_timer(t)]
    return sorted(timers, key=lambda t: (t.due_at is None, t.due_at or now, t.id))


MIDNIGHT_KIND = "midnight"
MAX_TIMERS_TO_MIDNIGHT = 100


async def advance_to_midnight(
    session: AsyncSession, game: Game, principal: Principal, now: datetime, dry_run: bool = False
) -> dict[str, Any]:
    """Run every pending timer of the game up to and including its next midnight timer (a
    game's daily 24:00 settlement), in order, as if the clock had reached it. A game with no
    pending midnight timer is refused; one that ends on the way stops there."""
    require_director(principal)
    _require_live(game)
    if not any(t.kind == MIDNIGHT_KIND for t in await _game_timers(session, game, now)):
        raise conflict(
            "no_midnight",
            "这局游戏没有待运行的 24:00 结算。",
            "This game has no 24:00 settlement to run.",
        )
    if dry_run:  # the timers pending now, up to the 24:00 (a run may add more on the way)
        pending = await _game_timers(session, game, now)
        upto = next(i for i, t in enumerate(pending) if t.kind == MIDNIGHT_KIND)
        would = {"timers": [_timer_ran(t) for t in pending[: upto + 1]]}
        return {"advanced": would, "dry_run": True, "game": await summary(session, game)}
    ran: list[dict[str, Any]] = []
    for _ in range(MAX_TIMERS_TO_MIDNIGHT):
        ordered = await _game_timers(session, game, now)
        if not ordered or game.status == "finished":
            break
        timer = ordered[0]
        ran.append(_timer_ran(timer))  # before it runs: a step may renew it for the next day
        # The run is one step per timer, each the same as the clock reaching it.
        await fire_timer(session, game, timer, now, DIRECTOR)
        if ran[-1]["kind"] == MIDNIGHT_KIND:
            break
    audit(session, game, principal, "advance_to_midnight", {"timers": ran}, now)
    return {"advanced": {"timers": ran}, "game": await summary(session, game)}


async def pause(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    _require_live(game)
    if game.status == "paused":
        raise conflict("already_paused", "游戏已处于暂停状态。", "The game is already paused.")
    pause_clocks(game, await pending_timers(session, game), now)
    append_event(session, game, "paused", {}, ["public"], now)
    audit(session, game, principal, "pause", {}, now)
    return await summary(session, game)


def pause_clocks(game: Game, timers: list[Timer], now: datetime) -> None:
    game.status = "paused"
    game.paused_at = now
    for timer in timers:
        if timer.due_at is not None:
            timer.remaining_seconds = max(0.0, (timer.due_at - now).total_seconds())
            timer.due_at = None


async def resume(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    if game.status != "paused":
        raise conflict("not_paused", "游戏并未暂停。", "The game is not paused.")
    game.status = "running"
    game.paused_at = None
    for timer in await pending_timers(session, game):
        if timer.failed_at is not None:
            # A timer parked after its retries ran out (app/scheduler.py) gets a fresh
            # start: it is due again at once. Still broken, it is parked again and the
            # game paused again; the error stays on the row until it runs.
            timer.failed_at = None
            timer.attempts = 0
            timer.next_try_at = None
        if timer.due_at is None:
            timer.due_at = now + timedelta(seconds=timer.remaining_seconds or 0.0)
            timer.remaining_seconds = None
    append_event(session, game, "resumed", {}, ["public"], now)
    audit(session, game, principal, "resume", {}, now)
    return await summary(session, game)


async def extend_deadline(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    seconds: float,
    kind: str | None,
    key: str | None,
    now: datetime,
) -> dict[str, Any]:
    """Move a deadline later by ``seconds`` (default: the current phase's deadline)."""
    require_director(principal)
    _require_live(game)
    options = GameOptions.model_validate(game.options)
    timers = [t for t in await pending_timers(session, game) if is_game_timer(t)]
    candidates = [
        t for t in timers if (kind is None or t.kind == kind) and (key is None or t.key == key)
    ]
    if kind is None and key is None:
        deadlines = deadline_timer_kinds(game)
        candidates = [t for t in candidates if t.kind in deadlines] or candidates
    if not candidates:
        raise AppError(
            404, "no_deadline", "当前没有可以延长的截止时间。", "There is no deadline to extend."
        )
    timer = candidates[0]
    if timer.extensions >= options.max_extensions_per_deadline:
        raise conflict(
            "extension_limit",
            f"该截止时间已延长 {timer.extensions} 次，达到上限。",
            f"This deadline has already been extended {timer.extensions} times, the limit.",
        )
    timer.extensions += 1
    if timer.due_at is not None:
        timer.due_at = timer.due_at + timedelta(seconds=seconds)
        new_due: str | None = timer.due_at.isoformat()
    else:
        timer.remaining_seconds = (timer.remaining_seconds or 0.0) + seconds
        new_due = None
    data = {"kind": timer.kind, "key": timer.key, "seconds": seconds, "deadline": new_due}
    append_event(session, game, "deadline_extended", data, ["public"], now)
    audit(session, game, principal, "extend_deadline", data, now)
    return await summary(session, game)


async def director_action(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    body: dict[str, Any],
    now: datetime,
    dry_run: bool = False,
) -> dict[str, Any]:
    """A ruleset-specific edit of the game (move a player, set morale, resolve a story…).
    ``dry_run``: apply it in memory only and say what it would cause (nothing is written;
    its dice are not the ones a real run draws, which come from the step it is)."""
    require_director(principal)
    check_director_action(get_ruleset(game.ruleset), body)
    _require_live(game)
    if dry_run:
        would = compute_step(game, STEP_DIRECTOR, DIRECTOR, body, now).outcome
        return {
            "ok": True,
            "dry_run": True,
            "result": would.reply,
            "events": [e.kind for e in would.events],
            "finishes": would.finished,
        }
    outcome = await run_step(session, game, STEP_DIRECTOR, DIRECTOR, body, now)
    audit(session, game, principal, str(body["action"]), body, now)
    return {"ok": True, "result": outcome.reply, "events": [e.kind for e in outcome.events]}


async def audit_log(
    session: AsyncSession, game: Game, principal: Principal
) -> list[dict[str, Any]]:
    require_director(principal)
    rows = (
        await session.scalars(
            select(AuditRow).where(AuditRow.game_id == game.id).order_by(AuditRow.id)
        )
    ).all()
    return [
        {
            "id": r.id,
            "actor": r.actor,
            "action": r.action,
            "payload": r.payload,
            "at": r.at.isoformat(),
        }
        for r in rows
    ]


async def timers(session: AsyncSession, game: Game, principal: Principal) -> list[dict[str, Any]]:
    require_director(principal)
    return [
        {
            "kind": t.kind,
            "key": t.key,
            "due_at": t.due_at.isoformat() if t.due_at else None,
            "remaining_seconds": t.remaining_seconds,
            "extensions": t.extensions,
            "data": t.data,
            "attempts": t.attempts,
            "failed_at": t.failed_at.isoformat() if t.failed_at else None,
            "last_error": t.last_error,
        }
        for t in await pending_timers(session, game)
    ]
