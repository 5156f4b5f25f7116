"""Tokens (random, shown once, stored hashed) and who a caller is within one game."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, forbidden, not_found, unauthorized
from app.ids import could_be_id, new_id  # noqa: F401  (their home was here: old imports work)
from app.models import PlayerRow, WebSession
from app.rules.base import DIRECTOR, DIRECTOR_VIEWER, PUBLIC_VIEWER, Actor, Viewer
from app.services.signup_models import CoDirectorRow, CoDirectorSessionRow


def new_token(prefix: str) -> str:
    return f"{prefix}_{secrets.token_urlsafe(32)}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Who a player token belongs to: a plain value, safe to keep between requests."""

    id: str
    game_id: str
    name: str
    side: str | None

    @classmethod
    def of(cls, row: PlayerRow) -> PlayerInfo:
        return cls(id=row.id, game_id=row.game_id, name=row.name, side=row.side)


@dataclass(frozen=True, slots=True)
class CoDirectorInfo:
    """A co-director of one game (``app/services/codirectors.py``)."""

    id: str
    name: str
    scope: str  # all | review


@dataclass(frozen=True)
class Principal:
    role: Literal["director", "player", "public"]
    player: PlayerInfo | None = None
    via_admin: bool = False
    via_session: bool = False  # a browser's cookie, not a bearer token
    # Who acted, for the audit, when it was not the director themself: a service acting
    # on the director's behalf ("signup"), or a co-director (their own credentials).
    label: str | None = None
    co_director: CoDirectorInfo | None = None

    @property
    def viewer(self) -> Viewer:
        if self.role == "director":
            return DIRECTOR_VIEWER
        if self.role == "player" and self.player is not None:
            return Viewer(role="player", player_id=self.player.id, side=self.player.side)
        return PUBLIC_VIEWER

    @property
    def actor(self) -> Actor:
        if self.role == "director":
            return DIRECTOR
        if self.player is None:
            raise unauthorized()
        return Actor(role="player", player_id=self.player.id, side=self.player.side)

    @property
    def audit_name(self) -> str:
        if self.co_director is not None:
            return "co_director"
        if self.label is not None:
            return self.label
        return "admin" if self.via_admin else self.role

    @property
    def review_only(self) -> bool:
        """A co-director whose director let them review posts and nothing else."""
        return self.co_director is not None and self.co_director.scope == "review"


def is_admin(token: str | None, admin_token: str | None) -> bool:
    return bool(token and admin_token and hmac.compare_digest(token, admin_token))


SESSION_PREFIX = "fps_"
ACCOUNT_TOKEN_PREFIX = "fpa_"


class GameCredentials(Protocol):
    """What telling callers apart needs of a game: a ``Game`` row, or the head a read
    selects (``read_cache.GameHead``) without the rest of the row."""

    @property
    def id(self) -> str: ...

    @property
    def director_token_hash(self) -> str: ...

    @property
    def auth_epoch(self) -> int: ...


async def principal_for(
    session: AsyncSession, game: GameCredentials, token: str | None, admin_token: str | None
) -> Principal:
    """Who the bearer of ``token`` is in ``game``. No token: the public. A token that
    belongs to nobody in this game: 401 (never say whether it is valid elsewhere).
    A browser session's secret (``fps_…``, from its cookie) counts as a token too."""
    known = known_principal(game, token, admin_token)
    if known is not None:
        return known
    assert token is not None
    digest = hash_token(token)
    if token.startswith(SESSION_PREFIX):
        return await _session_principal(session, game, digest)
    if token.startswith(ACCOUNT_TOKEN_PREFIX) and account_resolvers:
        return await account_resolvers[0](session, game, digest)
    row = await session.scalar(
        select(PlayerRow).where(PlayerRow.token_hash == digest, PlayerRow.game_id == game.id)
    )
    if row is None and token.startswith(CO_DIRECTOR_PREFIX):
        return await _co_director_principal(session, game, digest)
    if row is None:
        _players.pop((game.id, digest), None)
        raise unauthorized()
    player = PlayerInfo.of(row)
    _remember(game.id, digest, player, game.auth_epoch)
    return Principal("player", player=player)


def _sandboxed(game: GameCredentials, principal: Principal) -> Principal:
    """A director's sandbox (app/services/safety/sandbox.py) does not exist for the public:
    only its director and the players whose tokens the director holds may read it."""
    if principal.role == "public" and getattr(game, "sandbox", False):
        raise not_found()
    return principal


