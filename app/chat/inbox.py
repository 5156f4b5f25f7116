"""Inbound messages under load: one game's messages wait for each other here, in memory,
not inside the database holding a pooled connection each.

A burst of messages to one game (ten players answering the same deadline) would otherwise
take ten connections that wait in turn on the game's row lock, and a burst across many
games would drain the pool. So each message is first looked up (a short read: which games
the account has seats in), then waits for an in-process lock per game (in id order), and
only then runs its one transaction (``app.chat.service.receive``). Correctness does not
rest on it: the row lock and the unique ``chat_seen`` key still serialise replicas.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat import service
from app.chat.bots import platform
from app.chat.models import ChatLinkRow
from app.clock import Clock
from app.db import read_engine
from app.settings import Settings

MAX_REMEMBERED = 100_000
# Transactions of one game at once. Measured with bench/chat.py: 2 overlaps one message's
# work before the row lock with another's locked part (about 1.35x POST /orders instead of
# 1.4-2.2x) but under a burst leaves messages waiting for a pooled connection past its
# timeout (a 503, which the platform retries); 1 answered every message.
PER_GAME = 1


class ChatInbox:
    def __init__(
        self,
        sessionmaker: Callable[[], async_sessionmaker[AsyncSession]],
        engine: Callable[[], Any],
        clock: Clock,
        settings: Settings,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._engine = engine
        self._clock = clock
        self._settings = settings
        self._locks: dict[str, tuple[asyncio.Semaphore, int]] = {}
        self._seats: dict[tuple[str, str], list[str]] = {}

    async def receive(self, kind: str, bot_id: str, headers: Any, body: bytes) -> dict[str, Any]:
        games = await self._games_of(kind, bot_id, headers, body)
        async with self._holding(games):
            maker = self._sessionmaker()
            async with maker() as session, session.begin():
                now: datetime = self._clock.now()
                return await service.receive(
                    session, kind, bot_id, headers, body, now, self._settings
                )

    async def _games_of(self, kind: str, bot_id: str, headers: Any, body: bytes) -> list[str]:
        """The games the sender has seats in, as far as the request says who it is from
        (it is verified later, by ``receive``: a forged one only waits for a lock here).
        Remembered per account: a stale answer only makes the wait less useful."""
        try:
            incoming = platform(kind).parse(json.loads(body))
        except Exception:  # noqa: BLE001 - ``receive`` answers it with its 4xx
            return []
        if incoming is None or isinstance(incoming, dict):
            return []
        key = (bot_id, incoming.account)
        known = self._seats.pop(key, None) if incoming.command == "link" else self._seats.get(key)
        if known is not None and incoming.command != "link":
            return known
        # One statement, outside a transaction where the database allows it (a hint only).
        async with read_engine(self._engine()).connect() as conn:
            found = await conn.execute(
                select(ChatLinkRow.game_id).where(
                    ChatLinkRow.bot_id == bot_id, ChatLinkRow.account == incoming.account
                )
            )
            games = sorted({row[0] for row in found})
        if len(self._seats) >= MAX_REMEMBERED:
            self._seats.clear()
        if incoming.command != "link":  # a link changes them: asked again next time
            self._seats[key] = games
        return games

    @contextlib.asynccontextmanager
    async def _holding(self, games: list[str]) -> AsyncIterator[None]:
        held: list[str] = []  # counted as users of the lock
        acquired: set[str] = set()
        try:
            for game_id in games:
                lock, users = self._locks.get(game_id) or (asyncio.Semaphore(PER_GAME), 0)
                self._locks[game_id] = (lock, users + 1)
                held.append(game_id)
                await lock.acquire()
                acquired.add(game_id)
            yield
        finally:
            for game_id in reversed(held):
                lock, users = self._locks[game_id]
                if game_id in acquired:
                    lock.release()
                if users <= 1:
                    del self._locks[game_id]
                else:
                    self._locks[game_id] = (lock, users - 1)
