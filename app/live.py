"""Live updates: "game G has new events up to seq N", from the committing transaction to
every process that serves G's streams.

- A transaction that writes events calls :func:`changed`. On PostgreSQL the notice is a
  ``pg_notify`` issued inside that transaction (just before COMMIT), so it is delivered
  if and only if the transaction commits, to every replica. On SQLite (one process) it
  is handed to this process's hubs after the commit.
- Each process runs one :class:`Hub` with at most one LISTEN connection. The hub keeps
  a feed per game that has subscribers: on a notice the feed reads the new event rows
  once and fans them out to its local subscribers, who each filter them for their own
  audience (``/stream`` in ``app.services.stream``).
- Anything else that must hear of a game's change on every replica (a read cache, say)
  registers with :meth:`Hub.add_listener`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app import gc_policy
from app.models import EVENTS, GAMES

CHANNEL = "forumplay_events"
log = logging.getLogger("forumplay.live")

LISTEN_CONNECT_TIMEOUT_SECONDS = 5.0
# A LISTEN connection is idle: a server that vanished without closing it (a network cut)
# would go unnoticed, so it is probed this often, and given up if the probe gets no answer.
LISTEN_PROBE_SECONDS = 15.0
LISTEN_PROBE_TIMEOUT_SECONDS = 5.0
RECONNECT_FIRST_SECONDS = 0.1
RECONNECT_MAX_SECONDS = 2.0

_PENDING = "live_changes"


def changed(session: AsyncSession | Session, game_id: str, event_seq: int) -> None:
    """Note that ``game_id`` has events up to ``event_seq``; published on commit."""
    info = session.info
    pending: dict[str, int] = info.setdefault(_PENDING, {})
    if event_seq > pending.get(game_id, -1):
        pending[game_id] = event_seq


def _payloads(pending: dict[str, int]) -> list[str]:
    return [f"{g} {seq}" for g, seq in sorted(pending.items())]


def take_notices(session: AsyncSession | Session) -> list[str]:
    """The notices pending in the session's transaction, as ``pg_notify`` payloads on
    ``CHANNEL``, for the caller to send in a statement of its own inside that transaction
    (PostgreSQL; a batch of orders sends them with its write, saving a round trip): no
    longer pending, so not sent again before COMMIT."""
    return _payloads(session.info.pop(_PENDING, None) or {})


@event.listens_for(Session, "before_commit")
def _notify_inside_transaction(session: Session) -> None:
    pending: dict[str, int] | None = session.info.get(_PENDING)
    if not pending or session.get_bind().dialect.name != "postgresql":
        return
    # One statement for all the games (a batch of phase closes changes many at once).
    session.execute(
        text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p"),
        {"channel": CHANNEL, "payloads": _payloads(pending)},
    )


@event.listens_for(Session, "after_commit")
def _publish_after_commit(session: Session) -> None:
    pending: dict[str, int] | None = session.info.pop(_PENDING, None)
    if not pending or session.get_bind().dialect.name == "postgresql":
        return  # PostgreSQL delivers the notice itself, to this process too
    for hub in list(_local_hubs):
        for game_id, seq in pending.items():
            hub.publish(game_id, seq)


@event.listens_for(Session, "after_rollback")
def _forget_on_rollback(session: Session) -> None:
    session.info.pop(_PENDING, None)


_local_hubs: weakref.WeakSet[Hub] = weakref.WeakSet()


@dataclass(slots=True)
class EventRowData:
    """One stored event as a feed hands it to subscribers (decoded once for all)."""

    seq: int
    at: str
    kind: str
    data: Any
    audience: list[str]
    encoded_data: str  # the JSON of ``data``, encoded once for every subscriber


@dataclass(slots=True)
class Batch:
    """What a feed fans out: new rows, and the game's credentials epoch when read.
    ``memo`` lets subscribers who would compute the same thing from it (the same
    audience at the same point) compute it once."""

    rows: list[EventRowData]
    auth_epoch: int
    memo: dict[Any, Any] = field(default_factory=dict)


@dataclass(eq=False)
class Subscription:
    game_id: str
    queue: asyncio.Queue[Batch] = field(default_factory=asyncio.Queue)


class _Feed:
    """One game's subscribers in this process and how far its rows have been read."""

    def __init__(self, last_seq: int) -> None:
        self.last_seq = last_seq
        self.wanted = last_seq
        self.notices = 0  # how many notices came: one during a read means read again
        self.subscribers: set[Subscription] = set()
        self.task: asyncio.Task[None] | None = None