def known_principal(
    game: GameCredentials, token: str | None, admin_token: str | None
) -> Principal | None:
    """Who the bearer of ``token`` is, when that needs no query: the public, the admin, the
    director, or a player this process remembers at the game's current ``auth_epoch``.
    None: ask ``principal_for`` (a browser session, or a token not seen here yet)."""
    if token is None:
        return _sandboxed(game, Principal("public"))
    if is_admin(token, admin_token):
        return Principal("director", via_admin=True)
    if token.startswith((SESSION_PREFIX, ACCOUNT_TOKEN_PREFIX)):
        return None
    digest = hash_token(token)
    if hmac.compare_digest(digest, game.director_token_hash):
        return Principal("director")
    cached = _players.get((game.id, digest))
    if cached is not None and cached[1] == game.auth_epoch:
        return Principal("player", player=cached[0])
    return None


# A personal account token (``fpa_…``) is resolved by app/accounts/tokens.py, which installs
# itself here at start-up: the accounts build on this module, never the other way round.
AccountResolver = Callable[[AsyncSession, GameCredentials, str], Awaitable[Principal]]
account_resolvers: list[AccountResolver] = []


async def _session_principal(
    session: AsyncSession, game: GameCredentials, digest: str
) -> Principal:
    found = (
        await session.execute(
            select(WebSession, PlayerRow)
            .outerjoin(PlayerRow, PlayerRow.id == WebSession.player_id)
            .where(
                WebSession.token_hash == digest,
                WebSession.game_id == game.id,
                WebSession.revoked_at.is_(None),
            )
        )
    ).first()
    if found is None:
        return await _co_director_session(session, game, digest)
    web, row = found
    if web.role == "director":
        return Principal("director", via_session=True)
    if row is None:
        raise unauthorized()
    return Principal("player", player=PlayerInfo.of(row), via_session=True)


CO_DIRECTOR_PREFIX = "fpc_"


async def _co_director_principal(
    session: AsyncSession, game: GameCredentials, digest: str
) -> Principal:
    """A co-director's token: never remembered between requests, so revoking it (a row
    update) takes effect on every replica at once."""
    row = await session.scalar(
        select(CoDirectorRow).where(
            CoDirectorRow.token_hash == digest,
            CoDirectorRow.game_id == game.id,
            CoDirectorRow.revoked_at.is_(None),
        )
    )
    if row is None:
        raise unauthorized()
    return Principal("director", co_director=CoDirectorInfo(row.id, row.name, row.scope))


async def _co_director_session(
    session: AsyncSession, game: GameCredentials, digest: str
) -> Principal:
    """A co-director's console session (``codirectors.console_login``)."""
    row = await session.scalar(
        select(CoDirectorRow)
        .join(CoDirectorSessionRow, CoDirectorSessionRow.co_director_id == CoDirectorRow.id)
        .where(
            CoDirectorSessionRow.token_hash == digest,
            CoDirectorSessionRow.game_id == game.id,
            CoDirectorSessionRow.revoked_at.is_(None),
            CoDirectorRow.revoked_at.is_(None),
        )
    )
    if row is None:
        raise unauthorized()
    info = CoDirectorInfo(row.id, row.name, row.scope)
    return Principal("director", co_director=info, via_session=True)


# Who a token belongs to is remembered, with the game's ``auth_epoch`` it was checked at:
# it saves a query on every order. Replacing a player or revoking credentials bumps the
# epoch on the game row, which every request reads (on every replica), so a remembered
# answer from before is checked again instead of trusted. Unknown tokens are never kept.
_players: OrderedDict[tuple[str, str], tuple[PlayerInfo, int]] = OrderedDict()
_PLAYER_CACHE_SIZE = 50_000


def _remember(game_id: str, digest: str, player: PlayerInfo, epoch: int) -> None:
    _players[(game_id, digest)] = (player, epoch)
    if len(_players) > _PLAYER_CACHE_SIZE:
        _players.popitem(last=False)


def forget_game_players(game_id: str) -> None:
    """Drop this process's remembered tokens of a game (the epoch covers other replicas)."""
    for key in [k for k in _players if k[0] == game_id]:
        del _players[key]


def require_director(principal: Principal) -> None:
    require_known(principal)
    if principal.role != "director":
        raise _need("director", "导演")


def require_full_director(principal: Principal) -> None:
    """The director, or a co-director allowed everything (not one who only reviews)."""
    require_director(principal)
    if principal.review_only:
        raise forbidden(
            "你是只负责审稿的协助导演，不能执行此操作。",
            "You are a co-director who reviews posts only; you may not do this.",
        )


def require_player(principal: Principal) -> PlayerInfo:
    require_known(principal)
    if principal.role != "player" or principal.player is None:
        raise _need("player", "玩家")
    return principal.player


def require_known(principal: Principal) -> None:
    if principal.role == "public":
        raise unauthorized()


def _need(role_en: str, role_zh: str) -> AppError:
    return forbidden(f"只有{role_zh}可以执行此操作。", f"Only the {role_en} may do this.")
