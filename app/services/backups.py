"""Backups (替补): after the start, a seat whose player drops (or whom the director removes)
passes to the first backup on the waitlist who accepts.

The seat stays the seat: its id, side, history and hidden orders are the game's, and the
existing replacement (``sessions.replace_player``) stops the old person's token, sessions
and invites at once. The seat is then *offered* to the first backup; the backup accepts
with their own sign-up token, which becomes the seat's token (so the token they were
shown when they signed up now plays). A backup who declines passes the offer on. The
thread is told each time (a ``signup_list`` post).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import conflict, not_found
from app.models import Game, Invite, PlayerRow, Timer
from app.services import sessions
from app.services.auth import Principal, forget_game_players, require_full_director
from app.services.games import audit
from app.services.seats import OFFER_TIMER
from app.services.signup_models import SignupRow
from app.services.signup_posts import post_notice
from app.services.signups import (
    ACTIVE,
    SYSTEM,
    active_signups,
    caller,
    load_signup,
    promote,
    public_list,
    settings_row,
    signup_json,
)

DEFAULT_OFFER_SECONDS = 86400


async def remove_player(
    session: AsyncSession, game: Game, principal: Principal, player_id: str, now: datetime
) -> dict[str, Any]:
    """``POST /games/{id}/players/{pid}/drop``: the director removes a player after the
    start; the seat goes to a backup."""
    require_full_director(principal)
    return await drop(session, game, player_id, "director", now, principal)


async def drop(
    session: AsyncSession,
    game: Game,
    player_id: str,
    who: str,
    now: datetime,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """The seat's person leaves: their credentials stop, the seat is offered on."""
    if game.status in ("setup", "finished"):
        raise conflict(
            "not_running",
            "只有进行中的游戏才能换替补。",
            "Backups take seats only while the game is under way.",
        )
    player = await session.get(PlayerRow, player_id)
    if player is None or player.game_id != game.id:
        raise not_found("玩家", "player")
    replaced = await sessions.replace_player(session, game, principal or SYSTEM, player.id, now)
    await _void_invites(session, game, player.id, now)
    seat_signup = await session.scalar(
        select(SignupRow).where(
            SignupRow.game_id == game.id,
            SignupRow.player_id == player.id,
            SignupRow.status == "player",
        )
    )
    if seat_signup is not None:
        seat_signup.status, seat_signup.updated_at = "dropped", now
    player.forum_name = None
    audit(session, game, SYSTEM, "seat_dropped", {"player_id": player.id, "by": who}, now)
    offered = await offer(session, game, player, now)
    await post_notice(session, game, "seat_dropped", {"seat": player.name, "backup": offered}, now)
    return {
        "player_id": player.id,
        "seat": player.name,
        "status": "dropped",
        "offered_to": offered,
        "revoked_sessions": replaced["revoked_sessions"],
    }


async def withdraw(
    session: AsyncSession,
    game: Game,
    signup_id: str,
    token: str | None,
    admin_token: str | None,
    now: datetime,
) -> dict[str, Any]:
    """``DELETE /signups/{sid}``: before the start the seat (or place) is given up and the
    waitlist moves up; after it, the seat passes to a backup (``drop``)."""
    signup = await load_signup(session, game, signup_id)
    who = await caller(session, game, signup, token, admin_token)
    return await withdraw_signup(session, game, signup, who, now)


async def withdraw_signup(
    session: AsyncSession, game: Game, signup: SignupRow, who: str, now: datetime
) -> dict[str, Any]:
    """``signup`` withdrawn by ``who`` (already known to be its owner or the director)."""
    if signup.status not in ACTIVE:
        raise conflict("not_signed_up", "这个报名已经撤回。", "This sign-up was withdrawn already.")
    if game.status != "setup" and signup.status == "player" and signup.player_id:
        return await drop(session, game, signup.player_id, who, now)
    player_id, held = signup.player_id, signup.status
    signup.status, signup.player_id, signup.updated_at = "withdrawn", None, now
    await session.flush()
    if held == "player" and player_id is not None:  # in setup: the seat goes, others move up
        await session.execute(delete(PlayerRow).where(PlayerRow.id == player_id))
        game.auth_epoch += 1  # a token remembered by any replica is checked again
        forget_game_players(game.id)
        await promote(session, game, now)
    elif held == "offered" and player_id is not None:  # a backup's offer passes on
        seat = await session.get(PlayerRow, player_id)
        if seat is not None:
            await offer(session, game, seat, now)
    audit(session, game, SYSTEM, "signup_withdrawn", {"signup_id": signup.id, "by": who}, now)
    return {**signup_json(signup), "list": await public_list(session, game, now)}


