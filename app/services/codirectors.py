"""Co-directors: the director invites helpers with their own credentials (a token shown
once, stored hashed), revocable at any time; every action a co-director takes is audited
under their name (``games.audit`` adds it). What they may do is the director's choice:
``"all"`` (everything the director may, but inviting co-directors), or ``"review"``
(read everything and review posts: edit, approve, discard, retry; nothing else).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import conflict, forbidden, not_found
from app.ids import new_id
from app.models import Game
from app.services.auth import (
    CO_DIRECTOR_PREFIX,
    SESSION_PREFIX,
    Principal,
    forget_game_players,
    hash_token,
    new_token,
    require_director,
)
from app.services.games import audit
from app.services.signup_models import CoDirectorRow, CoDirectorSessionRow
from app.services.signups import checked_name

MAX_CO_DIRECTORS = 20

# What a review-only co-director may change: the posts' review (API and console).
_REVIEW = [
    re.compile(r"/api/v1/games/[^/]+/posts/[^/]+(/(approve|discard|retry))?"),
    re.compile(r"/api/v1/games/[^/]+/posts/[^/]+/deliveries/[^/]+/posted"),
    re.compile(r"/director/[^/]+/posts/[^/]+/[a-z_]+"),
]


def review_allows(method: str, path: str) -> bool:
    """Whether a review-only co-director may make this request (reads: always)."""
    if method in ("GET", "HEAD", "OPTIONS"):
        return True
    return any(p.fullmatch(path) for p in _REVIEW)


def refuse_review_only(principal: Principal, method: str, path: str) -> None:
    if principal.review_only and not review_allows(method, path):
        raise forbidden(
            "你是只负责审稿的协助导演，不能执行此操作。",
            "You are a co-director who reviews posts only; you may not do this.",
        )


def _json(row: CoDirectorRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "scope": row.scope,
        "created_at": row.created_at.isoformat(),
        "revoked_at": row.revoked_at.isoformat() if row.revoked_at else None,
    }


def _only_the_director(principal: Principal) -> None:
    require_director(principal)
    if principal.co_director is not None:
        raise forbidden(
            "只有导演本人可以邀请或撤销协助导演。",
            "Only the director may invite or revoke co-directors.",
        )


async def invite(
    session: AsyncSession, game: Game, principal: Principal, name: str, scope: str, now: datetime
) -> dict[str, Any]:
    _only_the_director(principal)
    name = checked_name(name)
    rows = (
        await session.scalars(
            select(CoDirectorRow).where(
                CoDirectorRow.game_id == game.id, CoDirectorRow.revoked_at.is_(None)
            )
        )
    ).all()
    if len(rows) >= MAX_CO_DIRECTORS:
        raise conflict("too_many_co_directors", "协助导演太多了。", "Too many co-directors.")
    token = new_token(CO_DIRECTOR_PREFIX.rstrip("_"))
    row = CoDirectorRow(
        id=new_id(),
        game_id=game.id,
        name=name,
        scope=scope,
        token_hash=hash_token(token),
        created_at=now,
        revoked_at=None,
    )
    session.add(row)
    await session.flush()
    audit(
        session,
        game,
        principal,
        "co_director_invited",
        {"id": row.id, "name": name, "scope": scope},
        now,
    )
    return {**_json(row), "token": token}


async def list_all(session: AsyncSession, game: Game, principal: Principal) -> list[dict[str, Any]]:
    require_director(principal)
    rows = await session.scalars(
        select(CoDirectorRow)
        .where(CoDirectorRow.game_id == game.id)
        .order_by(CoDirectorRow.created_at, CoDirectorRow.id)
    )
    return [_json(r) for r in rows]


async def revoke(
    session: AsyncSession, game: Game, principal: Principal, director_id: str, now: datetime
) -> dict[str, Any]:
    _only_the_director(principal)
    row = await session.get(CoDirectorRow, director_id)
    if row is None or row.game_id != game.id:
        raise not_found("协助导演", "co-director")
    if row.revoked_at is None:
        row.revoked_at = now
        await session.execute(
            update(CoDirectorSessionRow)
            .where(
                CoDirectorSessionRow.co_director_id == row.id,
                CoDirectorSessionRow.revoked_at.is_(None),
            )
            .values(revoked_at=now)
        )
        game.auth_epoch += 1
        forget_game_players(game.id)
        audit(
            session, game, principal, "co_director_revoked", {"id": row.id, "name": row.name}, now
        )
    return _json(row)


async def console_login(session: AsyncSession, game: Game, token: str, now: datetime) -> str | None:
    """A co-director's token exchanged for a console session (its secret, for the
    director's cookie); None: no co-director of this game holds that token."""
    row = await session.scalar(
        select(CoDirectorRow).where(
            CoDirectorRow.token_hash == hash_token(token),
            CoDirectorRow.game_id == game.id,
            CoDirectorRow.revoked_at.is_(None),
        )
    )
    if row is None:
        return None
    secret = new_token(SESSION_PREFIX.rstrip("_"))
    session.add(
        CoDirectorSessionRow(
            game_id=game.id,
            co_director_id=row.id,
            token_hash=hash_token(secret),
            created_at=now,
            revoked_at=None,
        )
    )
    return secret


async def end_console_session(
    session: AsyncSession, game: Game, secret: str, now: datetime
) -> None:
    await session.execute(
        update(CoDirectorSessionRow)
        .where(
            CoDirectorSessionRow.game_id == game.id,
            CoDirectorSessionRow.token_hash == hash_token(secret),
            CoDirectorSessionRow.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