class Hub:
    def __init__(
        self, sessionmaker: Callable[[], async_sessionmaker[AsyncSession]], database_url: str
    ) -> None:
        self._sessionmaker = sessionmaker
        self._url = database_url
        self._postgres = make_url(database_url).get_backend_name() == "postgresql"
        self._feeds: dict[str, _Feed] = {}
        self._listeners: list[Callable[[str, int], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listen_task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        _local_hubs.add(self)

    # --- lifecycle -----------------------------------------------------------------
    async def start(self) -> None:
        """Bind to the running loop; on PostgreSQL open the LISTEN connection."""
        if self._loop is not None:
            return
        self._loop = asyncio.get_running_loop()
        if self._postgres:
            self._listen_task = asyncio.create_task(self._listen_forever())
            # Subscribers may rely on notices from here on.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._listening.wait(), timeout=10)

    async def stop(self) -> None:
        if self._listen_task is not None:
            self._listen_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listen_task
            self._listen_task = None
        for feed in self._feeds.values():
            if feed.task is not None:
                feed.task.cancel()
        self._feeds.clear()
        self._loop = None

    def add_listener(self, callback: Callable[[str, int], None]) -> None:
        """Call ``callback(game_id, event_seq)`` on this process for every committed change
        of any game (on the hub's loop)."""
        self._listeners.append(callback)

    # --- subscribers ---------------------------------------------------------------
    async def subscribe(self, game_id: str) -> Subscription:
        """Register before reading the past, so nothing committed in between is missed
        (a row may then arrive twice; subscribers skip what they have sent)."""
        await self.start()
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = _Feed(await self._max_seq(game_id))
            feed = self._feeds.setdefault(game_id, feed)
        subscription = Subscription(game_id)
        feed.subscribers.add(subscription)
        # A stream lives for hours: what exists now (its connection, request, task) is
        # long-lived, and thousands of them made every full collection of the cyclic
        # garbage collector walk them all — a pause of up to a second in the middle of a
        # broadcast. Under the process's collector (app/gc_policy.py) there is only its
        # one full pass a minute; without it, freeze them.
        gc_policy.keep_long_lived()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        feed = self._feeds.get(subscription.game_id)
        if feed is None:
            return
        feed.subscribers.discard(subscription)
        if not feed.subscribers:
            if feed.task is not None:
                feed.task.cancel()
            del self._feeds[subscription.game_id]

    def subscriber_count(self) -> int:
        return sum(len(f.subscribers) for f in self._feeds.values())

    # --- notices -------------------------------------------------------------------
    def publish(self, game_id: str, seq: int) -> None:
        """A commit changed ``game_id`` (safe to call from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._on_notice(game_id, seq)
        else:
            loop.call_soon_threadsafe(self._on_notice, game_id, seq)

    def _on_notice(self, game_id: str, seq: int) -> None:
        for callback in self._listeners:
            try:
                callback(game_id, seq)
            except Exception:  # one broken listener must not stop the others
                log.exception("live listener failed")
        feed = self._feeds.get(game_id)
        if feed is None:
            return
        feed.wanted = max(feed.wanted, seq)
        feed.notices += 1
        if feed.wanted > feed.last_seq and (feed.task is None or feed.task.done()):
            feed.task = asyncio.create_task(self._fetch(game_id, feed))

    def _poke_all(self) -> None:
        """After a lost LISTEN connection: notices may have been missed; read anyway."""
        for game_id, feed in list(self._feeds.items()):
            feed.wanted = max(feed.wanted, feed.last_seq + 1)
            if feed.task is None or feed.task.done():
                feed.task = asyncio.create_task(self._fetch(game_id, feed))

    async def _fetch(self, game_id: str, feed: _Feed) -> None:
        """Read the game's new rows once and hand them to every local subscriber."""
        while feed.wanted > feed.last_seq and self._feeds.get(game_id) is feed:
            notices = feed.notices
            try:
                batch = await self._read(game_id, feed.last_seq)
            except Exception:
                log.exception("reading new events of game %s failed", game_id)
                await asyncio.sleep(1)
                continue
            if batch.rows:
                feed.last_seq = batch.rows[-1].seq
            elif feed.notices == notices:
                # A notice without rows (a rolled-back savepoint, a poke after a lost LISTEN
                # connection). A notice that came while the read ran is kept: the read may
                # have begun before that commit, so it is read again.
                feed.wanted = feed.last_seq
            for subscription in list(feed.subscribers):
                subscription.queue.put_nowait(batch)

    async def _max_seq(self, game_id: str) -> int:
        async with self._sessionmaker()() as session:
            found = await session.scalar(select(GAMES.c.event_seq).where(GAMES.c.id == game_id))
            return int(found or 0)

    async def _read(self, game_id: str, after: int) -> Batch:
        async with self._sessionmaker()() as session:
            epoch = await session.scalar(select(GAMES.c.auth_epoch).where(GAMES.c.id == game_id))
            result = await session.execute(
                select(EVENTS.c.seq, EVENTS.c.at, EVENTS.c.kind, EVENTS.c.data, EVENTS.c.audience)
                .where(EVENTS.c.game_id == game_id, EVENTS.c.seq > after)
                .order_by(EVENTS.c.seq)
            )
            rows = [
                EventRowData(
                    seq=r.seq,
                    at=r.at.isoformat(),
                    kind=r.kind,
                    data=r.data,
                    audience=list(r.audience),
                    encoded_data=json.dumps(r.data, ensure_ascii=False),
                )
                for r in result
            ]
        return Batch(rows=rows, auth_epoch=int(epoch or 0))

    # --- PostgreSQL LISTEN ----------------------------------------------------------
    async def _listen_forever(self) -> None:
        """Hold the LISTEN connection; when it is lost (the database restarted or stopped
        answering), reconnect with backoff and re-read every feed, since notices sent
        meanwhile were missed."""
        import asyncpg

        dsn = make_url(self._url).set(drivername="postgresql").render_as_string(False)
        first = True
        delay = RECONNECT_FIRST_SECONDS
        while True:
            lost = asyncio.Event()
            try:
                conn = await asyncpg.connect(dsn, timeout=LISTEN_CONNECT_TIMEOUT_SECONDS)
            except Exception as error:  # noqa: BLE001 - any failure: try again later
                log.warning("LISTEN connection failed (%r); retrying in %.1f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_SECONDS)
                continue
            delay = RECONNECT_FIRST_SECONDS
            try:
                conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
                await conn.add_listener(CHANNEL, self._on_pg_notice)
                self._listening.set()
                if not first:
                    log.warning("LISTEN connection restored")
                    self._poke_all()
                first = False
                await _until_lost(conn, lost)
                log.warning("LISTEN connection lost; reconnecting")
            except Exception as error:  # noqa: BLE001 - setting up LISTEN failed: reconnect
                log.warning("LISTEN connection broke (%r); reconnecting", error)
            finally:
                conn.terminate()

    def _on_pg_notice(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        game_id, _, seq = payload.partition(" ")
        try:
            self._on_notice(game_id, int(seq))
        except ValueError:
            log.warning("malformed notice %r", payload)


async def _until_lost(conn: Any, lost: asyncio.Event) -> None:
    """Return once the LISTEN connection is closed or stops answering its probe."""
    while not lost.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(lost.wait(), timeout=LISTEN_PROBE_SECONDS)
            return
        try:
            await conn.execute("SELECT 1", timeout=LISTEN_PROBE_TIMEOUT_SECONDS)
        except Exception:  # noqa: BLE001 - no answer: treat the connection as lost
            return
