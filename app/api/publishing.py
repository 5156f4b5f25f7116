"""Publishing: settings, channels, the posts and their review, reminders (API.md "Publishing")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import CHECKED_IDS, Token, now, run_game
from app.api.problems import GAME_ACTION, GAME_READ, GAME_WRITE
from app.models import Game
from app.rules.types import MAX_DURATION_SECONDS, Identifier, Line, Name, Title, refused_character
from app.services import publishing as service
from app.services.auth import Principal

router = APIRouter(prefix="/api/v1/games/{game_id}", tags=["publishing"], dependencies=CHECKED_IDS)

Format = Literal["bbcode", "markdown", "text"]
MAX_BODY_LENGTH = 200_000  # a long round result in BBCode tables stays well below
MAX_ROW_ID = 2**31 - 1  # seq and delivery ids are 32-bit integers in the database


def _check_body(value: str) -> str:
    bad = refused_character(value, multiline=True)
    if bad is not None:
        raise ValueError(f"contains a control or invisible character (U+{ord(bad):04X})")
    return value


PostBody = Annotated[str, Field(max_length=MAX_BODY_LENGTH), AfterValidator(_check_body)]
OffsetSeconds = Annotated[int, Field(gt=0, le=MAX_DURATION_SECONDS)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PublishingSettings(Strict):
    review: Literal["always", "never"] | None = None
    auto_publish_after_seconds: OffsetSeconds | None = Field(
        None, description="Publish a post nobody reviewed this long after it was made; null: never"
    )
    language: Literal["zh", "en"] | None = None

    @model_validator(mode="after")
    def _not_null(self) -> PublishingSettings:
        for name in ("review", "language"):
            if name in self.model_fields_set and getattr(self, name) is None:
                raise ValueError(f"{name} may be left out but not null")
        return self


class NewChannel(Strict):
    kind: Literal["webhook", "misago", "discourse", "discord", "telegram", "onebot", "manual"]
    name: Name
    format: Format | None = Field(None, description="Default: the channel kind's own")
    config: dict[str, Any] = Field(default_factory=dict)


class Bodies(Strict):
    bbcode: PostBody | None = None
    markdown: PostBody | None = None
    text: PostBody | None = None


class EditPost(Strict):
    title: Annotated[Title, Field(min_length=1)] | None = None  # a thread needs a title
    bodies: Bodies | None = None


class Posted(Strict):
    url: Annotated[Line, Field(min_length=8, max_length=2000, pattern=r"^https?://")]


class Reminders(Strict):
    before_seconds: list[OffsetSeconds] = Field(max_length=10, examples=[[7200, 1800]])
    channel_id: Identifier | None = None


class ForumName(Strict):
    forum_name: Name | None


class DeliveryOut(BaseModel):
    id: int
    channel_id: str
    status: Literal["pending", "sending", "sent", "failed", "manual", "discarded"]
    attempts: int
    remote_url: str | None
    error: str | None
    next_attempt_at: str | None


class PostOut(BaseModel):
    id: str
    seq: int
    kind: str
    status: Literal["awaiting_review", "published", "discarded"]
    title: str
    bodies: dict[Format, str]
    created_at: str
    publish_at: str | None
    published_at: str | None
    deliveries: list[DeliveryOut]


class RemindersOut(BaseModel):
    before_seconds: list[int]
    channel_id: str | None


class PublishingOut(BaseModel):
    review: Literal["always", "never"]
    auto_publish_after_seconds: int | None
    language: Literal["zh", "en"]
    reminders: RemindersOut


class Removed(BaseModel):
    ok: bool


class PlayerForumName(BaseModel):
    id: str
    name: str
    side: str | None
    forum_name: str | None


class ChannelOut(BaseModel):
    id: str
    kind: str
    name: str
    format: Format
    config: dict[str, Any] = Field(description="Secrets redacted")
    created_at: str


@router.get("/publishing", response_model=PublishingOut, responses=GAME_ACTION)
async def get_publishing(request: Request, game_id: str, token: Token) -> JSONResponse:
    """The game's publishing settings and reminders."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.get_publishing(session, game, principal, now(request))

    return await run_game(request, game_id, token, action)


@router.put("/publishing", response_model=PublishingOut, responses=GAME_WRITE)
async def put_publishing(
    request: Request, game_id: str, body: PublishingSettings, token: Token
) -> JSONResponse:
    """Change review, auto-publish and language (fields left out stay as they are)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        changes = body.model_dump(exclude_unset=True)
        return await service.set_publishing(session, game, principal, changes, now(request))

    return await run_game(request, game_id, token, action)


@router.put("/reminders", response_model=RemindersOut, responses=GAME_WRITE)
async def put_reminders(
    request: Request, game_id: str, body: Reminders, token: Token
) -> JSONResponse:
    """Before each deadline, post who has not yet ordered or readied ([] turns it off)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.set_reminders(
            session, game, principal, body.before_seconds, body.channel_id, now(request)
        )

    return await run_game(request, game_id, token, action)


