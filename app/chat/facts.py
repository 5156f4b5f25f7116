"""What the posts may say of a game's chat bots: where a player sends hidden orders by
private message (the opening post's 【如何下令】). Public identities only."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.chat.models import ChatBotRow, ChatGameRow

# The platform's name before the bot's public handle; Discord is reached by its commands.
_SHOWN = {"telegram": "Telegram {handle}", "discord": "Discord /order", "onebot": "{handle}"}


def dm_bots(session: Session, game_ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Per game (of those that take orders by private message): its live bots, as a player
    finds them."""
    games = {
        row.game_id: row
        for row in session.scalars(
            select(ChatGameRow).where(ChatGameRow.game_id.in_(list(game_ids)))
        )
        if row.dm_orders and row.bot_ids
    }
    wanted = {bot_id for row in games.values() for bot_id in row.bot_ids}
    bots = {
        b.id: b
        for b in session.scalars(select(ChatBotRow).where(ChatBotRow.id.in_(wanted)))
        if b.removed_at is None
    }
    out: dict[str, tuple[str, ...]] = {}
    for game_id, row in games.items():
        shown = []
        for bot_id in row.bot_ids:
            bot = bots.get(bot_id)
            if bot is None:
                continue
            handle = str((bot.identity or {}).get("handle") or bot.name)
            shown.append(_SHOWN.get(bot.kind, "{handle}").format(handle=handle))
        if shown:
            out[game_id] = tuple(shown)
    return out
