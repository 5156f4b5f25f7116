"""Sign-ups (报名): a game in setup fills itself (API: "Sign-ups").

The director opens sign-ups with named settings (:class:`SignupSettings`); anyone signs
up with a name (and a forum name, and a side wish where the game has sides). A sign-up
takes a seat while seats are free (approval "auto"), or waits for the director (approval
"director"), or joins the waitlist. A seat is a player row whose token is the sign-up's
token, shown once. Withdrawing before the start moves the waitlist up; after the start
the waitlist is the backups (``app/services/backups.py``).

Every function runs with the game row locked (``run_game``): the seats are counted and
taken in one transaction that no other sign-up of the game can interleave with, so no
seat is ever given past the cap however many arrive at once.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, conflict, not_found
from app.ids import new_id
from app.models import Game, PlayerRow
from app.rules.base import RuleViolation
from app.rules.registry import get_ruleset
from app.rules.types import Name
from app.services.auth import (
    Principal,
    forget_game_players,
    hash_token,
    new_token,
    principal_for,
    require_director,
)
from app.services.games import audit, ruleset_settings
from app.services.lookalike import lookalike_key
from app.services.seats import capacity, required
from app.services.signup_models import SignupRow, SignupSettingsRow

ACTIVE = ("player", "waitlist", "pending", "offered")
SIGNUPS_PER_ADDRESS = 10  # per address, per game, per hour
SIGNUPS_PER_GAME = 120  # per game, per ten minutes
SYSTEM = Principal("director", label="signup")  # what a sign-up does to the roster, audited


class SignupBody(BaseModel):
    """``POST /games/{id}/signups``."""

    model_config = {"extra": "forbid"}

    name: Name
    forum_name: Name | None = None
    side: str | None = Field(None, max_length=16)


_NAME: TypeAdapter[str] = TypeAdapter(Name)


# ------------------------------------------------------------------------------ reading
async def settings_row(session: AsyncSession, game_id: str) -> SignupSettingsRow | None:
    return await session.get(SignupSettingsRow, game_id)


async def active_signups(session: AsyncSession, game_id: str) -> list[SignupRow]:
    rows = await session.scalars(
        select(SignupRow)
        .where(SignupRow.game_id == game_id, SignupRow.status.in_(ACTIVE))
        .order_by(SignupRow.seq)
    )
    return list(rows.all())


async def seated(session: AsyncSession, game_id: str) -> int:
    count = await session.scalar(
        select(func.count()).select_from(PlayerRow).where(PlayerRow.game_id == game_id)
    )
    return int(count or 0)


def is_open(row: SignupSettingsRow | None, game: Game, now: datetime) -> bool:
    if row is None or not row.open or game.status != "setup":
        return False
    return row.closes_at is None or now < row.closes_at


def is_listed(row: SignupSettingsRow | None, game: Game, now: datetime) -> bool:
    if game.archived_at is not None:
        return False
    if row is None:
        return False
    if row.listed is not None:
        return row.listed
    return is_open(row, game, now)


async def needed(session: AsyncSession, game: Game, row: SignupSettingsRow | None) -> int:
    """How many more players the game wants ("还差 N 人")."""
    cap = capacity(game, row) if row is not None and row.max_players else None
    target = cap if cap is not None else required(game, row)
    return max(0, target - await seated(session, game.id))


def _entry(row: SignupSettingsRow | None, s: SignupRow) -> dict[str, Any]:
    return {"name": s.name, "forum_name": s.forum_name}


async def public_list(session: AsyncSession, game: Game, now: datetime) -> dict[str, Any]:
    """``GET /games/{id}/signup``: names only."""
    row = await settings_row(session, game.id)
    signups = await active_signups(session, game.id)
    players = await session.scalars(
        select(PlayerRow).where(PlayerRow.game_id == game.id).order_by(PlayerRow.ordinal)
    )
    return {
        "open": is_open(row, game, now),
        "configured": row is not None,
        "max_players": capacity(game, row),
        "min_players": required(game, row),
        "approval": row.approval if row is not None else "auto",
        "closes_at": row.closes_at.isoformat() if row and row.closes_at else None,
        "listed": is_listed(row, game, now),
        "players": [{"name": p.name, "forum_name": p.forum_name} for p in players],
        "waitlist": [_entry(row, s) for s in signups if s.status in ("waitlist", "offered")],
        "pending": [_entry(row, s) for s in signups if s.status == "pending"],
        "needed": await needed(session, game, row),
        "sides": list(getattr(get_ruleset(game.ruleset), "signup_sides", ())),
    }


async def director_list(
    session: AsyncSession, game: Game, principal: Principal
) -> list[dict[str, Any]]:
    """Every sign-up with its id and status (the console, ``GET /signups``)."""
    require_director(principal)
    rows = await session.scalars(
        select(SignupRow).where(SignupRow.game_id == game.id).order_by(SignupRow.seq)
    )
    return [signup_json(s) for s in rows]


def settings_json(row: SignupSettingsRow) -> dict[str, Any]:
    return {
        "open": row.open,
        "max_players": row.max_players,
        "min_players": row.min_players,
        "waitlist": row.waitlist,
        "max_waitlist": row.max_waitlist,
        "approval": row.approval,
        "closes_at": row.closes_at.isoformat() if row.closes_at else None,
        "listed": row.listed,
        "side_assignment": row.side_assignment,
        "offer_seconds": row.offer_seconds,
    }


def signup_json(s: SignupRow) -> dict[str, Any]:
    return {
        "id": s.id,
        "name": s.name,
        "forum_name": s.forum_name,
        "side": s.side,
        "status": s.status,
        "player_id": s.player_id,
        "has_account": s.account_id is not None,
        "source": s.source,
        "created_at": s.created_at.isoformat(),
    }


# ------------------------------------------------------------------------------ signing up
def address_key(address: str | None) -> str | None:
    return None if not address else hashlib.sha256(f"addr:{address}".encode()).hexdigest()


async def sign_up(
    session: AsyncSession,
    game: Game,
    body: SignupBody,
    now: datetime,
    address: str | None = None,
    source: str = "api",
) -> dict[str, Any]:
    """A new sign-up: 201 ``{"id", "status", "token", "player_id"}`` (token shown once)."""
    row = await settings_row(session, game.id)
    if not is_open(row, game, now):
        raise conflict("signups_closed", "报名未开放或已截止。", "Sign-ups are not open.")
    assert row is not None
    await _rate_limit(session, game, address_key(address), now)
    key = lookalike_key(body.name)
    forum_key = lookalike_key(body.forum_name) if body.forum_name else None
    await _refuse_lookalikes(session, game, key, forum_key, body)
    side = await _checked_side(game, body.side)
    signups = await active_signups(session, game.id)
    waiting = sum(1 for s in signups if s.status in ("waitlist", "pending"))
    status = "pending" if row.approval == "director" else "player"
    if status == "player" and not await _seat_free(session, game, row):
        status = "waitlist"
    if status == "waitlist" and not row.waitlist:
        raise conflict("signups_full", "名额已满。", "Every seat is taken.")
    if status != "player" and waiting >= row.max_waitlist:
        raise conflict(
            "waitlist_full", "名额与候补都已满。", "Every seat and every waitlist place is taken."
        )
    token = new_token("fpp")
    seq = int(
        await session.scalar(
            select(func.coalesce(func.max(SignupRow.seq), 0)).where(SignupRow.game_id == game.id)
        )
        or 0
    )
    signup = SignupRow(
        id=new_id(),
        game_id=game.id,
        seq=seq + 1,
        name=body.name,
        name_key=key,
        forum_name=body.forum_name,
        forum_key=forum_key,
        side=side,
        side_fixed=False,
        status=status,
        token_hash=hash_token(token),
        player_id=None,
        address_hash=address_key(address),
        source=source,
        created_at=now,
        updated_at=now,
    )
    session.add(signup)
    if status == "player":
        await seat(session, game, signup, now)
    await session.flush()
    return {"id": signup.id, "status": signup.status, "token": token, "player_id": signup.player_id}


async def _rate_limit(
    session: AsyncSession, game: Game, address: str | None, now: datetime
) -> None:
    if address is not None:
        recent = await session.scalar(
            select(func.count())
            .select_from(SignupRow)
            .where(
                SignupRow.game_id == game.id,
                SignupRow.address_hash == address,
                SignupRow.created_at > now - timedelta(hours=1),
            )
        )
        if int(recent or 0) >= SIGNUPS_PER_ADDRESS:
            raise _too_many()
    recent = await session.scalar(
        select(func.count())
        .select_from(SignupRow)
        .where(SignupRow.game_id == game.id, SignupRow.created_at > now - timedelta(minutes=10))
    )
    if int(recent or 0) >= SIGNUPS_PER_GAME:
        raise _too_many()


def _too_many() -> AppError:
    return AppError(
        429,
        "too_many_signups",
        "报名太频繁，请稍后再试。",
        "Too many sign-ups from here just now; try again later.",
    )


async def _refuse_lookalikes(
    session: AsyncSession, game: Game, key: str, forum_key: str | None, body: SignupBody
) -> None:
    """A name that looks like one already in the game (a seat, or a sign-up waiting) is
    refused: "Ａlice", "alice" and "аlice" (Cyrillic а) are one name."""
    players = (await session.scalars(select(PlayerRow).where(PlayerRow.game_id == game.id))).all()
    signups = await active_signups(session, game.id)
    names = {lookalike_key(p.name) for p in players} | {s.name_key for s in signups}
    if key in names:
        raise conflict(
            "name_taken",
            f"本局已有与“{body.name}”相同或相似的名字。",
            f"A name the same as or like {body.name!r} is already in this game.",
        )
    if forum_key is None:
        return
    forums = {lookalike_key(p.forum_name) for p in players if p.forum_name}
    forums |= {s.forum_key for s in signups if s.forum_key}
    if forum_key in forums:
        raise conflict(
            "forum_name_taken",
            f"论坛名“{body.forum_name}”已经报过名。",
            f"The forum name {body.forum_name!r} has already signed up.",
        )


async def _checked_side(game: Game, side: str | None) -> str | None:
    sides = tuple(getattr(get_ruleset(game.ruleset), "signup_sides", ()))
    if side is None or side == "":
        return None
    if side not in sides:
        raise AppError(
            422,
            "bad_side",
            "本游戏没有这个阵营可选。" if sides else "本游戏不分阵营。",
            "This game has no such side." if sides else "This game has no sides.",
        )
    return side


async def _seat_free(session: AsyncSession, game: Game, row: SignupSettingsRow) -> bool:
    cap = capacity(game, row)
    return cap is None or await seated(session, game.id) < cap


def provisional_side(sides: tuple[str, ...], wish: str | None, counts: dict[str, int]) -> str:
    """A new seat's side until the start balances them: the wish, else the smallest side."""
    if wish in sides:
        return str(wish)
    return min(sides, key=lambda s: (counts.get(s, 0), sides.index(s)))


