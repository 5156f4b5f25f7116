"""Sign-ups, backups and co-directors (API: "Sign-ups")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import CHECKED_IDS, Token, now, run, run_game
from app.api.problems import problems
from app.api.signup_schemas import (
    CoDirector,
    CreatedSignup,
    DroppedSeat,
    PostedList,
    Signup,
    SignupList,
    WithdrawnSignup,
)
from app.models import Game
from app.services import backups, codirectors, signup_posts, signup_settings
from app.services import signups as service
from app.services.auth import Principal
from app.services.games import load_game

router = APIRouter(prefix="/api/v1", tags=["sign-ups"], dependencies=CHECKED_IDS)
# Every status any of these routes may answer (a sign-up's own routes read any token).
SIGNUP_ANY = problems(400, 401, 403, 404, 409, 413, 422, 429, 503)


class SideBody(BaseModel):
    model_config = {"extra": "forbid"}

    side: str | None = Field(None, max_length=16)


class CoDirectorBody(BaseModel):
    model_config = {"extra": "forbid"}

    name: str = Field(min_length=1, max_length=100)
    scope: str = Field("all", pattern="^(all|review)$")


def address(request: Request) -> str | None:
    return request.client.host if request.client else None


async def _as_signup(request: Request, game_id: str, token: str | None, act: Any) -> JSONResponse:
    """A sign-up's own route: its token (not yet a player's, while waiting) or the
    director's; the service tells them apart (``signups.caller``)."""
    admin = request.app.state.settings.admin_token

    async def inside(session: AsyncSession) -> Any:
        game = await load_game(session, game_id, lock=True)
        return await act(session, game, admin)

    return await run(request, inside, token=token)


@router.put("/games/{game_id}/signup", response_model=SignupList, responses=SIGNUP_ANY)
async def put_signup(
    request: Request, game_id: str, body: signup_settings.SignupSettings, token: Token
) -> JSONResponse:
    """Open (or close, or change) sign-ups; answers the list as ``GET`` does."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await signup_settings.put_settings(session, game, principal, body, now(request))

    return await run_game(request, game_id, token, action)


@router.put("/games/{game_id}/listing", response_model=SignupList, responses=SIGNUP_ANY)
async def put_listing(
    request: Request, game_id: str, body: signup_settings.ListingBody, token: Token
) -> JSONResponse:
    """Whether the home page lists the game (any status; default: while sign-ups are open)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await signup_settings.set_listed(session, game, principal, body.listed, now(request))

    return await run_game(request, game_id, token, action)


@router.get("/games/{game_id}/signup", response_model=SignupList, responses=SIGNUP_ANY)
async def get_signup(request: Request, game_id: str) -> JSONResponse:
    """The list, names only: seats, waitlist, open or closed, how many are still wanted."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.public_list(session, game, now(request))

    return await run_game(request, game_id, None, action, lock=False)


@router.post(
    "/games/{game_id}/signup/post",
    response_model=PostedList,
    status_code=201,
    responses=SIGNUP_ANY,
)
async def post_signup_list(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Publish the list in the game's channels (a ``signup_list`` post)."""
    base = str(request.base_url)

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await signup_posts.publish_list(session, game, principal, base, now(request))

    return await run_game(request, game_id, token, action, status_code=201)


@router.post(
    "/games/{game_id}/signups",
    response_model=CreatedSignup,
    status_code=201,
    responses=SIGNUP_ANY,
)
async def sign_up(request: Request, game_id: str, body: service.SignupBody) -> JSONResponse:
    """Sign up: 201 ``{"id", "status": "player" | "waitlist" | "pending", "token"}``; the
    token is shown once and is the seat's player token. With an ``Idempotency-Key``, a
    retry answers the first sign-up again."""

    async def inside(session: AsyncSession) -> Any:
        game = await load_game(session, game_id, lock=True)
        return await service.sign_up(session, game, body, now(request), address(request))

    # No token yet: an Idempotency-Key is kept per game and address (a phone retrying a
    # sign-up it never saw answered gets its token back, and no second sign-up).
    caller = f"signup:{game_id}:{address(request)}"
    return await run(request, inside, 201, token=caller, idempotent=True)


