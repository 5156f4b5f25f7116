"""Personal API tokens: named, scoped (read / play / direct), revocable, shown once, stored
hashed; one token acts in every game its account holds a seat in.

A token is resolved in one branch of the service's token lookup (``auth.principal_for``
calls ``resolve`` for ``fpa_…``): it is the account's seat in the game in the path —
the director's role with ``direct``, the player's seat with ``play``; ``read`` alone only
reads. Whether a request writes is its HTTP method, set by ``MethodScope`` for the request.
"""

from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.types import ASGIApp, Receive, Scope, Send

from app.accounts import service
from app.accounts.errors import bad_scopes, scope_forbidden
from app.accounts.models import AccountToken
from app.errors import not_found, unauthorized
from app.ids import new_id
from app.models import PlayerRow
from app.services import auth
from app.services.auth import GameCredentials, PlayerInfo, Principal, hash_token

SCOPES = ("read", "play", "direct")
MAX_TOKENS = 20
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

# Whether the request being served may change something; unknown (a service called from
# the command line or a test): assume it writes, the stricter answer.
_writes: ContextVar[bool] = ContextVar("account_token_writes", default=True)


class MethodScope:
    """ASGI middleware: tells ``resolve`` whether this request writes (its method)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        reset = _writes.set(scope["method"] not in _SAFE)
        try:
            await self.app(scope, receive, send)
        finally:
            _writes.reset(reset)


def install() -> None:
    """Make ``auth.principal_for`` resolve account tokens (called by the app factory)."""
    if resolve not in auth.account_resolvers:
        auth.account_resolvers.append(resolve)


async def resolve(session: AsyncSession, game: GameCredentials, digest: str) -> Principal:
    """Who an account token's bearer is in ``game``: 401 when the token is unknown or its
    account holds no seat here (never say whether it is valid elsewhere)."""
    token = await session.scalar(
        select(AccountToken).where(
            AccountToken.token_hash == digest, AccountToken.revoked_at.is_(None)
        )
    )
    if token is None:
        raise unauthorized()
    seats = await service.live_seats(session, token.account_id, game.id)
    if not seats:
        raise unauthorized()
    scopes = set(token.scopes)
    writes = _writes.get()
    reads = not writes and "read" in scopes
    if any(s.role == "director" for s in seats) and ("direct" in scopes or reads):
        return Principal("director")
    for seat in seats:
        if seat.role == "player" and ("play" in scopes or reads):
            row = await session.get(PlayerRow, seat.seat)
            if row is not None and row.game_id == game.id:
                return Principal("player", player=PlayerInfo.of(row))
    raise scope_forbidden()


def _checked_scopes(scopes: list[str]) -> list[str]:
    if not scopes or any(s not in SCOPES for s in scopes):
        raise bad_scopes()
    return [s for s in SCOPES if s in scopes]


async def create_token(
    session: AsyncSession, account_id: str, name: str, scopes: list[str], now: datetime
) -> dict[str, Any]:
    """A new personal token: its secret is in this answer only."""
    wanted = _checked_scopes(scopes)
    live = await session.scalars(
        select(AccountToken.id).where(
            AccountToken.account_id == account_id, AccountToken.revoked_at.is_(None)
        )
    )
    if len(live.all()) >= MAX_TOKENS:
        from app.errors import AppError

        raise AppError(
            409,
            "too_many_tokens",
            f"一个账户最多保留 {MAX_TOKENS} 个个人令牌，请先撤销不用的。",
            f"An account keeps at most {MAX_TOKENS} personal tokens; revoke one first.",
        )
    secret = auth.new_token(auth.ACCOUNT_TOKEN_PREFIX.rstrip("_"))
    row = AccountToken(
        id=new_id(),
        account_id=account_id,
        name=name,
        scopes=wanted,
        token_hash=hash_token(secret),
        created_at=now,
    )
    session.add(row)
    return {"id": row.id, "name": name, "scopes": wanted, "token": secret}


async def revoke_token(
    session: AsyncSession, account_id: str, token_id: str, now: datetime
) -> None:
    row = await session.get(AccountToken, token_id)
    if row is None or row.account_id != account_id or row.revoked_at is not None:
        raise not_found("令牌", "token")
    row.revoked_at = now


async def token_account(session: AsyncSession, secret: str) -> str | None:
    """The account a personal token belongs to (for ``GET /me/games`` with a token)."""
    if not secret.startswith(auth.ACCOUNT_TOKEN_PREFIX):
        return None
    row = await session.scalar(
        select(AccountToken).where(
            AccountToken.token_hash == hash_token(secret), AccountToken.revoked_at.is_(None)
        )
    )
    return row.account_id if row is not None else None