async def seat(session: AsyncSession, game: Game, signup: SignupRow, now: datetime) -> PlayerRow:
    """The sign-up takes a seat: a player row holding the sign-up's token."""
    ruleset = get_ruleset(game.ruleset)
    players = (await session.scalars(select(PlayerRow).where(PlayerRow.game_id == game.id))).all()
    sides = tuple(getattr(ruleset, "signup_sides", ()))
    side: str | None = None
    if sides:
        counts: dict[str, int] = {}
        for p in players:
            if p.side:
                counts[p.side] = counts.get(p.side, 0) + 1
        side = provisional_side(sides, signup.side, counts)
    try:
        settings = ruleset_settings(ruleset, game.settings)
        ruleset.validate_player(settings, signup.name, side, len(players))
    except RuleViolation as violation:
        raise AppError.from_violation(violation) from None
    ordinal = max((p.ordinal for p in players), default=0) + 1
    player = PlayerRow(
        id=new_id(),
        game_id=game.id,
        ordinal=ordinal,
        name=signup.name,
        side=side,
        token_hash=signup.token_hash,
        created_at=now,
        forum_name=signup.forum_name,
    )
    session.add(player)
    await session.flush()
    signup.status, signup.player_id, signup.updated_at = "player", player.id, now
    audit(
        session, game, SYSTEM, "signup_seat", {"signup_id": signup.id, "player_id": player.id}, now
    )
    return player