@router.get("/games/{game_id}/signups", response_model=list[Signup], responses=SIGNUP_ANY)
async def list_signups(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Every sign-up with its id and status (director)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.director_list(session, game, principal)

    return await run_game(request, game_id, token, action, lock=False)


@router.get("/games/{game_id}/signups/{signup_id}", response_model=Signup, responses=SIGNUP_ANY)
async def get_one(request: Request, game_id: str, signup_id: str, token: Token) -> JSONResponse:
    """A sign-up's status and waitlist place (its token, or the director)."""

    async def act(session: AsyncSession, game: Game, admin: str | None) -> Any:
        return await service.my_signup(session, game, signup_id, token, admin)

    return await _as_signup(request, game_id, token, act)


@router.delete(
    "/games/{game_id}/signups/{signup_id}", response_model=WithdrawnSignup, responses=SIGNUP_ANY
)
async def withdraw(request: Request, game_id: str, signup_id: str, token: Token) -> JSONResponse:
    """Withdraw (its token, or the director): before the start the first on the waitlist
    moves up; after it, the seat passes to the first backup who accepts."""

    async def act(session: AsyncSession, game: Game, admin: str | None) -> Any:
        return await backups.withdraw(session, game, signup_id, token, admin, now(request))

    return await _as_signup(request, game_id, token, act)


@router.post(
    "/games/{game_id}/signups/{signup_id}/accept", response_model=Signup, responses=SIGNUP_ANY
)
async def accept(request: Request, game_id: str, signup_id: str, token: Token) -> JSONResponse:
    """A backup takes the seat offered to them; their sign-up token now plays it."""

    async def act(session: AsyncSession, game: Game, admin: str | None) -> Any:
        return await backups.accept(session, game, signup_id, token, admin, now(request))

    return await _as_signup(request, game_id, token, act)


@router.post(
    "/games/{game_id}/signups/{signup_id}/decline", response_model=Signup, responses=SIGNUP_ANY
)
async def decline(request: Request, game_id: str, signup_id: str, token: Token) -> JSONResponse:
    """A backup declines the seat offered; it is offered to the next."""

    async def act(session: AsyncSession, game: Game, admin: str | None) -> Any:
        return await backups.decline(session, game, signup_id, token, admin, now(request))

    return await _as_signup(request, game_id, token, act)


@router.post(
    "/games/{game_id}/signups/{signup_id}/approve", response_model=Signup, responses=SIGNUP_ANY
)
async def approve(request: Request, game_id: str, signup_id: str, token: Token) -> JSONResponse:
    """Approve a pending sign-up (approval by the director): a seat, else the waitlist."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.decide(session, game, principal, signup_id, True, now(request))

    return await run_game(request, game_id, token, action)


@router.post(
    "/games/{game_id}/signups/{signup_id}/reject", response_model=Signup, responses=SIGNUP_ANY
)
async def reject(request: Request, game_id: str, signup_id: str, token: Token) -> JSONResponse:
    """Reject a pending sign-up."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.decide(session, game, principal, signup_id, False, now(request))

    return await run_game(request, game_id, token, action)


@router.patch("/games/{game_id}/signups/{signup_id}", response_model=Signup, responses=SIGNUP_ANY)
async def set_side(
    request: Request, game_id: str, signup_id: str, body: SideBody, token: Token
) -> JSONResponse:
    """The director sets a seat's side before the start (the start keeps it)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.set_side(session, game, principal, signup_id, body.side, now(request))

    return await run_game(request, game_id, token, action)


@router.post(
    "/games/{game_id}/players/{player_id}/drop", response_model=DroppedSeat, responses=SIGNUP_ANY
)
async def drop(request: Request, game_id: str, player_id: str, token: Token) -> JSONResponse:
    """After the start: the director removes a player; the seat goes to a backup."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await backups.remove_player(session, game, principal, player_id, now(request))

    return await run_game(request, game_id, token, action)


@router.post(
    "/games/{game_id}/directors", response_model=CoDirector, status_code=201, responses=SIGNUP_ANY
)
async def add_co_director(
    request: Request, game_id: str, body: CoDirectorBody, token: Token
) -> JSONResponse:
    """Invite a co-director: 201 ``{"id", "token", "scope"}`` (the token is shown once)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await codirectors.invite(
            session, game, principal, body.name, body.scope, now(request)
        )

    return await run_game(request, game_id, token, action, status_code=201)


@router.get("/games/{game_id}/directors", response_model=list[CoDirector], responses=SIGNUP_ANY)
async def list_co_directors(request: Request, game_id: str, token: Token) -> JSONResponse:
    """The game's co-directors (no tokens)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await codirectors.list_all(session, game, principal)

    return await run_game(request, game_id, token, action, lock=False)


@router.delete(
    "/games/{game_id}/directors/{director_id}", response_model=CoDirector, responses=SIGNUP_ANY
)
async def revoke_co_director(
    request: Request, game_id: str, director_id: str, token: Token
) -> JSONResponse:
    """Revoke a co-director: their token stops working at once."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await codirectors.revoke(session, game, principal, director_id, now(request))

    return await run_game(request, game_id, token, action)
