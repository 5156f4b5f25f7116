"""Idempotency-Key: a retried POST returns the first result and creates nothing new."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError
from app.models import IdempotencyRow
from app.services.auth import hash_token


def scope_for(token: str | None) -> str:
    """Keys are per caller: one client's key never replays another's response."""
    return hash_token(token) if token else "anonymous"


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


def remember(
    session: AsyncSession,
    scope: str,
    key: str,
    method: str,
    path: str,
    status_code: int,
    body: Any,
    now: datetime,
) -> None:
    session.add(
        IdempotencyRow(
            scope=scope,
            key=key,
            method=method,
            path=path,
            status_code=status_code,
            body={"body": body},
            created_at=now,
        )
    )