async def promote(session: AsyncSession, game: Game, now: datetime) -> list[SignupRow]:
    """In setup: the waitlist moves up into the free seats, first come first seated."""
    if game.status != "setup":
        return []
    row = await settings_row(session, game.id)
    if row is None:
        return []
    moved = []
    for signup in await active_signups(session, game.id):
        if signup.status != "waitlist":
            continue
        if not await _seat_free(session, game, row):
            break
        await seat(session, game, signup, now)
        moved.append(signup)
    return moved


# ------------------------------------------------------------------------------ one sign-up
async def load_signup(session: AsyncSession, game: Game, signup_id: str) -> SignupRow:
    signup = await session.get(SignupRow, signup_id)
    if signup is None or signup.game_id != game.id:
        raise not_found("报名", "sign-up")
    return signup


async def caller(
    session: AsyncSession,
    game: Game,
    signup: SignupRow,
    token: str | None,
    admin_token: str | None,
) -> Literal["self", "director"]:
    """The bearer of ``token`` as far as ``signup`` goes: its owner, or the director."""
    if token and hmac.compare_digest(hash_token(token), signup.token_hash):
        return "self"
    principal = await principal_for(session, game, token, admin_token)
    require_director(principal)
    return "director"


async def my_signup(
    session: AsyncSession, game: Game, signup_id: str, token: str | None, admin: str | None
) -> dict[str, Any]:
    """``GET /signups/{sid}``: the sign-up's status and place on the waitlist."""
    signup = await load_signup(session, game, signup_id)
    await caller(session, game, signup, token, admin)
    ahead = [
        s for s in await active_signups(session, game.id) if s.status in ("waitlist", "offered")
    ]
    place = next((i + 1 for i, s in enumerate(ahead) if s.id == signup.id), None)
    return {**signup_json(signup), "waitlist_place": place}


