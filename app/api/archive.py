"""A finished game's archive: everything needed to re-verify it offline."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import CHECKED_IDS, run_game
from app.api.problems import problems
from app.models import Game
from app.services import archive as archive_service
from app.services.auth import Principal

router = APIRouter(prefix="/api/v1", tags=["games"], dependencies=CHECKED_IDS)


class Archive(BaseModel):
    """Check it with ``forumplay verify ARCHIVE.json`` (no server, no database)."""

    format: str = Field(description="`forumplay-archive/1`")
    game: dict[str, Any] = Field(description="id, ruleset, title, timezone, status, times")
    settings: dict[str, Any]
    seed: str
    seed_commitment: str
    players: list[dict[str, Any]] = Field(description="The roster: id, name, side")
    steps: list[dict[str, Any]] = Field(
        description="Every step in order: seq, kind, actor, payload, at, state_hash"
    )
    events: list[dict[str, Any]] = Field(
        description="The public events in order: step (null for service events), at, kind, "
        "data, audience, reveal_at"
    )


@router.get(
    "/games/{game_id}/archive", response_model=Archive, responses=problems(404, 409, 422, 503)
)
async def get_archive(request: Request, game_id: str) -> JSONResponse:
    """Once the game is finished (409 before): settings, public roster, steps, public
    events and the seed, to re-verify with no server."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await archive_service.build_archive(session, game)

    return await run_game(request, game_id, None, action, lock=False)
