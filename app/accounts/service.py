"""Accounts: who a browser is (its account session), the seats an account gathers, recovery
codes, and deleting an account. One use case per function; nothing here commits.

A browser's seats are its per-game session cookies (``fp_s_<game>``, ``fp_d_<game>``). When
it signs in to an account, or redeems an invite while signed in, those seats are bound to the
account (``AccountSeat``): "my games" then follows the account to any device, where
``open_seat`` makes a fresh per-game session for one of them. The per-game credentials are
untouched: bots and scripts keep using them, and deleting the account leaves every seat in its
game as a plain seat.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.errors import not_signed_in, recovery_failed
from app.accounts.models import (
    Account,
    AccountSeat,
    AccountSession,
    AccountToken,
    Passkey,
    PasskeyChallenge,
    RecoveryCode,
)
from app.errors import not_found
from app.ids import new_id
from app.models import EventRow, Game, PlayerRow, WebSession
from app.services.auth import SESSION_PREFIX, hash_token, new_token
from app.services.signup_models import CoDirectorRow, CoDirectorSessionRow

ACCOUNT_COOKIE = "fp_a"
ACCOUNT_SESSION_PREFIX = "fpas"
RECOVERY_CODES = 8
PLAYER_COOKIE_PREFIX = "fp_s_"
DIRECTOR_COOKIE_PREFIX = "fp_d_"


@dataclass(frozen=True)
class HeldSession:
    """A per-game session cookie this browser holds."""

    game_id: str
    cookie: str  # player | director: which cookie it came from
    secret: str


def held_sessions(cookies: Mapping[str, str]) -> list[HeldSession]:
    """The game sessions in a browser's cookies (unchecked: ``seats_of_sessions`` checks)."""
    held = []
    for name, value in cookies.items():
        for prefix, kind in (
            (PLAYER_COOKIE_PREFIX, "player"),
            (DIRECTOR_COOKIE_PREFIX, "director"),
        ):
            if name.startswith(prefix) and value.startswith(SESSION_PREFIX):
                held.append(HeldSession(name[len(prefix) :], kind, value))
    return held


def _role(web: WebSession) -> str:
    if web.role == "player":
        return "player"
    return "director" if web.role == "director" else "co_director"


async def seats_of_sessions(session: AsyncSession, held: list[HeldSession]) -> list[dict[str, Any]]:
    """The live seats behind a browser's session cookies: game, role, player."""
    if not held:
        return []
    rows = (
        await session.execute(
            select(WebSession, Game, PlayerRow)
            .join(Game, Game.id == WebSession.game_id)
            .outerjoin(PlayerRow, PlayerRow.id == WebSession.player_id)
            .where(
                WebSession.token_hash.in_([hash_token(h.secret) for h in held]),
                WebSession.revoked_at.is_(None),
                Game.archived_at.is_(None),
            )
        )
    ).all()
    seats = [
        _seat(game, _role(web), player, web.player_id or _role(web)) for web, game, player in rows
    ]
    # A co-director's console session is their own (the director's cookie, their secret).
    co = await session.execute(
        select(CoDirectorSessionRow, Game)
        .join(CoDirectorRow, CoDirectorRow.id == CoDirectorSessionRow.co_director_id)
        .join(Game, Game.id == CoDirectorSessionRow.game_id)
        .where(
            CoDirectorSessionRow.token_hash.in_([hash_token(h.secret) for h in held]),
            CoDirectorSessionRow.revoked_at.is_(None),
            CoDirectorRow.revoked_at.is_(None),
            Game.archived_at.is_(None),
        )
    )
    seats += [_seat(game, "co_director", None, row.co_director_id) for row, game in co.all()]
    return seats


def _seat(game: Game, role: str, player: PlayerRow | None, seat: str) -> dict[str, Any]:
    return {
        "game_id": game.id,
        "title": game.title,
        "ruleset": game.ruleset,
        "status": game.status,
        "role": role,
        "seat": seat,
        "player_name": player.name if player is not None else None,
        "created_at": game.created_at,
    }


async def handed_over(session: AsyncSession, seats: list[AccountSeat]) -> set[int]:
    """The account's player seats the director has since given to someone else (replaced):
    the account no longer holds them (they count as dropped in its record)."""
    players = [s for s in seats if s.role == "player"]
    if not players:
        return set()
    events = (
        await session.execute(
            select(EventRow.game_id, EventRow.data, EventRow.at).where(
                EventRow.game_id.in_({s.game_id for s in players}),
                EventRow.kind == "player_replaced",
            )
        )
    ).all()
    latest: dict[tuple[str, str], datetime] = {}
    for game_id, data, at in events:
        key = (game_id, str(data.get("player_id")))
        latest[key] = max(at, latest.get(key, at))
    return {
        s.id
        for s in players
        if (s.game_id, s.seat) in latest and latest[(s.game_id, s.seat)] >= s.created_at
    }


