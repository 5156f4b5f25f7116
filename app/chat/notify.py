"""Telling each player what is theirs, privately: the reminder before a deadline (only to
those who have not acted), and the private results — the player's own events, the ones
the public does not see — each as one message in the chat outbox (``chat_messages``),
unique per (link, event) or (link, deadline, offset), so a message is queued once however
often the pass runs. Only what the player's own view shows is ever sent: the events are
chosen by the same audience filter as ``GET /events`` for that player."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import EventRow, Game, PlayerRow
from app.rules.base import Viewer, event_visible


def viewer_of(player: PlayerRow) -> Viewer:
    return Viewer(role="player", player_id=player.id, side=player.side)


async def visible_count(session: AsyncSession, game: Game, player: PlayerRow) -> int:
    viewer = viewer_of(player)
    rows = await session.execute(
        select(EventRow.audience).where(EventRow.game_id == game.id).order_by(EventRow.seq)
    )
    return sum(1 for (audience,) in rows if event_visible(audience, None, viewer, finished=False))
