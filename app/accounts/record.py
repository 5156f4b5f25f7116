"""A player's record across games, computed from the games' own steps (never typed in):
games played, finished, dropped (their seat was handed to someone else), and the share of
deadlines they met with an order or "ready".

Only what a finished game's public archive already shows is counted for deadlines: a running
game's steps say who has ordered, which may be hidden until the end. A director sees the
record of a sign-up only when its account shares it (``Account.share_record``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.errors import record_not_shared
from app.accounts.models import Account, AccountSeat
from app.models import EventRow, Game, StepRow
from app.rules.base import STEP_DIRECTOR, STEP_ORDER, STEP_READY, STEP_REVISE, STEP_TIMER
from app.services.auth import Principal, require_director
from app.services.games import deadline_timer_kinds
from app.services.signup_models import SignupRow

_ACTS = frozenset({STEP_ORDER, STEP_REVISE, STEP_READY})


def _is_deadline(step: StepRow, timer_kinds: tuple[str, ...]) -> bool:
    if step.kind == STEP_TIMER:
        return str(step.payload.get("kind")) in timer_kinds
    return step.kind == STEP_DIRECTOR and step.payload.get("action") == "close_phase"


def deadlines_met(
    steps: list[StepRow], player_id: str, timer_kinds: tuple[str, ...]
) -> tuple[int, int]:
    """(deadlines met, deadlines) of one seat, from a game's steps in order; a deadline is
    a timer of the kinds its game declares (``deadline_timer_kinds``) or the director
    closing the phase."""
    met = total = 0
    acted = False
    for step in steps:
        if step.kind in _ACTS and step.actor_player_id == player_id:
            acted = True
        elif _is_deadline(step, timer_kinds):
            total += 1
            met += acted
            acted = False
    return met, total


async def account_record(session: AsyncSession, account_id: str) -> dict[str, Any]:
    seats = (
        await session.execute(
            select(AccountSeat, Game)
            .join(Game, Game.id == AccountSeat.game_id)
            .where(AccountSeat.account_id == account_id, AccountSeat.role == "player")
        )
    ).all()
    played = finished = dropped = met = total = 0
    for seat, game in seats:
        if game.status == "setup":
            continue
        played += 1
        replaced = await session.scalar(
            select(EventRow.seq)
            .where(
                EventRow.game_id == game.id,
                EventRow.kind == "player_replaced",
                EventRow.at >= seat.created_at,
            )
            .where(EventRow.data["player_id"].as_string() == seat.seat)
            .limit(1)
        )
        if replaced is not None:
            dropped += 1
            continue
        if game.status != "finished":
            continue
        finished += 1
        steps = (
            await session.scalars(
                select(StepRow).where(StepRow.game_id == game.id).order_by(StepRow.seq)
            )
        ).all()
        seat_met, seat_total = deadlines_met(list(steps), seat.seat, deadline_timer_kinds(game))
        met += seat_met
        total += seat_total
    return {
        "games_played": played,
        "games_finished": finished,
        "games_dropped": dropped,
        "deadlines": total,
        "deadlines_met": met,
        "deadlines_met_share": round(met / total, 3) if total else None,
    }


async def sign_up_record(
    session: AsyncSession, game: Game, principal: Principal, player_id: str
) -> dict[str, Any]:
    """For the director reviewing a sign-up: the record of the seat's account, if shared."""
    require_director(principal)
    account = await session.scalar(
        select(Account)
        .join(AccountSeat, AccountSeat.account_id == Account.id)
        .where(
            AccountSeat.game_id == game.id,
            AccountSeat.role == "player",
            AccountSeat.seat == player_id,
        )
    )
    if account is None:  # not a seat: a sign-up made by a signed-in account (pending, waiting)
        account = await session.scalar(
            select(Account)
            .join(SignupRow, SignupRow.account_id == Account.id)
            .where(SignupRow.game_id == game.id, SignupRow.id == player_id)
        )
    if account is None or not account.share_record:
        raise record_not_shared()
    return {
        "player_id": player_id,
        "name": account.name,
        **await account_record(session, account.id),
    }
