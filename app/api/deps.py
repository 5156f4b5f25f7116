"""Request plumbing: the bearer token, the clock, and the one commit point (``run``)."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.api.security import (
    CSRF_HEADER,
    SAFE_METHODS,
    check_csrf,
    director_token_from_cookie,
    session_token_from_cookie,
)
from app.db import read_transactions
from app.errors import not_found
from app.models import Game
from app.services import idempotency
from app.services.auth import SESSION_PREFIX, Principal, could_be_id, principal_for
from app.services.codirectors import refuse_review_only
from app.services.games import load_game

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
    # A browser may hold both a player's and the director's session of one game; the
    # console asks for the director's (its stream: ``?as=director``).
    player = session_token_from_cookie(request, game_id)
    director = director_token_from_cookie(request, game_id)
    if request.query_params.get("as") == "director":
        cookie = director or player
    else:
        cookie = player or director
    if cookie is None or not cookie.startswith(SESSION_PREFIX):
        return None
    if request.method not in SAFE_METHODS:
        check_csrf(request, request.headers.get(CSRF_HEADER))
    return cookie


Token = Annotated[str | None, Depends(bearer_token)]


async def known_ids(request: Request) -> None:
    """A path id this service could never have made (``could_be_id``) names nothing: 404
    before the database is asked (a NUL byte would make PostgreSQL fail the query)."""
    for name, value in request.path_params.items():
        if name.endswith("_id") and not could_be_id(str(value)):
            raise not_found() if name == "game_id" else not_found("对象", "thing")


# Every router with ids in its paths checks them first.
CHECKED_IDS = [Depends(known_ids)]


async def read_bearer_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """``bearer_token`` run on the event loop, for the hot reads (GET /view, /events):
    FastAPI runs a plain ``def`` dependency in a worker thread, a hand-off that cost a
    cached read about as much as the rest of it, and an order at 16 clients a third of its
    CPU. (POST /orders uses it too, since the batcher forgets a finished worker in the step
    it finishes: see ``OrderBatcher._drain``.)"""
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
    read_only: bool = False,
) -> JSONResponse:
    """Run ``action`` in one transaction and commit once. With an Idempotency-Key, the key
    is claimed first and the answer stored in the action's transaction; concurrent retries
    wait for it and replay it (``app/services/idempotency.py``). ``read_only``: the action
    writes nothing, and its transaction takes no write lock (``app.db.read_transactions``)."""
    sessionmaker = request.app.state.sessionmaker
    header = request.headers.get("Idempotency-Key") if idempotent else None
    key = idempotency.checked_key(header, token)
    if key is None or token is None:
        async with _session(request, read_only) as session, session.begin():
            body = jsonable_encoder(await action(session))
        return JSONResponse(body, status_code=status_code)
    scope = idempotency.scope_for(token)
    # The key names one request: the same key with another body is refused, not replayed.
    digest = hashlib.sha256(await request.body()).hexdigest()[:32]
    method, path = request.method, f"{request.url.path}#{digest}"
    now = request.app.state.clock.now()
    claim = await idempotency.claim(sessionmaker, scope, key, method, path, now)
    if claim.row_id is None:
        return JSONResponse(claim.body, status_code=claim.status_code)
    try:
        async with sessionmaker() as session, session.begin():
            body = jsonable_encoder(await action(session))
            await idempotency.remember(session, claim.row_id, status_code, body)
    except BaseException:
        with contextlib.suppress(Exception):  # else it goes stale and is taken over
            await idempotency.release(sessionmaker, claim.row_id)
        raise
    return JSONResponse(body, status_code=status_code)


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
        refuse_review_only(principal, request.method, request.url.path)
        return await action(session, game, principal)

    return await run(
        request, inside, status_code, token=token, idempotent=idempotent, read_only=not lock
    )


def now(request: Request) -> Any:
    return request.app.state.clock.now()


async def transact(request: Request, action: SessionAction, read_only: bool = False) -> Any:
    """``run`` for callers that shape their own response (the web pages): one
    transaction, committed once, returning what ``action`` returned."""
    async with _session(request, read_only) as session, session.begin():
        return await action(session)


def _session(request: Request, read_only: bool) -> AsyncSession:
    """A session; a read-only one on the engine whose transactions take no write lock
    (issue 16 item 28: polling readers starved the writers on SQLite)."""
    sessionmaker: async_sessionmaker[AsyncSession] = request.app.state.sessionmaker
    if not read_only:
        return sessionmaker()
    return sessionmaker(bind=read_transactions(request.app.state.engine))


async def transact_game(
    request: Request, game_id: str, token: str | None, action: GameAction, lock: bool = True
) -> Any:
    """``run_game`` for the web pages: load (and lock) the game, resolve the caller, act."""
    admin_token = request.app.state.settings.admin_token

    async def inside(session: AsyncSession) -> Any:
        game = await load_game(session, game_id, lock=lock)
        principal = await principal_for(session, game, token, admin_token)
        refuse_review_only(principal, request.method, request.url.path)
        return await action(session, game, principal)

    return await transact(request, inside, read_only=not lock)
