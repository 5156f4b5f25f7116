"""The director's tools."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.bodies import DirectorActionBody
from app.api.deps import CHECKED_IDS, Token, now, run_game
from app.api.problems import GAME_ACTION, GAME_WRITE, problems
from app.api.responses import Advanced, AuditEntry, DirectorActionDone, GameSummary, TimerEntry
from app.api.schemas import ExtendDeadline
from app.models import Game
from app.services import director as director_service
from app.services.auth import Principal

router = APIRouter(prefix="/api/v1/games/{game_id}", tags=["director"], dependencies=CHECKED_IDS)
_DIRECTOR_READ = problems(401, 403, 404, 422, 503)


DRY_RUN = Query(False, description="Answer what it would do and change nothing.")


@router.post("/advance", response_model=Advanced, responses=GAME_ACTION)
async def advance(
    request: Request, game_id: str, token: Token, dry_run: bool = DRY_RUN
) -> JSONResponse:
    """Close the current phase now (run the game's next due timer now). ``?dry_run=true``:
    say which timer it would run, run nothing."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await director_service.advance(session, game, principal, now(request), dry_run)

    return await run_game(request, game_id, token, action)


@router.post("/advance-to-midnight", response_model=Advanced, responses=GAME_ACTION)
async def advance_to_midnight(
    request: Request, game_id: str, token: Token, dry_run: bool = DRY_RUN
) -> JSONResponse:
    """For a game with a daily 24:00 settlement: run every pending timer up to and including
    the next 24:00, in order (``advanced.timers`` lists them); 409 for a game without one.
    ``?dry_run=true``: list the timers it would run, run nothing."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await director_service.advance_to_midnight(
            session, game, principal, now(request), dry_run
        )

    return await run_game(request, game_id, token, action)


@router.post("/pause", response_model=GameSummary, responses=GAME_ACTION)
async def pause(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Stop all of the game's clocks (remaining time is kept)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await director_service.pause(session, game, principal, now(request))

    return await run_game(request, game_id, token, action)


@router.post("/resume", response_model=GameSummary, responses=GAME_ACTION)
async def resume(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Restart the game's clocks with the time they had left."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await director_service.resume(session, game, principal, now(request))

    return await run_game(request, game_id, token, action)


@router.post("/deadline", response_model=GameSummary, responses=GAME_WRITE)
async def extend_deadline(
    request: Request, game_id: str, body: ExtendDeadline, token: Token
) -> JSONResponse:
    """Extend a deadline (capped by the game's max_extensions_per_deadline)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await director_service.extend_deadline(
            session, game, principal, body.seconds, body.kind, body.key, now(request)
        )

    return await run_game(request, game_id, token, action)


@router.post("/director/actions", response_model=DirectorActionDone, responses=GAME_WRITE)
async def director_action(
    request: Request,
    game_id: str,
    token: Token,
    body: Annotated[
        DirectorActionBody,
        Body(
            examples=[{"action": "set_morale", "side": "A", "morale": 10}],
            description="A director's tool of the game's ruleset, by its `action`.",
        ),
    ],
    dry_run: bool = DRY_RUN,
) -> JSONResponse:
    """Edit the game as the rules' referee (each edit is an audited event). ``?dry_run=true``:
    say what the action would cause (its events, whether it ends the game), change nothing."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await director_service.director_action(
            session, game, principal, body, now(request), dry_run
        )

    return await run_game(request, game_id, token, action)


@router.get("/audit", response_model=list[AuditEntry], responses=_DIRECTOR_READ)
async def audit(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Every director action on this game, oldest first."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await director_service.audit_log(session, game, principal)

    return await run_game(request, game_id, token, action, lock=False)


@router.get("/timers", response_model=list[TimerEntry], responses=_DIRECTOR_READ)
async def timers(request: Request, game_id: str, token: Token) -> JSONResponse:
    """The game's pending deadlines."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await director_service.timers(session, game, principal)

    return await run_game(request, game_id, token, action, lock=False)
