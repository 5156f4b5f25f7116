"""What the sign-up page (``/g/{id}/signup``) shows and does beyond the API's services:
the list, the browser's own sign-up (read with the token its cookie holds), and a player
session for a seat taken, so the new player lands signed in on their page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game, WebSession
from app.services.auth import SESSION_PREFIX, hash_token, new_token
from app.services.signup_models import SignupRow
from app.services.signups import active_signups, public_list, signup_json


async def signup_page(
    session: AsyncSession, game: Game, token: str | None, now: datetime
) -> dict[str, Any]:
    mine = None
    if token:
        row = await session.scalar(
            select(SignupRow).where(
                SignupRow.game_id == game.id, SignupRow.token_hash == hash_token(token)
            )
        )
        if row is not None:
            waiting = [
                s
                for s in await active_signups(session, game.id)
                if s.status in ("waitlist", "offered")
            ]
            place = next((i + 1 for i, s in enumerate(waiting) if s.id == row.id), None)
            mine = {**signup_json(row), "waitlist_place": place}
    return {
        "game": {
            "id": game.id,
            "title": game.title,
            "ruleset": game.ruleset,
            "status": game.status,
            "timezone": game.timezone,
        },
        "list": await public_list(session, game, now),
        "mine": mine,
    }


async def signup_id_for(session: AsyncSession, game: Game, token: str | None) -> str | None:
    if not token:
        return None
    return await session.scalar(
        select(SignupRow.id).where(
            SignupRow.game_id == game.id, SignupRow.token_hash == hash_token(token)
        )
    )


def seat_session(session: AsyncSession, game: Game, player_id: str, now: datetime) -> str:
    """A browser session for the seat just taken (its secret goes in the cookie)."""
    secret = new_token(SESSION_PREFIX.rstrip("_"))
    session.add(
        WebSession(
            game_id=game.id,
            role="player",
            player_id=player_id,
            token_hash=hash_token(secret),
            created_at=now,
        )
    )
    return secret
