"""A director's safety net: undo resolutions in public, fork a private sandbox."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import CHECKED_IDS, Token, now, run_game
from app.api.problems import GAME_WRITE
from app.api.responses import GameSummary
from app.models import Game
from app.rules.types import Seconds
from app.services.auth import Principal
from app.services.safety import sandbox as sandbox_service
from app.services.safety import undo as undo_service

router = APIRouter(prefix="/api/v1/games/{game_id}", tags=["director"], dependencies=CHECKED_IDS)

DRY_RUN = Query(False, description="Answer what it would do and change nothing.")


class UndoBody(BaseModel):
    model_config = {"extra": "forbid"}

    steps: int = Field(1, ge=1, le=undo_service.MAX_STEPS, description="How many resolutions")
    reason: str = Field(
        "", max_length=undo_service.MAX_REASON, description="Why (public, required)"
    )
    deadline_seconds: Seconds | None = Field(
        None, description="The phase's new deadline from now (default: the time it had left)"
    )


class UndoDone(GameSummary):
    """The game's summary after the undo (or, with ``dry_run``, as it stays), and the undo."""

    dry_run: bool
    undo: dict[str, Any] = Field(
        description="The steps undone, the step the game went back to, the new deadline, "
        "the receipts superseded, the undo count and limit."
    )


@router.post("/undo", response_model=UndoDone, responses=GAME_WRITE)
async def undo(
    request: Request, game_id: str, body: UndoBody, token: Token, dry_run: bool = DRY_RUN
) -> JSONResponse:
    """Undo the last ``steps`` resolutions, in public: the state goes back to before them,
    the orders they consumed are pending again, the undone steps stay in the log marked
    undone. ``?dry_run=true`` answers what would be undone and changes nothing."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await undo_service.undo(
            session, game, principal, body.model_dump(), now(request), dry_run=dry_run
        )

    return await run_game(request, game_id, token, action, idempotent=True)


class ForkBody(BaseModel):
    model_config = {"extra": "forbid"}

    at_step: int | None = Field(
        None, ge=1, description="Fork just after this step (default: the game as it is now)"
    )


class Forked(BaseModel):
    """A new private sandbox: its director token (and its players' tokens, so the director
    can act as any of them) are shown this once."""

    id: str
    director_token: str
    sandbox: bool
    forked_from: str
    at_step: int
    seed_commitment: str
    players: list[dict[str, Any]] = Field(description="id, name, side, token of each player")


@router.post("/fork", status_code=201, response_model=Forked, responses=GAME_WRITE)
async def fork(request: Request, game_id: str, body: ForkBody, token: Token) -> JSONResponse:
    """Fork the game at its current step (or ``at_step``) into a private sandbox: same
    settings and roster, a new seed, no channels; the original is not touched."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await sandbox_service.fork(session, game, principal, body.model_dump(), now(request))

    return await run_game(request, game_id, token, action, status_code=201, idempotent=True)