async def offer(session: AsyncSession, game: Game, player: PlayerRow, now: datetime) -> str | None:
    """The seat is offered to the first backup waiting; None: nobody is waiting. The offer
    waits ``offer_seconds`` (a durable timer), then passes to the next."""
    for signup in await active_signups(session, game.id):
        if signup.status == "offered" and signup.player_id == player.id:
            return signup.name  # already offered
    for signup in await active_signups(session, game.id):
        if signup.status == "waitlist":
            signup.status, signup.player_id, signup.updated_at = "offered", player.id, now
            row = await settings_row(session, game.id)
            wait = row.offer_seconds if row is not None else DEFAULT_OFFER_SECONDS
            session.add(
                Timer(
                    game_id=game.id,
                    kind=OFFER_TIMER,
                    key=signup.id,
                    due_at=now + timedelta(seconds=wait),
                    data={"player_id": player.id},
                    extensions=0,
                    created_at=now,
                )
            )
            return signup.name
    return None


async def offer_expired(session: AsyncSession, game: Game, timer: Timer, now: datetime) -> None:
    """A backup did not accept in time: the offer passes to the next, the thread is told."""
    timer.done_at = now
    signup = await session.get(SignupRow, timer.key)
    if signup is None or signup.status != "offered" or signup.player_id is None:
        return  # accepted or declined meanwhile
    player = await session.get(PlayerRow, signup.player_id)
    signup.status, signup.player_id, signup.updated_at = "withdrawn", None, now
    await session.flush()
    if player is None or game.status == "finished":
        return
    following = await offer(session, game, player, now)
    audit(session, game, SYSTEM, "offer_expired", {"signup_id": signup.id}, now)
    fields = {"seat": player.name, "backup": signup.name, "next": following}
    await post_notice(session, game, "offer_passed", fields, now)


async def accept(
    session: AsyncSession,
    game: Game,
    signup_id: str,
    token: str | None,
    admin_token: str | None,
    now: datetime,
) -> dict[str, Any]:
    """``POST /signups/{sid}/accept``: the backup takes the seat offered to them; their
    sign-up token becomes the seat's token."""
    signup = await load_signup(session, game, signup_id)
    await caller(session, game, signup, token, admin_token)
    if signup.status != "offered" or signup.player_id is None:
        raise conflict("no_offer", "目前没有给你的空位。", "No seat is offered to you now.")
    player = await session.get(PlayerRow, signup.player_id)
    if player is None:
        raise not_found("玩家", "player")
    player.token_hash = signup.token_hash
    player.forum_name = signup.forum_name
    await _void_invites(session, game, player.id, now)
    game.auth_epoch += 1
    forget_game_players(game.id)
    signup.status, signup.updated_at = "player", now
    audit(
        session,
        game,
        SYSTEM,
        "backup_seated",
        {"signup_id": signup.id, "player_id": player.id},
        now,
    )
    await post_notice(
        session, game, "backup_seated", {"seat": player.name, "backup": signup.name}, now
    )
    return {**signup_json(signup), "seat": player.name}


async def decline(
    session: AsyncSession,
    game: Game,
    signup_id: str,
    token: str | None,
    admin_token: str | None,
    now: datetime,
) -> dict[str, Any]:
    """The backup declines: they leave the waitlist and the seat is offered to the next."""
    signup = await load_signup(session, game, signup_id)
    await caller(session, game, signup, token, admin_token)
    if signup.status != "offered" or signup.player_id is None:
        raise conflict("no_offer", "目前没有给你的空位。", "No seat is offered to you now.")
    player = await session.get(PlayerRow, signup.player_id)
    signup.status, signup.player_id, signup.updated_at = "withdrawn", None, now
    await session.flush()
    offered = None if player is None else await offer(session, game, player, now)
    return {**signup_json(signup), "offered_to": offered}


async def _void_invites(session: AsyncSession, game: Game, player_id: str, now: datetime) -> None:
    """The invite ``replace_player`` made for a new person nobody was sent: voided."""
    await session.execute(
        update(Invite)
        .where(
            Invite.game_id == game.id,
            Invite.player_id == player_id,
            Invite.used_at.is_(None),
            Invite.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
