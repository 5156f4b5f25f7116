"""Link codes: a player's one-time code (the same kind as forum linking, ``FP-XXXXXXXX``)
that links the chat account which sends it to their seat. Stored as a hash; one use;
valid for a day."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.bridge.service import new_code
from app.bridge.text import link_code
from app.chat.models import ChatAccountRow, ChatBotRow, ChatCodeRow, ChatLinkRow
from app.errors import forbidden, not_found
from app.models import Game, PlayerRow
from app.services.auth import Principal, require_known

CODE_LIFETIME = timedelta(hours=24)


def code_hash(code: str) -> str:
    return hashlib.sha256(("chat|" + code.upper()).encode()).hexdigest()


async def make_code(
    session: AsyncSession, game: Game, principal: Principal, player_id: str, now: datetime
) -> dict[str, Any]:
    """``POST /games/{id}/players/{pid}/link-code``: that player, or the director."""
    require_known(principal)
    player = await session.get(PlayerRow, player_id)
    if player is None or player.game_id != game.id:
        raise not_found("玩家", "player")
    if principal.role != "director" and (
        principal.player is None or principal.player.id != player_id
    ):
        raise forbidden("只能为自己获取绑定码。", "You may get a link code for yourself only.")
    code = new_code()
    expires = now + CODE_LIFETIME
    session.add(
        ChatCodeRow(
            game_id=game.id,
            player_id=player.id,
            code_hash=code_hash(code),
            created_at=now,
            expires_at=expires,
            used_at=None,
        )
    )
    return {"code": code, "expires_at": expires.isoformat()}


async def redeem(
    session: AsyncSession, bot: ChatBotRow, account: str, chat: str, text: str, now: datetime
) -> tuple[ChatLinkRow, PlayerRow, Game] | None:
    """Spend a code sent to ``bot``: the account now speaks for the code's seat. None: no
    such code, used, expired, or its game does not use this bot."""
    from app.chat.bots import game_bots

    code = link_code(text)
    if code is None:
        return None
    row = await session.scalar(select(ChatCodeRow).where(ChatCodeRow.code_hash == code_hash(code)))
    if row is None or row.used_at is not None or row.expires_at <= now:
        return None
    if bot.id not in {b.id for b in await game_bots(session, row.game_id)}:
        return None
    player = await session.get(PlayerRow, row.player_id)
    game = await session.get(Game, row.game_id)
    if player is None or game is None:
        return None
    row.used_at = now
    link = await session.scalar(
        select(ChatLinkRow).where(
            ChatLinkRow.bot_id == bot.id,
            ChatLinkRow.account == account,
            ChatLinkRow.game_id == game.id,
        )
    )
    if link is None:
        link = ChatLinkRow(
            bot_id=bot.id,
            account=account,
            game_id=game.id,
            notify=True,
            events_seen=await _events_now(session, game, player),
        )
        session.add(link)
    link.player_id, link.chat, link.linked_at = player.id, chat, now
    return link, player, game


async def _events_now(session: AsyncSession, game: Game, player: PlayerRow) -> int:
    """How many events the player can see now: private results start after them."""
    from app.chat.notify import visible_count

    return await visible_count(session, game, player)


async def account_row(
    session: AsyncSession, bot_id: str, account: str, now: datetime
) -> ChatAccountRow:
    row = await session.get(ChatAccountRow, (bot_id, account))
    if row is None:
        row = ChatAccountRow(
            bot_id=bot_id, account=account, lang="zh", game_id=None, updated_at=now
        )
        session.add(row)
    return row


async def links_of(
    session: AsyncSession, bot_id: str, account: str
) -> list[tuple[ChatLinkRow, PlayerRow, Game]]:
    """The account's seats on this bot, in the order they were linked."""
    rows = await session.execute(
        select(ChatLinkRow, PlayerRow, Game)
        .join(PlayerRow, PlayerRow.id == ChatLinkRow.player_id)
        .join(Game, Game.id == ChatLinkRow.game_id)
        .where(ChatLinkRow.bot_id == bot_id, ChatLinkRow.account == account)
        .order_by(ChatLinkRow.id)
    )
    return [(link, player, game) for link, player, game in rows]


async def set_notify(
    session: AsyncSession, game: Game, principal: Principal, notify: bool
) -> dict[str, Any]:
    """The player's opt-in: their reminders and private results by private message."""
    from app.services.auth import require_player

    player = require_player(principal)
    rows = await session.scalars(
        select(ChatLinkRow).where(
            ChatLinkRow.game_id == game.id, ChatLinkRow.player_id == player.id
        )
    )
    count = 0
    seen: int | None = None
    for row in rows:
        if notify and not row.notify:  # from now on: not what happened while it was off
            if seen is None:
                found = await session.get(PlayerRow, player.id)
                seen = 0 if found is None else await _events_now(session, game, found)
            row.events_seen = seen
        row.notify = notify
        count += 1
    return {"notify": notify, "links": count}


async def player_chat(
    session: AsyncSession, game: Game, principal: Principal
) -> dict[str, Any] | None:
    """What the player's page shows about the game's bots: each bot's public identity,
    whether this player has linked an account to it, and their opt-in. None: no bots."""
    from app.chat.bots import game_bots

    player = principal.player
    if player is None or game.status == "finished":
        return None
    found = await game_bots(session, game.id)
    if not found:
        return None
    rows = list(
        await session.scalars(
            select(ChatLinkRow).where(
                ChatLinkRow.game_id == game.id, ChatLinkRow.player_id == player.id
            )
        )
    )
    linked = {r.bot_id for r in rows}
    return {
        "bots": [
            {"id": b.id, "kind": b.kind, "identity": b.identity, "linked": b.id in linked}
            for b in found
        ],
        "notify": any(r.notify for r in rows),
        "linked": bool(rows),
    }
