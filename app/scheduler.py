"""The deadline loop: durable timers, run exactly once across crashes and replicas.

Each timer runs in its own transaction, together with the game change it causes:

1. claim one due timer row with ``FOR UPDATE SKIP LOCKED`` (another worker skips it);
2. lock its game row with ``FOR UPDATE SKIP LOCKED`` — a request holding the game may
   be about to reschedule this very timer, so waiting here could deadlock; skip the game
   for this pass instead;
3. run the step, mark the timer done, commit.

A crash anywhere rolls all of it back and the row is claimed again. On SQLite (one
process) every transaction is BEGIN IMMEDIATE, which serialises the same code.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import observability
from app.clock import Clock
from app.errors import AppError
from app.models import Game, Timer
from app.publish import outbox
from app.publish import service as publishing
from app.services.director import fire_timer, pause_clocks
from app.services.games import GameOptions
from app.services.steps import append_event, pending_timers

log = logging.getLogger("forumplay.scheduler")


async def run_due_timers(
    sessionmaker: async_sessionmaker[AsyncSession], clock: Clock, limit: int = 1000
) -> int:
    """Run every timer due now (at most ``limit``); return how many ran."""
    done = 0
    skipped: set[int] = set()
    while done < limit:
        outcome = await _run_one(sessionmaker, clock, skipped)
        if outcome is None:
            break
        if outcome:
            done += 1
    return done


async def _run_one(
    sessionmaker: async_sessionmaker[AsyncSession], clock: Clock, skipped: set[int]
) -> bool | None:
    """Claim and run one due timer. None: nothing left to claim; False: skipped one."""
    async with sessionmaker() as session, session.begin():
        now = clock.now()
        query = (
            select(Timer)
            .where(Timer.done_at.is_(None), Timer.due_at.is_not(None), Timer.due_at <= now)
            .order_by(Timer.due_at, Timer.id)
            .limit(1)
            .with_for_update(skip_locked=True)
        )
        if skipped:
            query = query.where(Timer.id.not_in(skipped))
        timer = await session.scalar(query)
        if timer is None:
            return None
        game = await session.scalar(
            select(Game)
            .where(Game.id == timer.game_id)
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        )
        if game is not None and timer.kind in outbox.SERVICE_TIMER_KINDS:
            await publishing.run_service_timer(session, game, timer, now)  # no ruleset
            return True
        if game is None or game.status != "running":
            # Busy elsewhere (it will be retried on the next pass), or a paused game's
            # timer that kept its due time by mistake: leave it for resume.
            skipped.add(timer.id)
            return False
        assert timer.due_at is not None
        options = GameOptions.model_validate(game.options)
        lateness = now - timer.due_at
        if options.missed_deadline == "pause" and lateness > timedelta(
            seconds=options.missed_deadline_grace_seconds
        ):
            data = {"kind": timer.kind, "key": timer.key, "due_at": timer.due_at.isoformat()}
            pause_clocks(game, await pending_timers(session, game), now)
            append_event(session, game, "deadline_missed", data, ["director"], now)
            return True
        try:
            async with session.begin_nested():
                await fire_timer(session, game, timer, now)
        except AppError as error:
            # The ruleset refused this timer (e.g. stale): record it, never retry forever.
            log.warning("timer %s/%s of game %s refused: %s", timer.kind, timer.key, game.id, error)
            timer.done_at = now
            data = {"kind": timer.kind, "key": timer.key, "code": error.code}
            append_event(session, game, "timer_refused", data, ["director"], now)
        observability.timer_ran(timer.kind, game.id, lateness)
        return True


async def scheduler_loop(
    sessionmaker: async_sessionmaker[AsyncSession], clock: Clock, interval: float, batch: int
) -> None:
    """Forever: run what is due, then wait. Started by the app's lifespan. A pass that
    filled its batch goes straight on: a burst of deadlines must not wait out the interval."""
    while True:
        ran = 0
        try:
            with observability.SCHEDULER_PASS.time():
                ran = await run_due_timers(sessionmaker, clock, batch)
        except asyncio.CancelledError:
            raise
        except Exception:  # keep the loop alive; the failed timer is retried next pass
            log.exception("scheduler pass failed")
        if ran < batch:
            await asyncio.sleep(interval)
