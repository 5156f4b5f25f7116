"""Chat bots (API.md "Chat bots"): the server-wide registry (admin), a game's bots
(director), link codes (player or director), and the platforms' inbound routes."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import CHECKED_IDS, Token, now, run, run_game
from app.api.problems import GAME_ACTION, GAME_WRITE, problems
from app.chat import bots, links
from app.errors import AppError, forbidden
from app.models import Game
from app.rules.types import Identifier, Line
from app.services.auth import Principal, is_admin

router = APIRouter(prefix="/api/v1", tags=["chat bots"], dependencies=CHECKED_IDS)
inbound = APIRouter(prefix="/api/v1/chat", tags=["chat bots"], dependencies=CHECKED_IDS)

ADMIN = problems(400, 401, 403, 404, 413, 422, 503)


class NewBot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["telegram", "discord", "onebot"]
    name: Annotated[Line, Field(min_length=1, max_length=100)]
    config: dict[str, Any] = Field(description="Secrets are stored sealed, never returned")


class BotOut(BaseModel):
    id: str
    kind: str
    name: str
    webhook_path: str
    identity: dict[str, Any]


class GameChat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bot_ids: list[Identifier] = Field(max_length=10)
    dm_orders: bool = True
    dm_notifications: bool = True


class Notify(BaseModel):
    model_config = ConfigDict(extra="forbid")

    notify: bool = Field(description="Send me my reminders and private results privately")


class Done(BaseModel):
    ok: bool


class ChatBotInfo(BaseModel):
    id: str
    kind: str
    name: str
    identity: dict[str, Any]


class ChatLink(BaseModel):
    id: int
    player_id: str
    player: str
    bot_id: str
    kind: str | None
    notify: bool
    linked_at: str


class GameChatOut(BaseModel):
    bot_ids: list[str]
    bots: list[ChatBotInfo]
    dm_orders: bool
    dm_notifications: bool
    links: list[ChatLink]


class NotifyOut(BaseModel):
    notify: bool
    links: int = Field(description="How many of your chat accounts this applies to")


class PlatformAnswer(BaseModel):
    """The platform's own reply shape (Telegram method call, Discord interaction
    response, OneBot quick operation), or ``{}``."""

    model_config = ConfigDict(extra="allow")


class LinkCode(BaseModel):
    code: str
    expires_at: str


def _require_admin(request: Request, token: str | None) -> None:
    admin_token = request.app.state.settings.admin_token
    if not admin_token:
        raise forbidden(
            "服务未设置 ADMIN_TOKEN：机器人只能用命令行 `forumplay bot add` 注册。",
            "No ADMIN_TOKEN is set: register bots with the command line `forumplay bot add`.",
            code="admin_token_unset",
        )
    if not is_admin(token, admin_token):
        raise AppError(401, "admin_required", "需要管理员令牌。", "The admin token is required.")


@router.post("/bots", status_code=201, response_model=BotOut, responses=ADMIN)
async def add_bot(request: Request, body: NewBot, token: Token) -> JSONResponse:
    """Register a bot (admin token; without ADMIN_TOKEN, the command line only)."""
    _require_admin(request, token)
    settings = request.app.state.settings

    async def action(session: AsyncSession) -> Any:
        return await bots.add_bot(
            session, body.kind, body.name, body.config, now(request), settings
        )

    return await run(request, action, status_code=201)


@router.get("/bots", response_model=list[BotOut], responses=ADMIN)
async def list_bots(request: Request, token: Token) -> JSONResponse:
    """The registered bots (no secrets)."""
    _require_admin(request, token)
    return await run(request, bots.list_bots, read_only=True)


@router.delete("/bots/{bot_id}", response_model=Done, responses=ADMIN)
async def remove_bot(request: Request, bot_id: str, token: Token) -> JSONResponse:
    """Remove a bot: it stops answering and sending."""
    _require_admin(request, token)

    async def action(session: AsyncSession) -> Any:
        return await bots.remove_bot(session, bot_id, now(request))

    return await run(request, action)


@router.put("/games/{game_id}/chat", response_model=GameChatOut, responses=GAME_WRITE)
async def put_chat(request: Request, game_id: str, body: GameChat, token: Token) -> JSONResponse:
    """Turn bots on for the game (director): orders and notifications by private message."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await bots.set_game_chat(session, game, principal, body.model_dump(), now(request))

    return await run_game(request, game_id, token, action)


@router.get("/games/{game_id}/chat", response_model=GameChatOut, responses=GAME_ACTION)
async def get_chat(request: Request, game_id: str, token: Token) -> JSONResponse:
    """The game's bots and who is linked where (director)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await bots.get_game_chat(session, game, principal)

    return await run_game(request, game_id, token, action, lock=False)


@router.delete("/games/{game_id}/chat/links/{link_id}", response_model=Done, responses=GAME_ACTION)
async def unlink(
    request: Request, game_id: str, link_id: Annotated[int, Path(ge=1, le=2**31 - 1)], token: Token
) -> JSONResponse:
    """Unlink a chat account from its seat (director)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await bots.unlink(session, game, principal, link_id)

    return await run_game(request, game_id, token, action)


@router.put("/games/{game_id}/chat/notify", response_model=NotifyOut, responses=GAME_WRITE)
async def put_notify(request: Request, game_id: str, body: Notify, token: Token) -> JSONResponse:
    """A player's choice: reminders and private results by private message, or not."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await links.set_notify(session, game, principal, body.notify)

    return await run_game(request, game_id, token, action)


@router.post(
    "/games/{game_id}/players/{player_id}/link-code",
    status_code=201,
    response_model=LinkCode,
    responses=GAME_ACTION,
)
async def link_code(request: Request, game_id: str, player_id: str, token: Token) -> JSONResponse:
    """A one-time code that links a chat account to this seat (that player, or the director)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await links.make_code(session, game, principal, player_id, now(request))

    return await run_game(request, game_id, token, action, status_code=201)


INBOUND = problems(401, 404, 413, 422, 503)


async def _receive(request: Request, kind: str, bot_id: str) -> JSONResponse:
    body = await request.body()
    inbox = request.app.state.chat_inbox
    return JSONResponse(await inbox.receive(kind, bot_id, request.headers, body))


@inbound.post("/telegram/{bot_id}", response_model=PlatformAnswer, responses=INBOUND)
async def telegram(request: Request, bot_id: str) -> JSONResponse:
    """Telegram's webhook: an Update (``X-Telegram-Bot-Api-Secret-Token`` checked)."""
    return await _receive(request, "telegram", bot_id)


@inbound.post("/discord/{bot_id}", response_model=PlatformAnswer, responses=INBOUND)
async def discord(request: Request, bot_id: str) -> JSONResponse:
    """Discord's interactions endpoint (Ed25519 signature checked; PING → PONG)."""
    return await _receive(request, "discord", bot_id)


@inbound.post("/onebot/{bot_id}", response_model=PlatformAnswer, responses=INBOUND)
async def onebot(request: Request, bot_id: str) -> JSONResponse:
    """A OneBot v11 event report (``X-Signature: sha1=…`` checked)."""
    return await _receive(request, "onebot", bot_id)
