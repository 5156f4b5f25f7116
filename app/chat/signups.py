"""Sign-ups in a game's chat group: "报名" / "sign", "退出" / "unsign" and "名单" / "slist"
said in the QQ or Telegram group a game posts to are taken exactly as in its forum thread
(:func:`app.services.signup_messages.signup_from_message`); the sender's display name is
the sign-up's forum name. Said privately, or in a group no game in setup posts to, they
are nothing of the kind."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.chat.base import Incoming
from app.chat.models import ChatBotRow, ChatGameRow
from app.models import Game
from app.publish.models import ChannelRow
from app.services.games import load_game
from app.services.signup_messages import command_of, signup_from_message
from app.settings import get_settings

# The channel kinds that post into a chat group, and the config field naming the group.
GROUP_FIELDS = {"onebot": "group_id", "telegram": "chat_id"}


async def group_signup(
    session: AsyncSession, bot: ChatBotRow, incoming: Incoming, lang: str, now: datetime
) -> str | None:
    """The answer to a sign-up command said in a game's group, or None (not one)."""
    if incoming.private or incoming.group is None or command_of(incoming.text) is None:
        return None
    game_id = await _game_in_setup_of(session, bot, incoming.group)
    if game_id is None:
        return None
    game = await load_game(session, game_id, lock=True)
    author = (incoming.name or incoming.account).strip()
    base = get_settings().public_url or ""
    answer = await signup_from_message(
        session, game, author, incoming.text, now, source="chat", base_url=base
    )
    if answer is None:
        return None
    return answer.reply_en if lang == "en" else answer.reply_zh


async def _game_in_setup_of(session: AsyncSession, bot: ChatBotRow, group: str) -> str | None:
    """The newest game in setup that turned this bot on and posts to ``group``."""
    using = [
        row.game_id
        for row in await session.scalars(select(ChatGameRow))
        if bot.id in (row.bot_ids or [])
    ]
    if not using:
        return None
    rows = await session.execute(
        select(ChannelRow, Game.created_at)
        .join(Game, Game.id == ChannelRow.game_id)
        .where(
            ChannelRow.game_id.in_(using),
            ChannelRow.kind.in_(list(GROUP_FIELDS)),
            ChannelRow.removed_at.is_(None),
            Game.status == "setup",
        )
        .order_by(Game.created_at.desc())
    )
    for channel, _ in rows:
        if str(channel.config.get(GROUP_FIELDS[channel.kind])) == group:
            return channel.game_id
    return None