async def live_seats(
    session: AsyncSession, account_id: str, game_id: str | None = None
) -> list[AccountSeat]:
    """The seats the account holds now (not handed over), in one game or all."""
    query = select(AccountSeat).where(AccountSeat.account_id == account_id)
    if game_id is not None:
        query = query.where(AccountSeat.game_id == game_id)
    seats = list((await session.scalars(query)).all())
    gone = await handed_over(session, seats) | await _revoked_co_directors(session, seats)
    return [s for s in seats if s.id not in gone]


async def _revoked_co_directors(session: AsyncSession, seats: list[AccountSeat]) -> set[int]:
    """The account's co-director seats whose co-director the director has revoked."""
    held = {s.seat: s.id for s in seats if s.role == "co_director"}
    if not held:
        return set()
    live = set(
        await session.scalars(
            select(CoDirectorRow.id).where(
                CoDirectorRow.id.in_(list(held)), CoDirectorRow.revoked_at.is_(None)
            )
        )
    )
    return {seat_id for co_id, seat_id in held.items() if co_id not in live}


async def account_seats(session: AsyncSession, account_id: str) -> list[dict[str, Any]]:
    rows = (
        await session.execute(
            select(AccountSeat, Game, PlayerRow)
            .join(Game, Game.id == AccountSeat.game_id)
            .outerjoin(PlayerRow, PlayerRow.id == AccountSeat.seat)
            .where(AccountSeat.account_id == account_id, Game.archived_at.is_(None))
        )
    ).all()
    held = [seat for seat, _, _ in rows]
    gone = await handed_over(session, held) | await _revoked_co_directors(session, held)
    return [
        _seat(game, seat.role, player, seat.seat)
        for seat, game, player in rows
        if seat.id not in gone
    ]


