"""The deadline loop: durable timers, run exactly once across crashes and replicas, and
one timer that keeps failing never stops the others.

A pass runs what is due in batches, each batch ONE transaction:

1. lock up to ``batch`` games that have a due timer, ``FOR UPDATE SKIP LOCKED`` (earliest
   deadline first): another worker takes the next games, and a game a request holds is
   left for the next pass. Games are locked before their timers, in the order requests
   take them, so a worker never waits for a row another worker holds;
2. lock those games' due timers and apply each one's step to its game in memory (one
   step per game per batch: a game's next timer waits for the next batch);
3. write every applied step together (one statement per table, as order batches do),
   mark the timers done, commit.

Isolation: a timer whose step raises — a refusal by the rules (``AppError``) is recorded
and the timer is done; anything else (a bug, a stored duration too large for a date) is
a *failure* — touches nothing of the others: applying a step writes nothing, and the
batch's writes go in a savepoint that, if it fails, is rolled back and replaced by one
savepoint per timer. A failed timer keeps its passed deadline and is retried with
exponential backoff (``attempts``, ``next_try_at``); after ``max_attempts`` it is parked
(``failed_at``, ``last_error``), its game is paused and the director told (a
``timer_failed`` event and an audit row). The director's resume runs it again.

A crash anywhere rolls the whole batch back and its timers are claimed again. On SQLite
(one process) every transaction is BEGIN IMMEDIATE, which serialises the same code.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import observability
from app.bridge import reader as forum_reader
from app.clock import Clock
from app.db import database_unavailable
from app.errors import AppError
from app.models import AuditRow, Game, Timer
from app.publish import bodies, outbox
from app.publish import service as publishing
from app.services import signup_settings as signups
from app.services.director import pause_clocks, timer_step, write_timer_steps
from app.services.games import GameOptions
from app.services.steps import TIMING_BROKEN, StepWrite, append_event, pending_timers
from app.settings import Settings

log = logging.getLogger("forumplay.scheduler")
# Timers the scheduler runs without the game's rules (in any status of the game).
_SERVICE_KINDS = (*outbox.SERVICE_TIMER_KINDS, *forum_reader.TIMER_KINDS, *signups.TIMER_KINDS)

ERROR_TEXT_LIMIT = 2000


@dataclass(frozen=True)
class RetryPolicy:
    """How a timer that raised is retried: after ``base_seconds``, doubling per attempt
    (at most ``max_seconds``), and parked after ``max_attempts`` runs that raised."""

    max_attempts: int = 5
    base_seconds: float = 2.0
    max_seconds: float = 300.0

    @classmethod
    def from_settings(cls, settings: Settings) -> RetryPolicy:
        return cls(
            settings.scheduler_max_attempts,
            settings.scheduler_retry_base_seconds,
            settings.scheduler_retry_max_seconds,
        )

    def delay(self, attempts: int) -> timedelta:
        seconds = self.base_seconds * 2.0 ** min(max(attempts - 1, 0), 30)
        return timedelta(seconds=min(self.max_seconds, seconds))


def _due(now: datetime) -> ColumnElement[bool]:
    return and_(
        Timer.done_at.is_(None),
        Timer.failed_at.is_(None),
        Timer.due_at <= now,
        or_(Timer.next_try_at.is_(None), Timer.next_try_at <= now),
    )


async def run_due_timers(
    sessionmaker: async_sessionmaker[AsyncSession],
    clock: Clock,
    limit: int = 1000,
    retry: RetryPolicy | None = None,
    batch: int = 100,
) -> int:
    """Run every timer due now (at most ``limit``), ``batch`` games per transaction;
    return how many ran (a run that raised counts: it was tried)."""
    retry = retry or RetryPolicy()
    done = 0
    skipped: set[int] = set()
    while done < limit:
        outcome = await _run_batch(sessionmaker, clock, min(batch, limit - done), skipped, retry)
        done += outcome.ran
        if not outcome.claimed or not (outcome.ran or outcome.newly_skipped):
            break  # nothing due, or only timers that must wait (their game is busy)
    return done


@dataclass
class _Batch:
    claimed: bool = False
    ran: int = 0
    newly_skipped: int = 0
    fired: list[tuple[Timer, StepWrite]] = field(default_factory=list)  # to write together


async def _run_batch(
    sessionmaker: async_sessionmaker[AsyncSession],
    clock: Clock,
    size: int,
    skipped: set[int],
    retry: RetryPolicy,
) -> _Batch:
    outcome = _Batch()
    async with sessionmaker() as session, session.begin():
        now = clock.now()
        games = await _claim_games(session, now, size, skipped)
        if not games:
            return outcome
        outcome.claimed = True
        by_id = {game.id: game for game in games}
        query = (
            select(Timer)
            .where(Timer.game_id.in_(list(by_id)), _due(now))
            .order_by(Timer.due_at, Timer.id)
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        )
        if skipped:
            query = query.where(Timer.id.not_in(skipped))
        stepped: set[str] = set()  # games with a step applied in memory, not yet written
        for timer in (await session.scalars(query)).all():
            game = by_id[timer.game_id]
            if game.id in stepped:
                continue  # the next batch, once this game's step is written
            ran = await _run_timer(session, game, timer, now, retry, outcome.fired)
            if ran == "left":
                skipped.add(timer.id)
                outcome.newly_skipped += 1
                continue
            outcome.ran += 1
            if ran == "stepped":
                stepped.add(game.id)
        await _write(session, outcome.fired, now, retry)
    return outcome


async def _claim_games(
    session: AsyncSession, now: datetime, size: int, skipped: set[int]
) -> list[Game]:
    due = select(Timer.game_id, func.min(Timer.due_at).label("due")).where(_due(now))
    if skipped:
        due = due.where(Timer.id.not_in(skipped))
    due_games = due.group_by(Timer.game_id).subquery()
    query = (
        select(Game)
        .join(due_games, due_games.c.game_id == Game.id)
        .order_by(due_games.c.due, Game.id)
        .limit(size)
        .with_for_update(of=Game, skip_locked=True)
        .execution_options(populate_existing=True)
    )
    return list((await session.scalars(query)).all())


async def _run_timer(
    session: AsyncSession,
    game: Game,
    timer: Timer,
    now: datetime,
    retry: RetryPolicy,
    fired: list[tuple[Timer, StepWrite]],
) -> str:
    """Handle one claimed timer: "stepped" (its step is applied, to be written with the
    batch's), "ran" (done otherwise, or failed), "left" (its game is not running)."""
    assert timer.due_at is not None
    lateness = (now - timer.due_at).total_seconds()
    if timer.kind in _SERVICE_KINDS:
        _observe(timer.kind, game.id, lateness)  # publishing, bridge, sign-ups: no ruleset
        try:
            async with _savepoint(session):
                if timer.kind in signups.TIMER_KINDS:
                    await signups.run_timer(session, game, timer, now)
                elif timer.kind in forum_reader.TIMER_KINDS:
                    await forum_reader.run_timer(session, game, timer, now)  # reads after commit
                else:
                    await publishing.run_service_timer(session, game, timer, now)
        except Exception as error:  # noqa: BLE001 - any failure is this timer's alone
            await _failed(session, timer, error, now, retry)
        return "ran"
    if game.status != "running":
        return "left"  # a paused game's timer that kept its due time by mistake: for resume
    _observe(timer.kind, game.id, lateness)
    try:
        options = GameOptions.model_validate(game.options)
        if options.missed_deadline == "pause" and lateness > options.missed_deadline_grace_seconds:
            data = {"kind": timer.kind, "key": timer.key, "due_at": timer.due_at.isoformat()}
            pause_clocks(game, await pending_timers(session, game), now)
            append_event(session, game, "deadline_missed", data, ["director"], now)
            return "ran"
        fired.append((timer, timer_step(game, timer, now)))
        return "stepped"
    except Exception as error:  # noqa: BLE001 - any failure is this timer's alone
        await _failed_or_refused(session, game, timer, error, now, retry)
        return "ran"


async def _write(
    session: AsyncSession, fired: list[tuple[Timer, StepWrite]], now: datetime, retry: RetryPolicy
) -> None:
    """Write the batch's applied steps together; if that fails, each alone."""
    if not fired:
        return
    await session.flush()  # what the batch did besides (refusals, failures) stays put
    try:
        async with _savepoint(session):
            await write_timer_steps(session, fired, now)
        return
    except Exception:
        log.exception("writing %d timer steps together failed; writing each alone", len(fired))
    for timer, _ in fired:
        game = await _reload(session, timer)
        try:
            async with _savepoint(session):
                # Applied again to the state as stored: the same step (its RNG comes from
                # the seed and the step number), now written on its own.
                await write_timer_steps(session, [(timer, timer_step(game, timer, now))], now)
        except Exception as error:  # noqa: BLE001 - any failure is this timer's alone
            await _failed_or_refused(session, game, timer, error, now, retry)


async def _reload(session: AsyncSession, timer: Timer) -> Game:
    """The timer and its game as stored. After a rolled-back savepoint the step's writes
    had set the game's values as if saved, so they must be read again."""
    await session.flush()
    await session.refresh(timer)
    game = await session.get(Game, timer.game_id)
    assert game is not None
    await session.refresh(game)
    return game


@contextlib.asynccontextmanager
async def _savepoint(session: AsyncSession) -> AsyncIterator[None]:
    """A savepoint that, rolled back, also forgets what its work noted for the commit
    (live notices, posts to publish): those notes live in ``session.info``."""
    notes = {k: dict(v) if isinstance(v, dict) else v for k, v in session.info.items()}
    try:
        async with session.begin_nested():
            yield
    except BaseException:
        session.info.clear()
        session.info.update(notes)
        raise


async def _failed_or_refused(
    session: AsyncSession,
    game: Game,
    timer: Timer,
    error: Exception,
    now: datetime,
    retry: RetryPolicy,
) -> None:
    if isinstance(error, AppError) and error.code != TIMING_BROKEN:
        # The rules refused this timer (e.g. stale): record it, never retry forever.
        log.warning("timer %s/%s of game %s refused: %s", timer.kind, timer.key, game.id, error)
        timer.done_at = now
        data = {"kind": timer.kind, "key": timer.key, "code": error.code}
        append_event(session, game, "timer_refused", data, ["director"], now)
        return
    await _failed(session, timer, error, now, retry)


async def _failed(
    session: AsyncSession, timer: Timer, error: Exception, now: datetime, retry: RetryPolicy
) -> None:
    """Count a run that raised: try again later, or park the timer and pause its game."""
    game = await _reload(session, timer)
    text = f"{type(error).__name__}: {error}"
    if error.__cause__ is not None:
        text += f" (from {type(error.__cause__).__name__}: {error.__cause__})"
    text = text[:ERROR_TEXT_LIMIT]
    timer.attempts = (timer.attempts or 0) + 1
    timer.last_error = text
    if timer.attempts < retry.max_attempts:
        timer.next_try_at = now + retry.delay(timer.attempts)
        log.warning(
            "timer %s/%s of game %s failed (attempt %d of %d, next at %s): %s",
            timer.kind,
            timer.key,
            game.id,
            timer.attempts,
            retry.max_attempts,
            timer.next_try_at.isoformat(),
            text,
            exc_info=error,
        )
        return
    log.error(
        "timer %s/%s of game %s parked after %d failed attempts: %s",
        timer.kind,
        timer.key,
        game.id,
        timer.attempts,
        text,
        exc_info=error,
    )
    timer.failed_at = now
    timer.next_try_at = None
    data: dict[str, Any] = {
        "kind": timer.kind,
        "key": timer.key,
        "error": text,
        "attempts": timer.attempts,
        "paused": game.status == "running",
    }
    if game.status == "running":  # paused as a missed deadline pauses it: the director says
        pause_clocks(game, await pending_timers(session, game), now)
    append_event(session, game, "timer_failed", data, ["director"], now)
    session.add(
        AuditRow(game_id=game.id, actor="system", action="timer_failed", payload=data, at=now)
    )


# Posts rendered per transaction by an idle scheduler: small, for the loop shares its
# process with the web server (a rendering holds the event loop) and deadlines come first.
RENDER_BATCH = 20


async def render_idle(
    sessionmaker: async_sessionmaker[AsyncSession], batch: int, unrenderable: set[str]
) -> int:
    """Render up to ``batch`` of the posts planned and not yet rendered, in one transaction;
    return how many it took (``batch``: there may be more, and the loop comes straight back
    after running what fell due meanwhile). A phase's own transaction only plans its posts;
    rendering them here, after its commit and beside the delivery worker (rows another
    process holds are skipped), spreads the templates over every scheduler process instead
    of the one that sends. A post that fails is left to the worker, which retries it with
    its delivery."""
    async with sessionmaker() as session, session.begin():
        taken, failed = await session.run_sync(bodies.render_pending_pass, batch, unrenderable)
    unrenderable.update(failed)
    return int(taken)


def _observe(kind: str, game_id: str, lateness: float) -> None:
    """A timer runs, ``lateness`` seconds after its deadline."""
    observability.timer_ran(kind, game_id, timedelta(seconds=lateness))


async def scheduler_loop(
    sessionmaker: async_sessionmaker[AsyncSession],
    clock: Clock,
    interval: float,
    batch: int,
    retry: RetryPolicy | None = None,
    render_posts: bool = True,
) -> None:
    """Forever: run what is due, then wait. Started by the app's lifespan. A pass that
    filled its batch goes straight on: a burst of deadlines must not wait out the interval.
    ``render_posts``: once no deadline waits, render the posts the steps planned
    (``render_idle``), so that the delivery worker finds their text ready."""
    away = False  # the database was unavailable at the last pass
    unrenderable: set[str] = set()
    while True:
        ran = 0
        more = False  # posts are left to render: come straight back
        try:
            with observability.SCHEDULER_PASS.time():
                ran = await run_due_timers(sessionmaker, clock, batch, retry, batch)
            if ran < batch and render_posts:  # no deadline waits: render what they planned
                more = await render_idle(sessionmaker, RENDER_BATCH, unrenderable) == RENDER_BATCH
            if away:
                log.warning("scheduler: the database is back; deadlines run again")
            away = False
        except asyncio.CancelledError:
            raise
        except Exception as error:  # keep the loop alive (the database may be away): try again
            unavailable = database_unavailable(error)
            if not unavailable:
                log.exception("scheduler pass failed")
            elif not away:  # one line when it goes, not a traceback every interval
                log.warning("scheduler: the database is unavailable (%r); retrying", error)
            away = unavailable
        if ran < batch and not more:
            await asyncio.sleep(interval)
