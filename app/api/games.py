"""Games, players, views, events, verification."""

from __future__ import annotations

import asyncio
from typing import Any, Union

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import CHECKED_IDS, GameAction, ReadToken, Token, now, run, run_game
from app.api.problems import GAME_ACTION, GAME_READ, GAME_WRITE, problems
from app.api.responses import (
    VIEW_MODELS,
    CreatedGame,
    CreatedPlayer,
    DeletedGame,
    Event,
    GameSummary,
    Verification,
)
from app.api.schemas import AddPlayer, CreateGame
from app.db import read_engine
from app.errors import AppError, not_found
from app.ids import could_be_id
from app.models import Game
from app.services import games as games_service
from app.services import read_cache
from app.services import verify as verify_service
from app.services.auth import Principal, is_admin, known_principal, principal_for
from app.services.games import load_game

# A scenario (512 KiB at most) escaped inside JSON, and the settings beside it.
MAX_CREATE_BODY = 4 * 1024 * 1024
router = APIRouter(prefix="/api/v1", tags=["games"], dependencies=CHECKED_IDS)
# The two reads every player and spectator repeats: matched before every other route and
# with one dependency less (the id is checked in ``cached_read``), since under load the
# framework's routing and dependency solving cost as much as the read itself.
reads = APIRouter(prefix="/api/v1", tags=["games"])
# GET /view answers one ruleset's view (or the setup view).
ViewResponse: Any = Union[VIEW_MODELS]  # noqa: UP007


@router.post(
    "/games",
    status_code=201,
    response_model=CreatedGame,
    responses=problems(400, 401, 403, 409, 413, 422, 503),
    max_body_size=MAX_CREATE_BODY,
)
async def create_game(request: Request, body: CreateGame, token: Token) -> JSONResponse:
    """Create a game; the caller becomes its director (the token is shown once)."""
    admin_token = request.app.state.settings.admin_token
    if admin_token and not is_admin(token, admin_token):
        # A wrong admin token is no token at all (401, as the contract says), not a valid
        # token that lacks a right (403).
        raise AppError(
            401,
            "admin_required",
            "创建游戏需要管理员令牌。",
            "Creating a game requires the admin token.",
        )

    # Reading a scenario is CPU work (YAML above all): off the event loop, before any
    # transaction is open.
    scenario = await asyncio.to_thread(games_service.parse_scenario, body.scenario)

    async def action(session: AsyncSession) -> Any:
        title = body.title or scenario.get("title") or body.ruleset
        settings = {**scenario.get("settings", {}), **body.settings}
        return await games_service.create_game(
            session, body.ruleset, str(title), settings, body.timezone, body.options, now(request)
        )

    return await run(request, action, 201, token=token, idempotent=True)


@router.get("/games/{game_id}", response_model=GameSummary, responses=problems(404, 422, 503))
async def get_game(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Public summary: ruleset, title, status, phase, deadline, seed commitment (a
    director's sandbox: its director's only)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await games_service.summary(session, game)

    if token:
        try:  # the token only matters for a sandbox (its director's alone)
            return await run_game(request, game_id, token, action, lock=False)
        except AppError as error:
            if error.status != 401:
                raise
    return await run_game(request, game_id, None, action, lock=False)


@router.delete("/games/{game_id}", response_model=DeletedGame, responses=GAME_ACTION)
async def delete_game(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Its director deletes a game in setup (everything of it; afterwards every address of
    the game answers 404) or archives a finished one (hidden from the lists, its pages,
    archive and verification kept); a game under way is refused (409 ``game_in_progress``)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await games_service.delete_game(session, game, principal, now(request))

    return await run_game(request, game_id, token, action)


@router.post(
    "/games/{game_id}/players", status_code=201, response_model=CreatedPlayer, responses=GAME_WRITE
)
async def add_player(request: Request, game_id: str, body: AddPlayer, token: Token) -> JSONResponse:
    """Add a player (director, during setup); the player's token is shown once."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await games_service.add_player(
            session, game, principal, body.name, body.side, now(request), body.forum_name
        )

    return await run_game(request, game_id, token, action, status_code=201, idempotent=True)


@router.post("/games/{game_id}/start", response_model=GameSummary, responses=GAME_ACTION)
async def start_game(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Leave setup: start the first phase and its deadline."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await games_service.start_game(session, game, principal, now(request))

    return await run_game(request, game_id, token, action)


@reads.get("/games/{game_id}/view", response_model=ViewResponse, responses=GAME_READ)
async def get_view(request: Request, game_id: str, token: ReadToken) -> Response:
    """What the caller may see now (director: everything; player: their view; else public).
    Carries an ``ETag``: send it back in ``If-None-Match`` to get ``304`` while unchanged."""

    async def build(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await games_service.view(session, game, principal)

    return await cached_read(request, game_id, token, ("view",), build)


@reads.get("/games/{game_id}/events", response_model=list[Event], responses=GAME_READ)
async def get_events(
    request: Request,
    game_id: str,
    token: ReadToken,
    after: int = Query(0, ge=0, le=2**62, description="Only events numbered above this"),
    limit: int = Query(500, ge=1, le=5000),
) -> Response:
    """Events visible to the caller, in order, paged by ``after``. Carries an ``ETag``
    (``If-None-Match`` → ``304`` while there is nothing new)."""

    async def build(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await games_service.events(session, game, principal, after, limit)

    return await cached_read(request, game_id, token, ("events", str(after), str(limit)), build)


async def cached_read(
    request: Request, game_id: str, token: str | None, what: tuple[str, ...], build: GameAction
) -> Response:
    """A read answered from this process's cache when the game is at the version the
    cached answer was built from (read_cache explains why that is never stale), else
    built, kept and answered; ``304`` when the client already has it."""
    if not could_be_id(game_id):
        raise not_found()  # as ``known_ids`` does for every other route
    cache = read_cache.CACHE
    admin_token = request.app.state.settings.admin_token
    async with read_engine(request.app.state.engine).connect() as conn:
        head = await read_cache.read_head(conn, game_id)
        principal = known_principal(head, token, admin_token)
        found = None
        if principal is not None:  # the common case: one SELECT, nothing else
            found = cache.get((game_id, read_cache.audience_of(principal), *what), head.version)
        if found is None:
            async with request.app.state.sessionmaker(bind=conn) as session:
                if principal is None:
                    principal = await principal_for(session, head, token, admin_token)
                key = (game_id, read_cache.audience_of(principal), *what)
                found = cache.get(key, head.version)
                if found is None:
                    game = await load_game(session, game_id)
                    body = await build(session, game, principal)
                    found = read_cache.answer(read_cache.version_of(game), body)
                    cache.put(key, found)
    headers = {"ETag": found.etag}
    if read_cache.etag_matches(request.headers.get("if-none-match"), found.etag):
        return Response(status_code=304, headers=headers)
    return Response(found.body, media_type="application/json", headers=headers)


@router.get(
    "/games/{game_id}/verify", response_model=Verification, responses=problems(404, 409, 422, 503)
)
async def verify_game(request: Request, game_id: str) -> JSONResponse:
    """Re-run the game from its revealed seed and recorded orders; compare every event.
    Computed once per game and step count, and shared by callers asking at once."""
    return JSONResponse(await verify_service.verify(request.app.state.sessionmaker, game_id))
