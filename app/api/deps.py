"""Request plumbing: the bearer token, the clock, and the one commit point (``run``)."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game
from app.services import idempotency
from app.services.auth import SESSION_PREFIX, Principal, principal_for
from app.services.games import load_game
from app.web.security import CSRF_HEADER, SAFE_METHODS, check_csrf, session_token_from_cookie

_bearer = HTTPBearer(auto_error=False, description="A director, player or admin token.")


def bearer_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The caller's credential: a bearer token, or else the browser's session cookie for
    the game in the path (a change made with the cookie must carry the CSRF token)."""
    if credentials:
        return credentials.credentials
    game_id = request.path_params.get("game_id")
    if not isinstance(game_id, str):
        return None
    cookie = session_token_from_cookie(request, game_id)
    if cookie is None or not cookie.startswith(SESSION_PREFIX):
        return None
    if request.method not in SAFE_METHODS:
        check_csrf(request, request.headers.get(CSRF_HEADER))
    return cookie


Token = Annotated[str | None, Depends(bearer_token)]


async def read_bearer_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """``bearer_token`` run on the event loop, for the hot reads (GET /view, /events):
    FastAPI runs a plain ``def`` dependency in a worker thread, a hand-off that cost a
    cached read about as much as the rest of it."""
    return bearer_token(request, credentials)


ReadToken = Annotated[str | None, Depends(read_bearer_token)]

GameAction = Callable[[AsyncSession, Game, Principal], Awaitable[Any]]
SessionAction = Callable[[AsyncSession], Awaitable[Any]]


async def run(
    request: Request,
    action: SessionAction,
    status_code: int = 200,
    token: str | None = None,
    idempotent: bool = False,
) -> JSONResponse:
    """Run ``action`` in one transaction and commit once. With an Idempotency-Key, the
    first response is stored in the same transaction and replayed on retries."""
    sessionmaker = request.app.state.sessionmaker
    key = request.headers.get("Idempotency-Key") if idempotent else None
    scope = idempotency.scope_for(token)
    method, path = request.method, request.url.path
    if key:
        # The key names one request: the same key with another body is refused, not replayed.
        path = f"{path}#{hashlib.sha256(await request.body()).hexdigest()[:32]}"
    for attempt in (1, 2):
        try:
            async with sessionmaker() as session, session.begin():
                if key:
                    found = await idempotency.lookup(session, scope, key, method, path)
                    if found is not None:
                        return JSONResponse(found.body["body"], status_code=found.status_code)
                body = jsonable_encoder(await action(session))
                if key:
                    now = request.app.state.clock.now()
                    idempotency.remember(session, scope, key, method, path, status_code, body, now)
            return JSONResponse(body, status_code=status_code)
        except IntegrityError:
            # A concurrent retry with the same key committed first: replay its answer.
            if not key or attempt == 2:
                raise
    raise AssertionError("unreachable")


async def run_game(
    request: Request,
    game_id: str,
    token: str | None,
    action: GameAction,
    lock: bool = True,
    status_code: int = 200,
    idempotent: bool = False,
) -> JSONResponse:
    """``run`` for one game: load (and lock) it, work out who the caller is, act."""
    admin_token = request.app.state.settings.admin_token

    async def inside(session: AsyncSession) -> Any:
        game = await load_game(session, game_id, lock=lock)
        principal = await principal_for(session, game, token, admin_token)
        return await action(session, game, principal)

    return await run(request, inside, status_code, token=token, idempotent=idempotent)


def now(request: Request) -> Any:
    return request.app.state.clock.now()


async def transact(request: Request, action: SessionAction) -> Any:
    """``run`` for callers that shape their own response (the web pages): one
    transaction, committed once, returning what ``action`` returned."""
    async with request.app.state.sessionmaker() as session, session.begin():
        return await action(session)


async def transact_game(
    request: Request, game_id: str, token: str | None, action: GameAction, lock: bool = True
) -> Any:
    """``run_game`` for the web pages: load (and lock) the game, resolve the caller, act."""
    admin_token = request.app.state.settings.admin_token

    async def inside(session: AsyncSession) -> Any:
        game = await load_game(session, game_id, lock=lock)
        principal = await principal_for(session, game, token, admin_token)
        return await action(session, game, principal)

    return await transact(request, inside)
