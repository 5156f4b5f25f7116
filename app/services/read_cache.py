"""Reads at the speed of the database: views and event pages kept per (game, version, audience).

Every read SELECTs the game's head — the few columns that change whenever anything a reader
can see changes (``step_seq``: every order and timer run is a step; ``event_seq``: pause,
resume, an extended deadline, every event; ``status``; ``auth_epoch``: a revoked
credential) — and nothing else when the answer for that version and that audience is
already in this process. So a replica never serves what another replica has since changed:
the version is read from the database on every request, only the work of building the
answer is saved. The audience is part of the key (the director, the public, or one player
by id): an answer built for one side is never handed to another.

Answers are kept encoded (orjson), with a strong ``ETag`` made from their bytes: a client
that sends it back in ``If-None-Match`` gets ``304`` and no body. The tag is a digest of the
answer, not the version numbers, which would tell a player how many hidden events exist.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import asyncpg
import orjson
from fastapi.encoders import jsonable_encoder
from sqlalchemy import bindparam, exc, select
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncConnection

from app.errors import not_found
from app.models import Game
from app.services.auth import Principal

GAMES = Game.__table__
_HEAD = select(
    GAMES.c.id,
    GAMES.c.status,
    GAMES.c.step_seq,
    GAMES.c.event_seq,
    GAMES.c.auth_epoch,
    GAMES.c.director_token_hash,
    GAMES.c.sandbox,
).where(GAMES.c.id == bindparam("id"))

_HEAD_SQL = str(_HEAD.compile(dialect=postgresql.asyncpg.dialect()))

Version = tuple[int, int, int, str]


@dataclass(frozen=True, slots=True)
class GameHead:
    """What a read needs of the game row before it knows whether to build anything."""

    id: str
    status: str
    step_seq: int
    event_seq: int
    auth_epoch: int
    director_token_hash: str
    sandbox: bool = False  # a director's private sandbox: no public reads

    @property
    def version(self) -> Version:
        return version_of(self)


def version_of(game: GameHead | Game) -> Version:
    return (game.step_seq, game.event_seq, game.auth_epoch, game.status)


async def read_head(conn: AsyncConnection, game_id: str) -> GameHead:
    """The game's head, in one SELECT; 404 when there is no such game.

    On PostgreSQL the statement goes straight to the pooled asyncpg connection (a prepared
    statement it keeps): SQLAlchemy's compile-cache lookup, execution context and result
    wrapping cost as much CPU as the rest of a cached read. A connection that fails here
    is invalidated and the error raised as SQLAlchemy would raise it, so the pool replaces
    the connection and the caller answers 503 ``database_unavailable`` as for any read."""
    if conn.dialect.name == "postgresql":
        row = await _fetch_head(conn, game_id)
    else:
        row = (await conn.execute(_HEAD, {"id": game_id})).first()
    if row is None:
        raise not_found()
    return GameHead(*row)


async def _fetch_head(conn: AsyncConnection, game_id: str) -> Any:
    driver = (await conn.get_raw_connection()).driver_connection
    assert driver is not None
    try:
        return await driver.fetchrow(_HEAD_SQL, game_id)
    except (OSError, asyncpg.InterfaceError) as error:  # timeouts included: a lost connection
        await conn.invalidate(error)
        raise exc.DBAPIError(_HEAD_SQL, (game_id,), error, connection_invalidated=True) from error


def audience_of(principal: Principal) -> str:
    """Who an answer was built for: everyone who gets the same answer shares one key."""
    if principal.role == "player" and principal.player is not None:
        return f"player:{principal.player.id}"
    return principal.role  # "director" (admin included) or "public"


def encode(body: Any) -> bytes:
    """JSON bytes as the API has always answered them (compact UTF-8), without walking
    the value twice; anything orjson does not know goes through FastAPI's encoder."""
    try:
        return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return orjson.dumps(jsonable_encoder(body), option=orjson.OPT_NON_STR_KEYS)


@dataclass(frozen=True, slots=True)
class Answer:
    version: Version
    body: bytes
    etag: str


def answer(version: Version, body: Any) -> Answer:
    data = encode(body)
    return Answer(version, data, f'"{hashlib.blake2b(data, digest_size=16).hexdigest()}"')


class ReadCache:
    """Answers by (game, what, audience), each valid for one version of its game; the least
    recently used go first once there are more than ``size`` or they take more than
    ``max_bytes``. One per process (``CACHE``)."""

    def __init__(self, size: int = 20_000, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self._answers: OrderedDict[tuple[str, ...], Answer] = OrderedDict()

    def get(self, key: tuple[str, ...], version: Version) -> Answer | None:
        found = self._answers.get(key)
        if found is None or found.version != version:
            return None
        self._answers.move_to_end(key)
        return found

    def put(self, key: tuple[str, ...], found: Answer) -> None:
        old = self._answers.pop(key, None)
        if old is not None:
            self.bytes -= len(old.body)
        self._answers[key] = found
        self.bytes += len(found.body)
        while self._answers and (len(self._answers) > self.size or self.bytes > self.max_bytes):
            _, dropped = self._answers.popitem(last=False)
            self.bytes -= len(dropped.body)

    def clear(self) -> None:
        self._answers.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._answers)


CACHE = ReadCache()


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """``If-None-Match`` (a list of tags, weak or strong, or ``*``) names this answer."""
    if not if_none_match:
        return False
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False