def merge_seats(*lists: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per (game, role, seat), newest game first."""
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for entries in lists:
        for entry in entries:
            seen.setdefault((entry["game_id"], entry["role"], entry["seat"]), entry)
    order = {"director": 0, "co_director": 1, "player": 2}
    return sorted(
        seen.values(), key=lambda e: (-e["created_at"].timestamp(), order.get(e["role"], 3))
    )


async def my_games(
    session: AsyncSession, account_id: str | None, cookies: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The games this browser (and, signed in, its account) holds a seat in."""
    from_cookies = await seats_of_sessions(session, held_sessions(cookies))
    from_account = await account_seats(session, account_id) if account_id else []
    return merge_seats(from_cookies, from_account)


async def bind_seats(
    session: AsyncSession, account_id: str, cookies: Mapping[str, str], now: datetime
) -> int:
    """Bind the seats behind the browser's game sessions to the account; how many were new.
    A seat handed over and now given back to this person (a new invite) is bound afresh."""
    held = await seats_of_sessions(session, held_sessions(cookies))
    rows = list(
        await session.scalars(select(AccountSeat).where(AccountSeat.account_id == account_id))
    )
    gone = await handed_over(session, rows)
    known = {(r.game_id, r.role, r.seat): r for r in rows}
    added = 0
    for seat in held:
        key = (seat["game_id"], seat["role"], seat["seat"])
        row = known.get(key)
        if row is not None:
            if row.id in gone:
                row.created_at = now
                added += 1
            continue
        row = AccountSeat(
            account_id=account_id,
            game_id=seat["game_id"],
            role=seat["role"],
            seat=seat["seat"],
            created_at=now,
        )
        session.add(row)
        known[key] = row
        added += 1
    return added


async def open_seat(
    session: AsyncSession, account_id: str, game_id: str, role: str, now: datetime
) -> tuple[str, str]:
    """A fresh per-game session for one of the account's seats on this device:
    (which cookie: player | director, its secret)."""
    seat = next((s for s in await live_seats(session, account_id, game_id) if s.role == role), None)
    if seat is None:
        raise not_found()
    is_player = seat.role == "player"
    secret = new_token(SESSION_PREFIX.rstrip("_"))
    if seat.role == "co_director":  # their own console session, as signing in gives them
        session.add(
            CoDirectorSessionRow(
                game_id=game_id,
                co_director_id=seat.seat,
                token_hash=hash_token(secret),
                created_at=now,
                revoked_at=None,
            )
        )
        return "director", secret
    session.add(
        WebSession(
            game_id=game_id,
            role="player" if is_player else seat.role,
            player_id=seat.seat if is_player else None,
            token_hash=hash_token(secret),
            created_at=now,
        )
    )
    return ("player" if is_player else "director"), secret


# --- the account and its session --------------------------------------------------------------
def new_account(session: AsyncSession, name: str, user_handle: str, now: datetime) -> Account:
    account = Account(id=new_id(), name=name, user_handle=user_handle, created_at=now)
    session.add(account)
    return account


async def start_session(
    session: AsyncSession, account_id: str, old_secret: str | None, now: datetime
) -> str:
    """A new account session (the secret for the cookie). The browser's previous one, if
    any, is revoked: a session is never carried across a sign-in (no fixation)."""
    if old_secret:
        await end_session(session, old_secret, now)
    secret = new_token(ACCOUNT_SESSION_PREFIX)
    session.add(
        AccountSession(account_id=account_id, token_hash=hash_token(secret), created_at=now)
    )
    return secret


async def end_session(session: AsyncSession, secret: str, now: datetime) -> None:
    await session.execute(
        update(AccountSession)
        .where(AccountSession.token_hash == hash_token(secret), AccountSession.revoked_at.is_(None))
        .values(revoked_at=now)
    )


async def signed_in(session: AsyncSession, secret: str | None) -> Account | None:
    """The account a browser's ``fp_a`` cookie signs in, if it is live."""
    if not secret or not secret.startswith(ACCOUNT_SESSION_PREFIX + "_"):
        return None
    return await session.scalar(
        select(Account)
        .join(AccountSession, AccountSession.account_id == Account.id)
        .where(AccountSession.token_hash == hash_token(secret), AccountSession.revoked_at.is_(None))
    )


async def require_account(session: AsyncSession, secret: str | None) -> Account:
    account = await signed_in(session, secret)
    if account is None:
        raise not_signed_in()
    return account


# --- recovery codes ---------------------------------------------------------------------------
def _recovery_code() -> str:
    raw = secrets.token_hex(8)
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def _normal(code: str) -> str:
    return "".join(ch for ch in code.lower() if ch.isalnum())


async def new_recovery_codes(session: AsyncSession, account_id: str) -> list[str]:
    """Fresh recovery codes (shown once); the account's earlier ones stop working."""
    await session.execute(delete(RecoveryCode).where(RecoveryCode.account_id == account_id))
    codes = [_recovery_code() for _ in range(RECOVERY_CODES)]
    for code in codes:
        session.add(RecoveryCode(account_id=account_id, code_hash=hash_token(_normal(code))))
    return codes


async def redeem_recovery_code(session: AsyncSession, code: str, now: datetime) -> Account:
    """Spend one recovery code: the account it belongs to (then add a new passkey)."""
    row = await session.scalar(
        select(RecoveryCode).where(
            RecoveryCode.code_hash == hash_token(_normal(code)), RecoveryCode.used_at.is_(None)
        )
    )
    if row is None:
        raise recovery_failed()
    row.used_at = now
    account = await session.get(Account, row.account_id)
    if account is None:
        raise recovery_failed()
    return account


async def recovery_codes_left(session: AsyncSession, account_id: str) -> int:
    rows = await session.scalars(
        select(RecoveryCode.id).where(
            RecoveryCode.account_id == account_id, RecoveryCode.used_at.is_(None)
        )
    )
    return len(rows.all())


# --- what the account page shows, its settings, deleting it -----------------------------------
async def describe(session: AsyncSession, account: Account) -> dict[str, Any]:
    passkeys = (
        await session.scalars(
            select(Passkey).where(Passkey.account_id == account.id).order_by(Passkey.id)
        )
    ).all()
    tokens = (
        await session.scalars(
            select(AccountToken)
            .where(AccountToken.account_id == account.id, AccountToken.revoked_at.is_(None))
            .order_by(AccountToken.created_at)
        )
    ).all()
    return {
        "id": account.id,
        "name": account.name,
        "share_record": account.share_record,
        "created_at": account.created_at,
        "passkeys": [
            {"id": p.id, "created_at": p.created_at, "last_used_at": p.last_used_at}
            for p in passkeys
        ],
        "tokens": [
            {"id": t.id, "name": t.name, "scopes": t.scopes, "created_at": t.created_at}
            for t in tokens
        ],
        "recovery_codes_left": await recovery_codes_left(session, account.id),
    }


def set_share_record(account: Account, share: bool) -> None:
    account.share_record = share


async def delete_account(session: AsyncSession, account: Account) -> None:
    """Delete the account and everything it holds; its seats stay in their games as plain
    seats (no game row is touched)."""
    for table in (
        AccountSeat,
        AccountSession,
        AccountToken,
        Passkey,
        RecoveryCode,
        PasskeyChallenge,
    ):
        await session.execute(delete(table).where(table.account_id == account.id))
    await session.delete(account)
