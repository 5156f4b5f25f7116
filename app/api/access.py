"""Who may play a seat: invite links, replacing a player, revoking sessions (director)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import CHECKED_IDS, Token, now, run_game
from app.api.problems import GAME_ACTION
from app.models import Game
from app.services import sessions as sessions_service
from app.services.auth import Principal

router = APIRouter(
    prefix="/api/v1/games/{game_id}/players/{player_id}", tags=["players"], dependencies=CHECKED_IDS
)


class InviteLink(BaseModel):
    """A one-time invite: the player opens it and confirms to sign this browser in."""

    url: str = Field(description="Relative: /join/<code>. Shown once; a new one revokes it.")
    player_id: str


class ReplacedPlayer(BaseModel):
    """The seat's new credentials (shown once); the old token and sessions are void."""

    id: str
    name: str
    side: str | None
    token: str
    url: str = Field(description="A fresh invite link for the new player.")
    revoked_sessions: int


class RevokedSessions(BaseModel):
    player_id: str
    revoked_sessions: int


@router.post("/invite", status_code=201, response_model=InviteLink, responses=GAME_ACTION)
async def invite(request: Request, game_id: str, player_id: str, token: Token) -> JSONResponse:
    """A one-time invite link for the player (their unused one stops working)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await sessions_service.create_invite(
            session, game, principal, player_id, now(request)
        )

    return await run_game(request, game_id, token, action, status_code=201)


@router.post("/replace", response_model=ReplacedPlayer, responses=GAME_ACTION)
async def replace(request: Request, game_id: str, player_id: str, token: Token) -> JSONResponse:
    """A new person takes the seat: old token and sessions stop; a new token and invite."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await sessions_service.replace_player(
            session, game, principal, player_id, now(request)
        )

    return await run_game(request, game_id, token, action)


@router.post("/revoke-sessions", response_model=RevokedSessions, responses=GAME_ACTION)
async def revoke_sessions(
    request: Request, game_id: str, player_id: str, token: Token
) -> JSONResponse:
    """Sign the player out of every browser and void their unused invite."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await sessions_service.revoke_player_sessions(
            session, game, principal, player_id, now(request)
        )

    return await run_game(request, game_id, token, action)
