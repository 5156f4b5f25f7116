"""Order submissions that arrive together are written together.

Under load most of an order's cost is per statement, not per row. So submissions queue
here, and one worker takes whatever has queued while it was busy — no waiting to fill a
batch — and runs them in one transaction: lock the games (in id order, so two processes
never deadlock), check each order against its rules, write all the accepted steps with one
statement per table, commit, and only then answer each caller. Each order is checked on
its own: a refused order gets its own 409 and changes nothing, and does not hold up the
others. If the transaction itself fails, every order of the batch is retried alone —
unless the database is unavailable: then the batch and all that queued behind it are
answered 503 at once.

A batch holds at most one order per game; the rest wait for the next batch, so a game's
orders apply in the order they reached the batcher (concurrent requests promise no order
between them before that). A few workers run at once, on disjoint games, so one batch's round trips
to the database overlap another's work: another starts once ``spawn_at`` orders wait. A
worker that finishes while another is mid-batch, and finds fewer than that waiting, stops
and leaves them to it: they join its next batch, a few moments later, instead of paying a
batch's statements for one or two orders (at 16 clients, a third of the batches held one
order, and the server's CPU per order was a quarter higher). Requests with an
Idempotency-Key take the ordinary one-request path.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import defer

from app.clock import Clock
from app.db import database_unavailable
from app.errors import AppError, not_found
from app.models import Game
from app.publish.timers import DEADLINE_TIMER_KINDS
from app.services import pg_batch, state_cache
from app.services.auth import principal_for
from app.services.orders import order_view, prepare_submission
from app.services.steps import StepWrite, deadline_due_query, persist_steps

log = logging.getLogger("forumplay.batcher")


def _lock_games(postgresql: bool) -> Select[Any]:
    """The batch's games, locked in id order, each with whether its deadline has passed.
    On PostgreSQL the lock also turns sequential scans off for the rest of the transaction
    (``pg_batch.SEQSCAN_OFF``): every statement of a batch reaches its rows by key, and a
    plan a pooled connection keeps must not read a table whole once it has grown."""
    columns: list[Any] = [
        deadline_due_query(
            Game.id,
            bindparam("now", type_=Game.__table__.c.updated_at.type),
            bindparam("kinds", expanding=True),
        ).exists()
    ]
    if postgresql:
        columns.append(func.set_config("enable_seqscan", "off", True))
    return (
        select(Game, *columns, *state_cache.STATE_UNLESS_KNOWN)
        .where(Game.id.in_(bindparam("ids", expanding=True)))
        .order_by(Game.id)
        # An order needs the state, not the settings or options documents: do not fetch
        # and decode them for every game of every batch. The state comes beside the row,
        # or from this process's cache when the row's hash is one it holds
        # (``state_cache.adopt``).
        .options(
            defer(Game.settings, raiseload=True),
            defer(Game.options, raiseload=True),
            defer(Game.state),
            defer(Game.state_delta),
        )
        .with_for_update(of=Game)
        .execution_options(populate_existing=True)
    )


# Built once (building it per batch cost as much CPU as running its rows through the ORM).
_LOCK_GAMES = {False: _lock_games(False), True: _lock_games(True)}


@dataclass
class _Submission:
    game_id: str
    token: str | None
    body: dict[str, Any]
    future: asyncio.Future[dict[str, Any]] = field(repr=False)
    english: bool = False  # the language of a text order's echo


class OrderBatcher:
    def __init__(
        self,
        sessionmaker: Callable[[], async_sessionmaker[AsyncSession]],
        clock: Clock,
        admin_token: str | None,
        max_batch: int = 64,
        max_workers: int = 3,
        spawn_at: int = 8,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._clock = clock
        self._admin_token = admin_token
        self._max_batch = max_batch
        self._max_workers = max_workers
        self._spawn_at = spawn_at
        self._queue: list[_Submission] = []
        self._workers: set[asyncio.Task[None]] = set()
        self._busy_games: set[str] = set()
        self._running = 0  # workers writing a batch (or retrying its orders one by one)

    async def submit(
        self, game_id: str, token: str | None, body: dict[str, Any], english: bool = False
    ) -> dict[str, Any]:
        """Queue one order; return it once committed, or raise its AppError."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._queue.append(_Submission(game_id, token, body, future, english))
        # One worker while the queue is short (bigger batches, fewer statements per order);
        # more once it backs up, so batches overlap each other's round trips.
        backed_up = len(self._queue) >= self._spawn_at and len(self._workers) < self._max_workers
        if not self._workers or backed_up:
            # Workers live only while there is work, so nothing outlives the requests.
            self._workers.add(asyncio.create_task(self._drain()))
        return await future

    async def _drain(self) -> None:
        try:
            await self._drain_queue()
        finally:
            # Gone from the set in the same step as it stops taking orders: a done-callback
            # runs a loop iteration later, and an order submitted in between (an async route
            # does not yield first) would wait for a worker that will never look again.
            task = asyncio.current_task()
            if task is not None:
                self._workers.discard(task)

    async def _drain_queue(self) -> None:
        while True:
            if self._running and len(self._queue) < self._spawn_at:
                # Another worker is mid-batch and takes what queued when it is done: a
                # few orders make a better batch then than a batch of their own now.
                return
            batch: list[_Submission] = []
            later: list[_Submission] = []
            games: set[str] = set()
            for item in self._queue:
                taken = item.game_id in games or item.game_id in self._busy_games
                if taken or len(batch) >= self._max_batch:
                    later.append(item)
                else:
                    games.add(item.game_id)
                    batch.append(item)
            self._queue = later
            if not batch:
                return  # what is left belongs to games another worker holds: it takes them
            self._busy_games |= games
            self._running += 1  # (until it loops again: retries included)
            try:
                await self._run(batch)
            except Exception as error:
                if database_unavailable(error):
                    # The database is away: this batch, and every order queued behind it,
                    # gets the same 503 now. Retrying them one by one, or batch after
                    # batch, would only wait out the timeouts in turn (a game's orders
                    # queue one per batch), and could write twice an order whose COMMIT
                    # reached the server before the connection broke.
                    stranded, self._queue = batch + self._queue, []
                    log.warning("%d orders refused: database unavailable", len(stranded))
                    for item in stranded:
                        if not item.future.done():
                            item.future.set_exception(error)
                    continue
                # The shared transaction failed: each order alone.
                log.exception("order batch of %d failed; retrying one by one", len(batch))
                for item in batch:
                    if item.future.done():
                        continue
                    try:
                        await self._run([item])
                    except Exception as error:  # noqa: BLE001 - reported to its caller
                        if not item.future.done():
                            item.future.set_exception(error)
            finally:
                self._running -= 1
                self._busy_games -= games

    async def _run(self, batch: list[_Submission]) -> None:
        accepted: list[tuple[_Submission, dict[str, Any]]] = []
        refused: list[tuple[_Submission, AppError]] = []
        async with self._sessionmaker()() as session, session.begin():
            now = self._clock.now()
            ids = sorted({item.game_id for item in batch})
            pinned = state_cache.cache().pinned(ids)
            params = {"ids": ids, "now": now, "kinds": list(DEADLINE_TIMER_KINDS)}
            postgresql = session.get_bind().dialect.name == "postgresql"
            lock = _LOCK_GAMES[postgresql]
            rows = (await session.execute(lock, {**params, "known": list(pinned)})).all()
            if postgresql and rows:  # (each row turned them off; without one, none did)
                session.info[pg_batch.SEQSCAN_OFF] = True
            state_cache.adopt_rows(rows, pinned)
            games: dict[str, Game] = {}
            passed: set[str] = set()
            for loaded, is_passed, *_ in rows:
                games[loaded.id] = loaded
                if is_passed:
                    passed.add(loaded.id)
            writes: list[StepWrite] = []
            for item in batch:
                try:
                    game = games.get(item.game_id)
                    if game is None:
                        raise not_found()
                    principal = await principal_for(session, game, item.token, self._admin_token)
                    write, order = prepare_submission(
                        game, principal, item.body, now, game.id in passed, item.english
                    )
                except AppError as refusal:
                    refused.append((item, refusal))
                    continue
                writes.append(write)
                accepted.append((item, order_view(order, write.outcome.reply)))
            await persist_steps(session, writes)
        # Committed: now, and only now, the orders are acknowledged.
        for item, reply in accepted:
            if not item.future.done():  # a caller that hung up has a cancelled future
                item.future.set_result(reply)
        for item, problem in refused:
            if not item.future.done():
                item.future.set_exception(problem)