@router.post("/channels", status_code=201, response_model=ChannelOut, responses=GAME_WRITE)
async def create_channel(
    request: Request, game_id: str, body: NewChannel, token: Token
) -> JSONResponse:
    """Add a channel; its secrets are stored encrypted and never shown again."""
    allow_private = request.app.state.settings.publish_allow_private_urls

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.create_channel(
            session,
            game,
            principal,
            body.kind,
            body.name,
            body.format,
            body.config,
            allow_private,
            now(request),
        )

    return await run_game(request, game_id, token, action, status_code=201, idempotent=True)


@router.get("/channels", response_model=list[ChannelOut], responses=GAME_ACTION)
async def list_channels(request: Request, game_id: str, token: Token) -> JSONResponse:
    """The game's channels (secrets redacted)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.list_channels(session, game, principal)

    return await run_game(request, game_id, token, action, lock=False)


@router.delete("/channels/{channel_id}", response_model=Removed, responses=GAME_ACTION)
async def delete_channel(
    request: Request, game_id: str, channel_id: str, token: Token
) -> JSONResponse:
    """Remove a channel: nothing more is sent to it."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.delete_channel(session, game, principal, channel_id, now(request))

    return await run_game(request, game_id, token, action)


@router.get("/posts", response_model=list[PostOut], responses=GAME_READ)
async def list_posts(
    request: Request,
    game_id: str,
    token: Token,
    after: int = Query(0, ge=0, le=MAX_ROW_ID, description="Only posts with a higher seq"),
    limit: int = Query(200, ge=1, le=1000),
) -> JSONResponse:
    """Posts in seq order: the director sees all, everyone else the published ones."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.list_posts(session, game, principal, after, limit)

    return await run_game(request, game_id, token, action, lock=False)


@router.patch("/posts/{post_id}", response_model=PostOut, responses=GAME_WRITE)
async def edit_post(
    request: Request, game_id: str, post_id: str, body: EditPost, token: Token
) -> JSONResponse:
    """Edit a post's title or bodies before it is published."""
    bodies = body.bodies.model_dump(exclude_none=True) if body.bodies else {}

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.edit_post(
            session, game, principal, post_id, body.title, bodies, now(request)
        )

    return await run_game(request, game_id, token, action)


@router.post("/posts/{post_id}/approve", response_model=PostOut, responses=GAME_ACTION)
async def approve_post(request: Request, game_id: str, post_id: str, token: Token) -> JSONResponse:
    """Publish a post awaiting review now."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.approve_post(session, game, principal, post_id, now(request))

    return await run_game(request, game_id, token, action)


@router.post("/posts/{post_id}/discard", response_model=PostOut, responses=GAME_ACTION)
async def discard_post(request: Request, game_id: str, post_id: str, token: Token) -> JSONResponse:
    """Never publish a post awaiting review (published: give up its failed deliveries)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.discard_post(session, game, principal, post_id, now(request))

    return await run_game(request, game_id, token, action)


@router.post("/posts/{post_id}/retry", response_model=PostOut, responses=GAME_ACTION)
async def retry_post(request: Request, game_id: str, post_id: str, token: Token) -> JSONResponse:
    """Send the post's failed deliveries again."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.retry_post(session, game, principal, post_id, now(request))

    return await run_game(request, game_id, token, action)


@router.post(
    "/posts/{post_id}/deliveries/{delivery_id}/posted", response_model=PostOut, responses=GAME_WRITE
)
async def mark_posted(
    request: Request,
    game_id: str,
    post_id: str,
    body: Posted,
    token: Token,
    delivery_id: int = Path(ge=1, le=MAX_ROW_ID),
) -> JSONResponse:
    """Record where the director posted it by hand (manual channel, or after a failure)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.mark_posted(
            session, game, principal, post_id, delivery_id, body.url, now(request)
        )

    return await run_game(request, game_id, token, action)


@router.patch("/players/{player_id}", response_model=PlayerForumName, responses=GAME_WRITE)
async def set_forum_name(
    request: Request, game_id: str, player_id: str, body: ForumName, token: Token
) -> JSONResponse:
    """Set a player's forum name (named in reminders, matched by the forum bridge)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await service.set_forum_name(
            session, game, principal, player_id, body.forum_name, now(request)
        )

    return await run_game(request, game_id, token, action)