async def decide(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    signup_id: str,
    approve: bool,
    now: datetime,
) -> dict[str, Any]:
    """The director approves (a seat, else the waitlist) or rejects a pending sign-up."""
    require_director(principal)
    signup = await load_signup(session, game, signup_id)
    if signup.status != "pending":
        raise conflict("not_pending", "这个报名不在待审状态。", "This sign-up is not pending.")
    row = await settings_row(session, game.id)
    if not approve:
        signup.status = "rejected"
    elif game.status == "setup" and row is not None and await _seat_free(session, game, row):
        await seat(session, game, signup, now)
    else:
        signup.status = "waitlist"
    signup.updated_at = now
    action = "signup_approved" if approve else "signup_rejected"
    audit(session, game, principal, action, {"signup_id": signup.id}, now)
    return signup_json(signup)


async def set_side(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    signup_id: str,
    side: str | None,
    now: datetime,
) -> dict[str, Any]:
    """The director adjusts a seat's side before the start; the start keeps it."""
    require_director(principal)
    if game.status != "setup":
        raise conflict("not_in_setup", "游戏已开始。", "The game has started.")
    signup = await load_signup(session, game, signup_id)
    checked = await _checked_side(game, side)
    signup.side, signup.side_fixed = checked, checked is not None
    if signup.player_id is not None and checked is not None:
        player = await session.get(PlayerRow, signup.player_id)
        if player is not None:
            player.side = checked
            game.auth_epoch += 1  # remembered tokens know the old side
            forget_game_players(game.id)
    signup.updated_at = now
    audit(session, game, principal, "signup_side", {"signup_id": signup.id, "side": checked}, now)
    return signup_json(signup)


def checked_name(value: str) -> str:
    """A name checked as player names are (NFKC, no hidden characters)."""
    try:
        return _NAME.validate_python(value)
    except ValidationError as error:
        message = "; ".join(e["msg"].removeprefix("Value error, ") for e in error.errors())
        raise AppError(
            422, "invalid_body", f"名字有误：{message}", f"Invalid name: {message}"
        ) from None
