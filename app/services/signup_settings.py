"""Sign-up settings (``PUT /games/{id}/signup``): every option a named setting, and the
closing time as a durable timer like any deadline (run by ``app/scheduler.py`` in any
status of the game, like the publishing and forum timers)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import conflict
from app.models import AuditRow, Game, Timer
from app.services.auth import Principal, require_director
from app.services.backups import offer_expired
from app.services.games import audit
from app.services.seats import CLOSE_TIMER, OFFER_TIMER, SIGNUP_TIMER_KINDS
from app.services.signup_models import SignupSettingsRow
from app.services.signups import promote, public_list, settings_row

TIMER_KIND = CLOSE_TIMER
TIMER_KINDS = SIGNUP_TIMER_KINDS


class SignupSettings(BaseModel):
    """``PUT /games/{id}/signup``: every option a named setting."""

    model_config = {"extra": "forbid"}

    open: bool = Field(True, description="Whether sign-ups are open.")
    max_players: int | None = Field(
        None, ge=1, le=1000, description="Seats; null: as many as the game takes."
    )
    min_players: int | None = Field(
        None, ge=1, le=1000, description="Fewest players to start with (beyond the game's own)."
    )
    waitlist: bool = Field(True, description="Sign-ups past the seats wait as backups.")
    max_waitlist: int = Field(
        50, ge=0, le=500, description="Most sign-ups waiting (waitlist and pending) at once."
    )
    approval: Literal["auto", "director"] = Field(
        "auto", description="'auto': a seat at once; 'director': the director approves each."
    )
    closes_at: AwareDatetime | None = Field(None, description="When sign-ups close by themselves.")
    listed: bool | None = Field(
        None, description="Listed on the home page; null: listed while sign-ups are open."
    )
    offer_seconds: int = Field(
        86400,
        ge=60,
        le=30 * 86400,
        description="After the start, how long a seat offered to a backup waits for them "
        "to accept before it passes to the next.",
    )
    side_assignment: Literal["preference", "seed"] = Field(
        "preference",
        description="At the start: sides balanced from the players' wishes, or drawn from "
        "the game's seed (games with sides).",
    )


async def put_settings(
    session: AsyncSession, game: Game, principal: Principal, body: SignupSettings, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    if game.status != "setup":
        raise conflict(
            "not_in_setup", "游戏已开始，报名设置不能再改。", "Sign-ups are set during setup only."
        )
    row = await settings_row(session, game.id)
    if row is None:
        row = SignupSettingsRow(game_id=game.id)
        session.add(row)
    row.open = body.open
    row.max_players = body.max_players
    row.min_players = body.min_players
    row.waitlist = body.waitlist
    row.max_waitlist = body.max_waitlist
    row.approval = body.approval
    row.closes_at = body.closes_at
    row.listed = body.listed
    row.side_assignment = body.side_assignment
    row.offer_seconds = body.offer_seconds
    row.updated_at = now
    await _aim_close_timer(session, game, row, now)
    await session.flush()
    await promote(session, game, now)
    audit(session, game, principal, "signup_settings", body.model_dump(mode="json"), now)
    return await public_list(session, game, now)


async def _aim_close_timer(
    session: AsyncSession, game: Game, row: SignupSettingsRow, now: datetime
) -> None:
    """The closing time is a durable timer like any deadline (``app/scheduler.py``)."""
    timer = await session.scalar(
        select(Timer).where(Timer.game_id == game.id, Timer.kind == TIMER_KIND)
    )
    wanted = row.open and row.closes_at is not None
    if timer is None:
        if not wanted:
            return
        timer = Timer(game_id=game.id, kind=TIMER_KIND, key="close", created_at=now, data={})
        session.add(timer)
    timer.extensions = 0
    timer.data = {}
    timer.remaining_seconds = None
    timer.due_at = row.closes_at if wanted else None
    timer.done_at = None if wanted else now


async def run_timer(session: AsyncSession, game: Game, timer: Timer, now: datetime) -> None:
    """The closing time came: sign-ups close (the list stays as it is). Or a backup's
    offer ran out (``backups.offer_expired``)."""
    if timer.kind == OFFER_TIMER:
        await offer_expired(session, game, timer, now)
        return
    timer.done_at = now
    row = await settings_row(session, game.id)
    if row is not None and row.open and game.status == "setup":
        row.open = False
        row.updated_at = now
        payload = {"at": now.isoformat()}
        session.add(
            AuditRow(
                game_id=game.id, actor="system", action="signup_closed", payload=payload, at=now
            )
        )


class ListingBody(BaseModel):
    """``PUT /games/{id}/listing``: whether the home page lists the game (any status)."""

    model_config = {"extra": "forbid"}

    listed: bool | None = Field(description="true / false; null: listed while sign-ups are open.")


async def set_listed(
    session: AsyncSession, game: Game, principal: Principal, listed: bool | None, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    row = await settings_row(session, game.id)
    if row is None:  # a game without sign-ups: listed, or not, and nothing else
        row = SignupSettingsRow(
            game_id=game.id,
            open=False,
            max_players=None,
            min_players=None,
            waitlist=True,
            max_waitlist=50,
            approval="auto",
            closes_at=None,
            side_assignment="preference",
            offer_seconds=86400,
        )
        session.add(row)
    row.listed = listed
    row.updated_at = now
    await session.flush()
    audit(session, game, principal, "listing", {"listed": listed}, now)
    return await public_list(session, game, now)
