"""The bot registry (server-wide: the admin's, or the command line's) and a game's use of
bots (the director's). Secrets are sealed like channel secrets and never returned; what a
player may see of a bot is its ``identity`` (its @name, its invite link)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.chat.base import Platform
from app.chat.discord import Discord
from app.chat.models import ChatBotRow, ChatGameRow, ChatLinkRow
from app.chat.onebot import OneBot
from app.chat.telegram import Telegram
from app.errors import AppError, not_found
from app.ids import new_id
from app.models import Game, PlayerRow
from app.publish import secrets
from app.publish.urls import check_channel_url
from app.services.auth import Principal, require_director
from app.settings import Settings

PLATFORMS: dict[str, Platform] = {"telegram": Telegram(), "discord": Discord(), "onebot": OneBot()}


def platform(kind: str) -> Platform:
    found = PLATFORMS.get(kind)
    if found is None:
        raise AppError(
            422,
            "bad_bot_kind",
            f"未知的机器人类型「{kind}」，可选：telegram、discord、onebot。",
            f"Unknown bot kind '{kind}'; one of: telegram, discord, onebot.",
        )
    return found


def validate_config(kind: str, config: dict[str, Any], allow_private_urls: bool) -> dict[str, Any]:
    """The config as stored (normalised), or a 422 naming each bad field (no values)."""
    chosen = platform(kind)
    try:
        model = chosen.config_model.model_validate(config)
    except ValidationError as error:
        fields = [".".join(str(p) for p in e["loc"]) or "config" for e in error.errors()]
        raise AppError(
            422,
            "bad_bot_config",
            f"「{kind}」机器人的配置有误：{'、'.join(fields)}。",
            f"The {kind} bot's config is invalid: {', '.join(fields)}.",
            extra={"fields": fields},
        ) from None
    normalised = model.model_dump(mode="json", exclude_none=True)
    if not allow_private_urls:
        for name in chosen.url_fields:
            if isinstance(normalised.get(name), str):
                check_channel_url(name, normalised[name])
    return normalised


def seal(kind: str, config: dict[str, Any], settings: Settings | None = None) -> dict[str, Any]:
    hidden = set(platform(kind).secret_fields)
    return {
        k: secrets.encrypt(v, settings) if k in hidden and isinstance(v, str) else v
        for k, v in config.items()
    }


def open_config(row: ChatBotRow, settings: Settings | None = None) -> dict[str, Any]:
    hidden = set(platform(row.kind).secret_fields)
    return {
        k: secrets.decrypt(v, settings) if k in hidden and isinstance(v, str) else v
        for k, v in row.config.items()
    }


def webhook_path(row: ChatBotRow) -> str:
    return f"/api/v1/chat/{row.kind}/{row.id}"


def bot_json(row: ChatBotRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": row.kind,
        "name": row.name,
        "webhook_path": webhook_path(row),
        "identity": row.identity,
        "created_at": row.created_at.isoformat(),
    }


async def add_bot(
    session: AsyncSession,
    kind: str,
    name: str,
    config: dict[str, Any],
    now: datetime,
    settings: Settings,
) -> dict[str, Any]:
    normalised = await asyncio.to_thread(
        validate_config, kind, config, settings.publish_allow_private_urls
    )
    row = ChatBotRow(
        id=new_id(),
        kind=kind,
        name=name,
        config=seal(kind, normalised, settings),
        identity=platform(kind).identity(normalised),
        created_at=now,
        removed_at=None,
    )
    session.add(row)
    return bot_json(row)


async def list_bots(session: AsyncSession) -> list[dict[str, Any]]:
    rows = await session.scalars(
        select(ChatBotRow).where(ChatBotRow.removed_at.is_(None)).order_by(ChatBotRow.created_at)
    )
    return [bot_json(r) for r in rows]


async def live_bot(session: AsyncSession, bot_id: str, kind: str | None = None) -> ChatBotRow:
    row = await session.get(ChatBotRow, bot_id)
    if row is None or row.removed_at is not None or (kind is not None and row.kind != kind):
        raise not_found("机器人", "bot")
    return row


async def remove_bot(session: AsyncSession, bot_id: str, now: datetime) -> dict[str, Any]:
    row = await live_bot(session, bot_id)
    row.removed_at = now
    return {"ok": True, "id": row.id}


# ------------------------------------------------------------------------ a game's bots


async def game_chat(session: AsyncSession, game_id: str) -> ChatGameRow | None:
    return await session.get(ChatGameRow, game_id)


async def set_game_chat(
    session: AsyncSession, game: Game, principal: Principal, body: dict[str, Any], now: datetime
) -> dict[str, Any]:
    require_director(principal)
    ids: list[str] = list(dict.fromkeys(body["bot_ids"]))
    for bot_id in ids:
        await live_bot(session, bot_id)
    row = await session.get(ChatGameRow, game.id)
    if row is None:
        row = ChatGameRow(game_id=game.id, bot_ids=ids, dm_orders=True, dm_notifications=True)
        session.add(row)
    row.bot_ids = ids
    row.dm_orders = bool(body.get("dm_orders", True))
    row.dm_notifications = bool(body.get("dm_notifications", True))
    row.updated_at = now
    return await get_game_chat(session, game, principal)


async def game_bots(session: AsyncSession, game_id: str) -> list[ChatBotRow]:
    """The live bots the game has turned on, in its order."""
    row = await session.get(ChatGameRow, game_id)
    if row is None or not row.bot_ids:
        return []
    found = await session.scalars(select(ChatBotRow).where(ChatBotRow.id.in_(row.bot_ids)))
    by_id = {b.id: b for b in found if b.removed_at is None}
    return [by_id[i] for i in row.bot_ids if i in by_id]


async def get_game_chat(session: AsyncSession, game: Game, principal: Principal) -> dict[str, Any]:
    """The director's view: the bots on, the settings, who is linked where."""
    require_director(principal)
    row = await session.get(ChatGameRow, game.id)
    bots = await game_bots(session, game.id)
    links = (
        await session.execute(
            select(ChatLinkRow, PlayerRow.name)
            .join(PlayerRow, PlayerRow.id == ChatLinkRow.player_id)
            .where(ChatLinkRow.game_id == game.id)
            .order_by(ChatLinkRow.id)
        )
    ).all()
    kinds = {b.id: b.kind for b in bots}
    return {
        "bot_ids": [b.id for b in bots],
        "bots": [
            {"id": b.id, "kind": b.kind, "name": b.name, "identity": b.identity} for b in bots
        ],
        "dm_orders": bool(row and row.dm_orders),
        "dm_notifications": bool(row and row.dm_notifications),
        "links": [
            {
                "id": link.id,
                "player_id": link.player_id,
                "player": name,
                "bot_id": link.bot_id,
                "kind": kinds.get(link.bot_id),
                "notify": link.notify,
                "linked_at": link.linked_at.isoformat(),
            }
            for link, name in links
        ],
    }


async def unlink(
    session: AsyncSession, game: Game, principal: Principal, link_id: int
) -> dict[str, Any]:
    require_director(principal)
    link = await session.get(ChatLinkRow, link_id)
    if link is None or link.game_id != game.id:
        raise not_found("绑定", "link")
    await session.delete(link)
    return {"ok": True}


async def register_discord_commands(
    session: AsyncSession, bot_id: str, settings: Settings
) -> dict[str, Any]:
    """Register a Discord bot's slash commands with Discord (``forumplay bot commands``)."""
    from app.chat.discord import register_commands
    from app.publish.channels import make_http_client

    row = await live_bot(session, bot_id, "discord")
    async with make_http_client(settings.publish_allow_private_urls) as http:
        count = await register_commands(open_config(row, settings), http)
    return {"ok": True, "commands": count}
