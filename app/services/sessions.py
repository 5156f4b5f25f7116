"""Invites and browser sessions; replacing a player and revoking what they held.

An invite is a one-time code in a link the director hands a player. Opening the link
shows a confirm button (a link preview must not spend it); confirming spends the code
and creates a session whose secret lives only in the browser's cookie. Codes and
session secrets are stored hashed, like tokens.

Revoking anything bumps the game's ``auth_epoch`` (see ``auth.principal_for``), so a
token remembered by any replica before the revocation is checked again.
"""

from __future__ import annotations

import hmac
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, not_found
from app.models import Game, Invite, PlayerRow, WebSession
from app.services.auth import (
    SESSION_PREFIX,
    Principal,
    forget_game_players,
    hash_token,
    is_admin,
    new_token,
    require_director,
)
from app.services.games import audit
from app.services.steps import append_event

JOIN_PATH = "/join/"


def invite_gone() -> AppError:
    return AppError(
        404,
        "invite_invalid",
        "邀请链接无效或已被使用。请向导演索取新的链接。",
        "This invite link is invalid or has already been used. Ask the director for a new one.",
    )


async def _player(session: AsyncSession, game: Game, player_id: str) -> PlayerRow:
    row = await session.get(PlayerRow, player_id)
    if row is None or row.game_id != game.id:
        raise not_found("玩家", "player")
    return row


async def _revoke_unused_invites(
    session: AsyncSession, game_id: str, player_id: str, now: datetime
) -> None:
    await session.execute(
        update(Invite)
        .where(
            Invite.game_id == game_id,
            Invite.player_id == player_id,
            Invite.used_at.is_(None),
            Invite.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )


async def new_invite(session: AsyncSession, game: Game, player_id: str, now: datetime) -> str:
    """A fresh invite URL for the player; their unused one stops working."""
    await _revoke_unused_invites(session, game.id, player_id, now)
    code = secrets.token_urlsafe(24)
    session.add(
        Invite(
            game_id=game.id,
            player_id=player_id,
            code_hash=hash_token(code),
            created_at=now,
        )
    )
    return f"{JOIN_PATH}{code}"


async def create_invite(
    session: AsyncSession, game: Game, principal: Principal, player_id: str, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    player = await _player(session, game, player_id)
    url = await new_invite(session, game, player.id, now)
    audit(session, game, principal, "invite", {"player_id": player.id}, now)
    return {"url": url, "player_id": player.id}


async def invite_target(session: AsyncSession, code: str) -> tuple[Game, PlayerRow]:
    """The game and player an unspent invite is for (spends nothing)."""
    found = (
        await session.execute(
            select(Invite, Game, PlayerRow)
            .join(Game, Game.id == Invite.game_id)
            .join(PlayerRow, PlayerRow.id == Invite.player_id)
            .where(
                Invite.code_hash == hash_token(code),
                Invite.used_at.is_(None),
                Invite.revoked_at.is_(None),
            )
        )
    ).first()
    if found is None:
        raise invite_gone()
    return found[1], found[2]


def _new_session(
    session: AsyncSession, game_id: str, role: str, player_id: str | None, now: datetime
) -> str:
    secret = new_token(SESSION_PREFIX.rstrip("_"))
    session.add(
        WebSession(
            game_id=game_id,
            role=role,
            player_id=player_id,
            token_hash=hash_token(secret),
            created_at=now,
        )
    )
    return secret


async def redeem_invite(session: AsyncSession, code: str, now: datetime) -> tuple[str, str]:
    """Spend the invite: (game id, session secret for the cookie). Exactly one of two
    racing confirmations wins; the other is told the invite is gone."""
    game, player = await invite_target(session, code)
    spent = await session.execute(
        update(Invite)
        .where(
            Invite.code_hash == hash_token(code),
            Invite.used_at.is_(None),
            Invite.revoked_at.is_(None),
        )
        .values(used_at=now)
    )
    if spent.rowcount != 1:  # type: ignore[attr-defined]
        raise invite_gone()
    return game.id, _new_session(session, game.id, "player", player.id, now)


async def director_login(
    session: AsyncSession, game: Game, token: str, admin_token: str | None, now: datetime
) -> str:
    """Exchange the director token (or the admin token) for a director session."""
    valid = hmac.compare_digest(hash_token(token), game.director_token_hash) or is_admin(
        token, admin_token
    )
    if not valid:
        raise AppError(
            401,
            "bad_director_token",
            "导演令牌不正确。",
            "That is not this game's director token.",
        )
    return _new_session(session, game.id, "director", None, now)


async def end_session(session: AsyncSession, game: Game, secret: str, now: datetime) -> None:
    await session.execute(
        update(WebSession)
        .where(
            WebSession.game_id == game.id,
            WebSession.token_hash == hash_token(secret),
            WebSession.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )


async def _revoke_sessions(session: AsyncSession, game: Game, player_id: str, now: datetime) -> int:
    result = await session.execute(
        update(WebSession)
        .where(
            WebSession.game_id == game.id,
            WebSession.player_id == player_id,
            WebSession.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
    game.auth_epoch += 1
    forget_game_players(game.id)
    return int(result.rowcount)  # type: ignore[attr-defined]


async def revoke_player_sessions(
    session: AsyncSession, game: Game, principal: Principal, player_id: str, now: datetime
) -> dict[str, Any]:
    """Sign the player out of every browser and void their unused invite."""
    require_director(principal)
    player = await _player(session, game, player_id)
    count = await _revoke_sessions(session, game, player.id, now)
    await _revoke_unused_invites(session, game.id, player.id, now)
    audit(session, game, principal, "revoke_sessions", {"player_id": player.id}, now)
    return {"player_id": player.id, "revoked_sessions": count}


async def replace_player(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    player_id: str,
    now: datetime,
) -> dict[str, Any]:
    """A new person takes over a seat: the seat (its id, side, orders and history) stays;
    the old person's token, sessions and invites stop working; the new person gets a new
    token (shown once) and a fresh invite."""
    require_director(principal)
    player = await _player(session, game, player_id)
    token = new_token("fpp")
    player.token_hash = hash_token(token)
    count = await _revoke_sessions(session, game, player.id, now)
    url = await new_invite(session, game, player.id, now)
    append_event(
        session,
        game,
        "player_replaced",
        {"player_id": player.id, "name": player.name},
        ["public"],
        now,
    )
    audit(session, game, principal, "replace_player", {"player_id": player.id}, now)
    return {
        "id": player.id,
        "name": player.name,
        "side": player.side,
        "token": token,
        "url": url,
        "revoked_sessions": count,
    }


async def roster_access(session: AsyncSession, game: Game) -> dict[str, dict[str, Any]]:
    """Per player: live sessions and whether an unused invite is out (director console)."""
    sessions = (
        await session.scalars(
            select(WebSession).where(
                WebSession.game_id == game.id,
                WebSession.revoked_at.is_(None),
                WebSession.player_id.is_not(None),
            )
        )
    ).all()
    invites = (
        await session.scalars(
            select(Invite).where(
                Invite.game_id == game.id, Invite.used_at.is_(None), Invite.revoked_at.is_(None)
            )
        )
    ).all()
    out: dict[str, dict[str, Any]] = {}
    for web in sessions:
        entry = out.setdefault(str(web.player_id), {"sessions": 0, "invite_out": False})
        entry["sessions"] += 1
    for invite in invites:
        out.setdefault(invite.player_id, {"sessions": 0, "invite_out": False})["invite_out"] = True
    return out
