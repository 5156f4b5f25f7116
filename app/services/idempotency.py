"""Idempotency-Key: a retried POST returns the first result and creates nothing new.

A key is claimed before the action runs: a *pending* row is inserted in a transaction of
its own, and the (scope, key) unique constraint lets exactly one request hold it. That
request runs the action and fills the row in the action's own transaction, so the answer
is stored if and only if the action committed. Concurrent retries with the same key find
the claim and wait (bounded) for the answer, then replay it; the action never runs twice.
A request that fails (a 4xx, a lost database) drops its claim: nothing was done, and a
corrected retry may use the key again.

Keys are scoped per caller (a hash of the caller's token). A caller without a token cannot
be told apart from any other, so such a request may not carry a key at all: otherwise two
strangers who picked the same key would be given each other's answers (issue 7).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import AppError
from app.models import IdempotencyRow
from app.services.auth import hash_token

MAX_KEY_LENGTH = 200  # the column's width
# The status of a claimed key whose action has not committed yet.
PENDING = 0
# How long a retry waits for the first request's answer before it is told to retry later.
WAIT_SECONDS = 15.0
POLL_SECONDS = 0.05
# A claim this old was left by a process that died mid-request: it may be taken over.
STALE_AFTER = timedelta(minutes=5)


def checked_key(key: str | None, token: str | None) -> str | None:
    """The request's Idempotency-Key, or a 422 when it is malformed or has no caller."""
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not all("!" <= c <= "~" for c in key):
        raise AppError(
            422,
            "invalid_idempotency_key",
            f"Idempotency-Key 必须是 1 到 {MAX_KEY_LENGTH} 个可见的 ASCII 字符。",
            f"An Idempotency-Key is 1 to {MAX_KEY_LENGTH} visible ASCII characters.",
        )
    if token is None:
        raise AppError(
            422,
            "idempotency_needs_token",
            "不带令牌的请求不能使用 Idempotency-Key：无法区分不同的调用者。",
            "An Idempotency-Key needs a token: callers without one cannot be told apart.",
        )
    return key


def scope_for(token: str) -> str:
    """Keys are per caller: one client's key never replays another's response."""
    return hash_token(token)


@dataclass(frozen=True)
class Claim:
    """What :func:`claim` found: ours to run (``row_id``), or an answer to replay."""

    row_id: int | None = None
    status_code: int = 0
    body: Any = None


async def claim(
    sessionmaker: async_sessionmaker[AsyncSession],
    scope: str,
    key: str,
    method: str,
    path: str,
    now: datetime,
) -> Claim:
    """Claim ``key`` for this request, or wait for the request that holds it and return
    its answer. 422 if the key was used for another request; 409 if the holder has not
    answered within ``WAIT_SECONDS`` (the client may retry)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + WAIT_SECONDS
    while True:
        try:
            async with sessionmaker() as session, session.begin():
                row = IdempotencyRow(
                    scope=scope,
                    key=key,
                    method=method,
                    path=path,
                    status_code=PENDING,
                    body={},
                    created_at=now,
                )
                session.add(row)
                await session.flush()
                return Claim(row_id=row.id)
        except IntegrityError:
            pass  # held (or answered) by an earlier request with this key
        async with sessionmaker() as session:
            found = await lookup(session, scope, key, method, path)
            if found is not None and found.status_code != PENDING:
                return Claim(status_code=found.status_code, body=found.body["body"])
            if found is not None and now - found.created_at > STALE_AFTER:
                await session.execute(
                    delete(IdempotencyRow).where(
                        IdempotencyRow.id == found.id, IdempotencyRow.status_code == PENDING
                    )
                )
                await session.commit()
                continue
        if found is None:
            continue  # the holder failed and let go: claim it again
        if loop.time() >= give_up:
            raise AppError(
                409,
                "idempotency_key_in_use",
                "使用同一 Idempotency-Key 的请求仍在处理中，请稍后重试。",
                "A request with this Idempotency-Key is still being processed; retry later.",
            )
        await asyncio.sleep(POLL_SECONDS)


async def lookup(
    session: AsyncSession, scope: str, key: str, method: str, path: str
) -> IdempotencyRow | None:
    row = await session.scalar(
        select(IdempotencyRow).where(IdempotencyRow.scope == scope, IdempotencyRow.key == key)
    )
    if row is not None and (row.method != method or row.path != path):
        raise AppError(
            422,
            "idempotency_key_reused",
            "这个 Idempotency-Key 已用于另一个请求。",
            "This Idempotency-Key was already used for a different request.",
        )
    return row


async def remember(session: AsyncSession, row_id: int, status_code: int, body: Any) -> None:
    """Store the answer on our claim, in the action's transaction."""
    await session.execute(
        update(IdempotencyRow)
        .where(IdempotencyRow.id == row_id)
        .values(status_code=status_code, body={"body": body})
    )


async def release(sessionmaker: async_sessionmaker[AsyncSession], row_id: int) -> None:
    """Drop our claim: the action did not commit, so there is nothing to replay."""
    async with sessionmaker() as session, session.begin():
        await session.execute(
            delete(IdempotencyRow).where(
                IdempotencyRow.id == row_id, IdempotencyRow.status_code == PENDING
            )
        )
