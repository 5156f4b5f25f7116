"""The forum bridge and tallies (API.md "Text orders and the forum bridge"; issue 10)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import Token, now, run_game
from app.api.problems import GAME_ACTION, GAME_WRITE, problems
from app.api.publishing import OffsetSeconds, PostOut, Reminders, RemindersOut
from app.bridge import forums as bridge
from app.models import Game
from app.publish.channels.base import RemoteId
from app.rules.types import Identifier, Line
from app.services import publishing
from app.services.auth import Principal

router = APIRouter(prefix="/api/v1/games/{game_id}", tags=["forum"])


class ForumSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    channel_id: Identifier = Field(description="A misago or discourse channel of the game")
    thread_id: RemoteId | None = Field(
        None, description="The thread (topic) to read; default: the one the channel posts in"
    )
    read_orders: bool = Field(True, description="Read players' public orders from it")
    poll_seconds: Annotated[int, Field(ge=5, le=3600)] | None = Field(
        None,
        description=f"Misago: read the thread this often (default {bridge.DEFAULT_POLL_SECONDS})",
    )
    webhook_secret: Annotated[Line, Field(min_length=8, max_length=200)] | None = Field(
        None, description="Discourse: the Secret of the forum's webhook (stored sealed)"
    )


class ForumOut(BaseModel):
    channel_id: str
    kind: Literal["misago", "discourse"]
    thread_id: str | None
    read_orders: bool
    poll_seconds: int
    webhook_secret_set: bool
    last_read_at: str | None
    last_error: str | None


class WebhookOut(BaseModel):
    outcome: str = Field(description="orders, refused, withdrawn, linked, ignored, seen…")


@router.put("/forum", response_model=ForumOut, responses=GAME_WRITE)
async def put_forum(
    request: Request, game_id: str, body: ForumSettings, token: Token
) -> JSONResponse:
    """Read players' public orders from the game's forum thread (Misago or Discourse)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        changes = body.model_dump(exclude_unset=True) | {"channel_id": body.channel_id}
        changes.setdefault("read_orders", True)
        return await bridge.set_forum(session, game, principal, changes, now(request))

    return await run_game(request, game_id, token, action)


@router.get("/forum", response_model=ForumOut, responses=GAME_ACTION)
async def get_forum(request: Request, game_id: str, token: Token) -> JSONResponse:
    """The game's forum bridge: which thread is read, when last, and the last error."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await bridge.get_forum(session, game, principal)

    return await run_game(request, game_id, token, action, lock=False)


@router.post("/forum/discourse", response_model=WebhookOut, responses=problems(401, 404, 422, 503))
async def discourse_webhook(
    request: Request,
    game_id: str,
    x_discourse_event_signature: Annotated[str | None, Header()] = None,
    x_discourse_event: Annotated[str | None, Header()] = None,
) -> JSONResponse:
    """Discourse's webhook (post events), signed with the bridge's webhook_secret."""
    body = await request.body()
    reader = request.app.state.forum_reader
    outcome = await reader.discourse_event(
        game_id, body, x_discourse_event_signature, x_discourse_event
    )
    return JSONResponse({"outcome": outcome})


class Tally(Reminders):
    before_seconds: list[OffsetSeconds] = Field(max_length=10, examples=[[3600]])


@router.put("/tally", response_model=RemindersOut, responses=GAME_WRITE)
async def put_tally(request: Request, game_id: str, body: Tally, token: Token) -> JSONResponse:
    """Before each deadline, post who has ordered and who is ready ([] turns it off)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await publishing.set_tally(
            session, game, principal, body.before_seconds, body.channel_id, now(request)
        )

    return await run_game(request, game_id, token, action)


@router.get("/tally", response_model=RemindersOut, responses=GAME_ACTION)
async def get_tally(request: Request, game_id: str, token: Token) -> JSONResponse:
    """When tallies are posted, and where."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await publishing.get_tally(session, game, principal, now(request))

    return await run_game(request, game_id, token, action)


@router.post("/tally", status_code=201, response_model=PostOut, responses=GAME_ACTION)
async def post_tally(request: Request, game_id: str, token: Token) -> JSONResponse:
    """A tally post now: who has ordered and who is ready, names only, never contents."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await publishing.post_tally(session, game, principal, now(request))

    return await run_game(request, game_id, token, action, status_code=201)
